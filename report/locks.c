// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma and i_mmap lock waits and holds. A lock is the anon_vma tree's
 * root (the rwsem lives there) or the address_space. An acquisition is
 * contended when its acquired event says so (contended=true): the kernel
 * knows, a clock threshold would only guess. Only a contended acquisition
 * has a wait: lock_start, emitted when the task is about to block, to the
 * acquired event of the same task, lock and mode. Hold: acquired (success)
 * to released by the same task. A release by a task that holds nothing
 * there while another task does breaks the "released by its acquirer"
 * invariant; a release nobody in the trace acquired was taken before the
 * trace began, and is only counted.
 *
 * All that is known of one lock is in one struct lock, found with one
 * lookup: its holders and, for an anon_vma root, its row of the roots
 * table. All that is known of one task is in one struct task: the lock it
 * waits for, how many of each kind it holds, when it was switched out
 * holding one. A lock event looks up its lock and its task, a switch its
 * two tasks, and nothing else.
 *
 * The tables print one row per lock kind and mode, perf lock's way: a
 * header naming each column, every cell one word right-aligned under it (a
 * duration is fmt_ns()'s figure and unit, "-" when nothing was timed), so
 * that awk can pick any of them by column.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hmap.h"
#include "report.h"

static const char *const kind_names[2] = { "anon_vma", "i_mmap" };
static const char *const mode_names[2] = { "read", "write" };

/* One lock kind in one mode: a row of each lock table. */
struct modestat {
	u64 started, acquired, failed, contended, released;
	u64 before_trace;	/* releases of a lock taken before the trace */
	u64 nested;		/* releases of a read lock the task took again */
	u64 wait_before_trace;	/* contended, its lock_start not in the trace */
	struct dist wait, hold;
};

struct kindstat {
	struct modestat m[2];	/* [write] */
	u64 no_field;		/* acquired events with no contended field */
	u64 switched, switched_runnable;
	struct dist offcpu;	/* a holder's time switched out */
};

/* A task holding a lock: since ts, and nest more times on top (a read lock) */
struct holder {
	int pid, write;
	u64 ts, nest;
};

struct lock {
	u64 addr;
	struct holder *h;	/* in the order they took it */
	size_t nh, caph;
	/*
	 * An anon_vma root's row of the roots table, made when a hold or a
	 * wait on it first ends (row: its index + 1 in roots; comm: that task).
	 */
	size_t row;
	u64 holds, hold_ns, hold_max, waits, wait_ns, members;
	char comm[32];
};

struct task {
	bool waiting;		/* from its lock_start to its acquisition */
	int wait_kind, wait_write;
	u64 wait_lock, wait_ts;
	u64 held[2];		/* locks of each kind it holds */
	bool off[2];		/* switched out holding one of that kind, */
	u64 off_ts[2];		/* at that time */
};

static struct kindstat ks[2];
static struct hmap lock_ix;	/* (address, kind) -> index + 1 in locks */
static struct lock *locks;
static size_t nlocks, caplocks;
static struct hmap task_ix;	/* (pid, 0) -> index + 1 in tasks */
static struct task *tasks;
static size_t ntasks, captasks;
static struct hmap member;	/* (anon_vma, root) -> seen holding or waiting */
static size_t *roots;		/* indexes in locks, in the order their rows came */
static size_t nroots, caproots;

/* The lock; a pointer into locks, stale after the next lock_of(). */
static struct lock *lock_of(u64 addr, int kind)
{
	u64 *ix = hmap_get(&lock_ix, addr, kind, true);

	if (!*ix) {
		grow(&locks, &caplocks, nlocks, sizeof(*locks));
		locks[nlocks] = (struct lock){ .addr = addr };
		*ix = ++nlocks;
	}
	return &locks[*ix - 1];
}

/* The task, made if create; a pointer stale after the next creation. */
static struct task *task_of(int64_t pid, bool create)
{
	u64 *ix = hmap_get(&task_ix, (uint32_t)pid, 0, create);

	if (!ix)
		return NULL;
	if (!*ix) {
		grow(&tasks, &captasks, ntasks, sizeof(*tasks));
		tasks[ntasks] = (struct task){ 0 };
		*ix = ++ntasks;
	}
	return &tasks[*ix - 1];
}

static struct holder *holder_of(struct lock *l, int pid, int w)
{
	for (size_t i = 0; i < l->nh; i++)
		if (l->h[i].pid == pid && l->h[i].write == w)
			return &l->h[i];
	return NULL;
}

/* The task that took the lock in mode w last of those still holding it. */
static const struct holder *last_holder(const struct lock *l, int w)
{
	for (size_t i = l->nh; i-- > 0;)
		if (l->h[i].write == w)
			return &l->h[i];
	return NULL;
}

static void add_holder(struct lock *l, int pid, int w, u64 ts)
{
	if (l->nh == l->caph) {
		/* most locks have one holder at a time: start small */
		l->caph = l->caph ? 2 * l->caph : 2;
		l->h = xrealloc(l->h, l->caph * sizeof(*l->h));
	}
	l->h[l->nh++] = (struct holder){ .pid = pid, .write = w, .ts = ts };
}

static void del_holder(struct lock *l, struct holder *h)
{
	memmove(h, h + 1, (l->h + --l->nh - h) * sizeof(*h));
}

/* An anon_vma root whose hold or wait ended: its roots table row. */
static void root_row(struct lock *l, const struct mm_event *e)
{
	u64 *seen = hmap_get(&member, fu(e, F_ANON_VMA), l->addr, true);

	if (!l->row) {
		grow(&roots, &caproots, nroots, sizeof(*roots));
		roots[nroots] = l - locks;
		l->row = ++nroots;
		snprintf(l->comm, sizeof(l->comm), "%s", e->comm);
	}
	if (!*seen) {
		*seen = 1;
		l->members++;
	}
}

static void on_switch(const struct mm_event *e)
{
	/* no task is made here: a new one holds nothing and was never off */
	struct task *prev = task_of(e->f[F_PREV_PID], false);
	struct task *next = task_of(e->f[F_NEXT_PID], false);

	if (prev && (prev->held[0] || prev->held[1]))
		timeline_add(TL_SWITCH, (int)e->f[F_PREV_PID], 0, e->ts, e->ts);
	for (int k = 0; k < 2; k++) {
		if (prev && prev->held[k]) {
			ks[k].switched++;
			if (switched_runnable(e))
				ks[k].switched_runnable++;
			prev->off[k] = true;
			prev->off_ts[k] = e->ts;
		}
		if (next && next->off[k]) {
			dist_add(&ks[k].offcpu, e->ts - next->off_ts[k]);
			next->off[k] = false;
		}
	}
}

static void lock_start(const struct mm_event *e, struct task *t, int kind, int w, u64 lock)
{
	ks[kind].m[w].started++;
	if (t->waiting)
		violation(INV_WAIT, e, "lock_start while pid %d still waits for the %s %s "
			  "lock 0x%" PRIx64, e->pid, kind_names[t->wait_kind],
			  mode_names[t->wait_write], t->wait_lock);
	t->waiting = true;
	t->wait_lock = lock;
	t->wait_ts = e->ts;
	t->wait_kind = kind;
	t->wait_write = w;
}

/* The wait this acquisition ends, if it was contended, and the wait check. */
static void acquired_wait(const struct mm_event *e, struct task *t, struct lock *l,
			  int kind, int w)
{
	struct modestat *m = &ks[kind].m[w];
	bool contended = e->f[F_CONTENDED];

	if (!has(e, F_CONTENDED)) {
		/* a kernel before the field traced a start for every acquisition */
		ks[kind].no_field++;
		t->waiting = false;
		return;
	}
	if (contended)
		m->contended++;
	if (contended || t->waiting)
		inv_count(INV_WAIT);
	if (contended && !e->f[F_SUCCESS])
		violation(INV_WAIT, e, "a failed acquisition marked contended (a trylock "
			  "never waits)");
	if (!t->waiting) {
		if (contended)
			m->wait_before_trace++;
		return;
	}
	if (t->wait_lock != l->addr || t->wait_kind != kind || t->wait_write != w ||
	    !contended) {
		violation(INV_WAIT, e, "pid %d's lock_start of the %s %s lock 0x%" PRIx64
			  " ends in %s acquisition of the %s %s lock 0x%" PRIx64, e->pid,
			  kind_names[t->wait_kind], mode_names[t->wait_write], t->wait_lock,
			  contended ? "a contended" : "an uncontended", kind_names[kind],
			  mode_names[w], l->addr);
	} else {
		dist_add(&m->wait, e->ts - t->wait_ts);
		timeline_add(TL_WAIT, e->pid, kind * 2 + w, t->wait_ts, e->ts);
		if (!kind) {
			root_row(l, e);
			l->waits++;
			l->wait_ns += e->ts - t->wait_ts;
		}
	}
	t->waiting = false;
}

static void acquired(const struct mm_event *e, struct task *t, struct lock *l, int kind,
		     int w)
{
	struct holder *h;

	acquired_wait(e, t, l, kind, w);
	if (!e->f[F_SUCCESS]) {
		ks[kind].m[w].failed++;
		return;
	}
	ks[kind].m[w].acquired++;
	t->held[kind]++;
	h = holder_of(l, e->pid, w);
	if (h)
		h->nest++;	/* a read lock taken again */
	else
		add_holder(l, e->pid, w, e->ts);
}

static void released(const struct mm_event *e, struct task *t, struct lock *l, int kind,
		     int w)
{
	struct modestat *m = &ks[kind].m[w];
	struct holder *h = holder_of(l, e->pid, w);
	const struct holder *other;
	u64 held;

	m->released++;
	inv_count(INV_LOCK);
	if (h && h->nest) {
		m->nested++;
		h->nest--;
		timeline_add(TL_NESTED, e->pid, kind * 2 + w, e->ts, e->ts);
		t->held[kind]--;
		return;
	}
	if (!h) {
		other = last_holder(l, w);
		if (other)
			violation(INV_LOCK, e, "%s %s lock released by pid %d, which does not "
				  "hold it; pid %d does", kind_names[kind], mode_names[w],
				  e->pid, other->pid);
		else
			m->before_trace++;
		return;
	}
	held = e->ts - h->ts;
	timeline_add(TL_HOLD, e->pid, kind * 2 + w, h->ts, e->ts);
	dist_add(&m->hold, held);
	if (!kind) {
		root_row(l, e);
		l->holds++;
		l->hold_ns += held;
		if (held > l->hold_max)
			l->hold_max = held;
	}
	del_holder(l, h);
	t->held[kind]--;
}

void locks_event(const struct mm_event *e)
{
	struct task *t;
	int kind, w;
	u64 addr;

	switch (e->type) {
	case EV_AV_LOCK_START: case EV_AV_LOCK_ACQUIRED: case EV_AV_LOCK_RELEASED:
		kind = 0;
		addr = fu(e, F_ROOT);
		break;
	case EV_IM_LOCK_START: case EV_IM_LOCK_ACQUIRED: case EV_IM_LOCK_RELEASED:
		kind = 1;
		addr = fu(e, F_MAPPING);
		break;
	case EV_SCHED_SWITCH:
		on_switch(e);
		return;
	default:
		return;
	}
	w = !!e->f[F_WRITE];
	t = task_of(e->pid, true);
	switch (e->type) {
	case EV_AV_LOCK_START: case EV_IM_LOCK_START:
		lock_start(e, t, kind, w, addr);
		break;
	case EV_AV_LOCK_ACQUIRED: case EV_IM_LOCK_ACQUIRED:
		acquired(e, t, lock_of(addr, kind), kind, w);
		break;
	default:
		released(e, t, lock_of(addr, kind), kind, w);
		break;
	}
}

struct dist *locks_hold(int kind, int write)
{
	return &ks[kind].m[write].hold;
}

/*
 * A table as perf lock prints one: a header row, then rows of cells in
 * columns as wide as their widest cell, numbers right-aligned, text (the
 * columns of the left mask) left-aligned. A row is given as one printf
 * format of its cells separated by single spaces: no cell has a space.
 */
#define TABLE_COLS 12

struct table {
	const char *head;	/* the column names, separated by single spaces */
	unsigned int left;	/* bit per column aligned left */
	char (*rows)[256];
	size_t nrows, cap;
};

static void table_row(struct table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void table_row(struct table *t, const char *fmt, ...)
{
	va_list ap;

	grow(&t->rows, &t->cap, t->nrows, sizeof(*t->rows));
	va_start(ap, fmt);
	vsnprintf(t->rows[t->nrows++], sizeof(*t->rows), fmt, ap);
	va_end(ap);
}

static int table_cells(char *line, char *cell[TABLE_COLS])
{
	char *save, *tok;
	int n = 0;

	for (tok = strtok_r(line, " ", &save); tok && n < TABLE_COLS;
	     tok = strtok_r(NULL, " ", &save))
		cell[n++] = tok;
	return n;
}

static void table_line(FILE *f, const struct table *t, char *line, const int *width)
{
	char *cell[TABLE_COLS];
	int n = table_cells(line, cell);

	for (int c = 0; c < n; c++) {
		const char *sep = c ? "  " : "";

		if (!(t->left & 1u << c))
			fprintf(f, "%s%*s", sep, width[c], cell[c]);
		else if (c < n - 1)
			fprintf(f, "%s%-*s", sep, width[c], cell[c]);
		else
			fprintf(f, "%s%s", sep, cell[c]);	/* no trailing blanks */
	}
	fputc('\n', f);
}

/* Prints the table and frees its rows. */
static void table_print(FILE *f, struct table *t)
{
	int width[TABLE_COLS] = { 0 };
	char line[256], *cell[TABLE_COLS];

	for (size_t r = 0; r <= t->nrows; r++) {
		int n;

		snprintf(line, sizeof(line), "%s", r ? t->rows[r - 1] : t->head);
		n = table_cells(line, cell);
		for (int c = 0; c < n; c++)
			if ((int)strlen(cell[c]) > width[c])
				width[c] = strlen(cell[c]);
	}
	snprintf(line, sizeof(line), "%s", t->head);
	table_line(f, t, line, width);
	for (size_t r = 0; r < t->nrows; r++)
		table_line(f, t, t->rows[r], width);
	free(t->rows);
	t->rows = NULL;
	t->nrows = t->cap = 0;
}

/* A duration cell: fmt_ns()'s one word, or "-" when there is nothing (n 0) to time. */
static const char *dur(u64 ns, u64 n, char *buf)
{
	return n ? fmt_ns(ns, buf, FMT_NS_LEN) : "-";
}

static bool has_row(int k, int w)
{
	const struct modestat *m = &ks[k].m[w];

	return m->started || m->acquired || m->failed || m->released;
}

static void lock_tables(FILE *f)
{
	struct table count = {
		.head = "lock mode acquired contended trylock_failed released "
			"taken_before_trace nested",
		.left = 3,
	}, wait = {
		.head = "lock mode started waits waits_before_trace wait_p50 wait_p90 "
			"wait_p99 max_wait total_wait",
		.left = 3,
	}, hold = {
		.head = "lock mode holds hold_p50 hold_p90 hold_p99 max_hold total_hold",
		.left = 3,
	};

	for (int k = 0; k < 2; k++)
		for (int w = 0; w < 2; w++) {
			struct modestat *m = &ks[k].m[w];
			char a[FMT_NS_LEN], b[FMT_NS_LEN], c[FMT_NS_LEN], d[FMT_NS_LEN],
			     e[FMT_NS_LEN];
			u64 nw = m->wait.n, nh = m->hold.n;

			if (!has_row(k, w))
				continue;
			table_row(&count, "%s %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
				  " %" PRIu64 " %" PRIu64, kind_names[k], mode_names[w],
				  m->acquired, m->contended, m->failed, m->released,
				  m->before_trace, m->nested);
			table_row(&wait, "%s %s %" PRIu64 " %zu %" PRIu64 " %s %s %s %s %s",
				  kind_names[k], mode_names[w], m->started, m->wait.n,
				  m->wait_before_trace, dur(dist_pct(&m->wait, 50), nw, a),
				  dur(dist_pct(&m->wait, 90), nw, b), dur(dist_pct(&m->wait, 99), nw, c),
				  dur(m->wait.max, nw, d), dur(m->wait.sum, nw, e));
			table_row(&hold, "%s %s %zu %s %s %s %s %s", kind_names[k], mode_names[w],
				  m->hold.n, dur(dist_pct(&m->hold, 50), nh, a),
				  dur(dist_pct(&m->hold, 90), nh, b), dur(dist_pct(&m->hold, 99), nh, c),
				  dur(m->hold.max, nh, d), dur(m->hold.sum, nh, e));
		}
	table_print(f, &count);
	fputc('\n', f);
	table_print(f, &wait);
	fputc('\n', f);
	table_print(f, &hold);
	fputc('\n', f);
}

static int by_hold(const void *a, const void *b)
{
	const struct lock *x = &locks[*(const size_t *)a], *y = &locks[*(const size_t *)b];

	return x->hold_ns < y->hold_ns ? 1 : x->hold_ns > y->hold_ns ? -1 : 0;
}

void locks_report(FILE *f, const struct report_opts *o)
{
	struct table top = {
		.head = "root total_hold holds max_hold total_wait waits anon_vmas first_locker",
		.left = 1 | 1u << 7,
	};
	size_t held_at_end = 0, waiting_at_end = 0;
	char a[FMT_NS_LEN], b[FMT_NS_LEN];

	for (size_t i = 0; i < nlocks; i++)
		held_at_end += locks[i].nh;
	for (size_t i = 0; i < ntasks; i++)
		waiting_at_end += tasks[i].waiting;
	fprintf(f, "== locks: wait = lock_start to its contended acquisition (contended: the "
		"acquired event says the task had to wait), hold = acquired to released\n");
	lock_tables(f);
	for (int k = 0; k < 2; k++)
		if (ks[k].no_field)
			fprintf(f, "%s: %" PRIu64 " acquired events have no contended field (a "
				"kernel before it): their contention and waits are not counted\n",
				kind_names[k], ks[k].no_field);
	if (waiting_at_end)
		fprintf(f, "tasks still waiting for a lock when the trace ended: %zu\n",
			waiting_at_end);
	fprintf(f, "locks still held when the trace ended: %zu\n", held_at_end);
	for (int k = 0; k < 2; k++)
		if (ks[k].switched)
			fprintf(f, "%s holders switched out while holding: %" PRIu64 " (%" PRIu64
				" still runnable: preempted or yielding; %" PRIu64 " asleep); off "
				"CPU p50 %s, longest %s\n", kind_names[k], ks[k].switched,
				ks[k].switched_runnable, ks[k].switched - ks[k].switched_runnable,
				fmt_ns(dist_pct(&ks[k].offcpu, 50), a, sizeof(a)),
				fmt_ns(ks[k].offcpu.max, b, sizeof(b)));
	fputc('\n', f);
	for (int k = 0; k < 2; k++)
		for (int w = 0; w < 2; w++) {
			char name[48];

			if (!ks[k].m[w].hold.n)
				continue;
			snprintf(name, sizeof(name), "%s_%s_hold_ns", kind_names[k], mode_names[w]);
			dist_hist(f, &ks[k].m[w].hold, name, o->brief);
		}
	if (nroots)	/* roots is NULL until the first row */
		qsort(roots, nroots, sizeof(*roots), by_hold);
	fprintf(f, "== anon_vma roots by total hold time (top %d of %zu)\n", o->top, nroots);
	for (size_t i = 0; i < nroots && i < (size_t)o->top; i++) {
		const struct lock *l = &locks[roots[i]];
		char h[FMT_NS_LEN], m[FMT_NS_LEN], w[FMT_NS_LEN];

		table_row(&top, "0x%" PRIx64 " %s %" PRIu64 " %s %s %" PRIu64 " %" PRIu64 " %s",
			  l->addr, dur(l->hold_ns, l->holds, h), l->holds,
			  dur(l->hold_max, l->holds, m), dur(l->wait_ns, l->waits, w), l->waits,
			  l->members, l->comm);
	}
	table_print(f, &top);
	fputc('\n', f);
}
