// SPDX-License-Identifier: GPL-2.0
/*
 * Event names, field names, the text form of an event, format detection;
 * the error message and allocation helpers every file uses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"

const char *const ev_names[EV_NR] = {
	[EV_OTHER] = "other",
	[EV_AV_LOCK_START] = "anon_vma_lock_start",
	[EV_AV_LOCK_ACQUIRED] = "anon_vma_lock_acquired",
	[EV_AV_LOCK_RELEASED] = "anon_vma_lock_released",
	[EV_AV_ALLOC] = "anon_vma_alloc",
	[EV_AV_ATTACH] = "anon_vma_attach",
	[EV_AV_GET] = "anon_vma_get",
	[EV_AV_GET_FAILED] = "anon_vma_get_failed",
	[EV_AV_PUT] = "anon_vma_put",
	[EV_AV_FREE] = "anon_vma_free",
	[EV_AV_REUSE] = "anon_vma_reuse",
	[EV_IM_LOCK_START] = "i_mmap_lock_start",
	[EV_IM_LOCK_ACQUIRED] = "i_mmap_lock_acquired",
	[EV_IM_LOCK_RELEASED] = "i_mmap_lock_released",
	[EV_G_START] = "mmu_gather_start",
	[EV_G_FLUSH] = "mmu_gather_flush",
	[EV_G_BATCH_ALLOC] = "mmu_gather_batch_alloc",
	[EV_G_RESCHED] = "mmu_gather_resched",
	[EV_G_FINISH] = "mmu_gather_finish",
	[EV_AL_START] = "mm_take_all_locks_start",
	[EV_AL_ACQUIRED] = "mm_take_all_locks_acquired",
	[EV_AL_DROP] = "mm_drop_all_locks",
	[EV_SCHED_SWITCH] = "sched_switch",
	[EV_SCHED_WAKEUP] = "sched_wakeup",
	[EV_MARKER] = "print",
};

const char *const field_names[F_NR] = {
	[F_ANON_VMA] = "anon_vma", [F_ROOT] = "root", [F_PARENT] = "parent",
	[F_REFCOUNT] = "refcount", [F_NUM_CHILDREN] = "num_children",
	[F_MAPPING] = "mapping", [F_INO] = "ino", [F_TLB] = "tlb", [F_MM] = "mm",
	[F_FULLMM] = "fullmm",
	[F_NESTED] = "nested", [F_PAGES] = "pages", [F_BATCHES] = "batches",
	[F_BATCH_COUNT] = "batch_count",
	[F_NEED_RESCHED] = "need_resched", [F_ANON_VMA_ROOTS] = "anon_vma_roots",
	[F_MAPPINGS] = "mappings", [F_RET] = "ret", [F_WRITE] = "write",
	[F_SUCCESS] = "success", [F_CONTENDED] = "contended",
	[F_PREV_PID] = "prev_pid", [F_PREV_STATE] = "prev_state",
	[F_NEXT_PID] = "next_pid", [F_PID] = "pid",
};

void report_err(int errnum, const char *what, const char *why, ...)
{
	va_list ap;

	fflush(stdout);		/* the report so far first, when both are one file */
	fprintf(stderr, "mmreport: %s: ", what);
	va_start(ap, why);
	vfprintf(stderr, why, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void *xrealloc(void *p, size_t size)
{
	void *n = realloc(p, size);

	if (!n && size) {
		report_err(errno, "memory", "cannot allocate %zu bytes", size);
		exit(ST_TROUBLE);
	}
	return n;
}

const char *fmt_ts(u64 ns, char *buf, size_t len)
{
	u64 us = (ns + 500) / 1000;

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
	return buf;
}

const char *ev_system(enum ev_type t)
{
	if (t >= EV_AV_LOCK_START && t <= EV_AV_REUSE)
		return "anon_vma";
	if (t >= EV_IM_LOCK_START && t <= EV_IM_LOCK_RELEASED)
		return "i_mmap";
	if (t >= EV_G_START && t <= EV_G_FINISH)
		return "mmu_gather";
	if (t >= EV_AL_START && t <= EV_AL_DROP)
		return "mm_all_locks";
	if (t == EV_SCHED_SWITCH || t == EV_SCHED_WAKEUP)
		return "sched";
	return "ftrace";
}

enum ev_type ev_type_of(const char *name)
{
	for (int t = 1; t < EV_NR; t++)
		if (!strcmp(ev_names[t], name))
			return t;
	return EV_OTHER;
}

static const char *state_letters(int64_t s)
{
	static const char *const l[] = { "S", "D", "T", "t", "X", "Z", "P", "I" };

	if (s & TASK_STATE_PREEMPTED)
		return "R+";
	for (int i = 0; i < 8; i++)
		if (s & (1 << i))
			return l[i];
	return "R";
}

/* "ts cpu pid comm event key=value...": what read_text() reads back. */
void ev_print(FILE *f, const struct mm_event *e)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64 " %d %d %s %s", e->ts / 1000000000,
		e->ts % 1000000000, e->cpu, e->pid, e->comm[0] ? e->comm : "<...>", e->name);
	for (int i = 0; i < F_NR; i++) {
		if (!has(e, i))
			continue;
		if ((1u << i) & F_POINTERS)
			fprintf(f, " %s=0x%" PRIx64, field_names[i], (u64)e->f[i]);
		else if ((1u << i) & F_BOOLS)
			fprintf(f, " %s=%s", field_names[i], e->f[i] ? "true" : "false");
		else if (i == F_PREV_STATE)
			fprintf(f, " %s=%s", field_names[i], state_letters(e->f[i]));
		else
			fprintf(f, " %s=%" PRId64, field_names[i], e->f[i]);
	}
	if (e->type == EV_MARKER)
		fprintf(f, " marker=%s", e->marker);
	fputc('\n', f);
}

int read_events(const char *path, ev_sink sink, void *data, struct read_result *r)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char head[sizeof(magic)];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		report_err(errno, path, "cannot open the trace");
		return -1;
	}
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (n == sizeof(head) && !memcmp(head, magic, sizeof(magic)))
		return read_dat(path, sink, data, r);
	return read_text(path, sink, data, r);
}
