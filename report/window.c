// SPDX-License-Identifier: GPL-2.0
/*
 * The trace against mmpreempt.ko's stats for the same run. The recorder
 * resets the module and writes MMPREEMPT-WINDOW-START to trace_marker, runs
 * the workload, writes MMPREEMPT-WINDOW-END and snapshots stats: events
 * between the markers are what the module counted. Without markers the
 * whole trace is the window. A counter that is 0 on both sides, or whose
 * events the trace did not record, is n/a: it agrees with nothing, and is
 * never counted as agreeing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report.h"

static int state;		/* 0 before any marker, 1 inside, 2 after */
static bool seen_marker;
static u64 n[EV_NR], started[2][2], acq[2][2], fail[2][2], cont[2][2], rel[2][2];
static u64 fullmm, nested, pages, alloc_ok, alloc_failed, pending, roots, maps;

void window_event(const struct mm_event *e)
{
	int k, w;

	if (e->type == EV_MARKER) {
		if (!strcmp(e->marker, "MMPREEMPT-WINDOW-START")) {
			state = 1;
			seen_marker = true;
			memset(n, 0, sizeof(n));	/* the window counts from here */
			memset(started, 0, sizeof(started));
			memset(acq, 0, sizeof(acq));
			memset(fail, 0, sizeof(fail));
			memset(cont, 0, sizeof(cont));
			memset(rel, 0, sizeof(rel));
			fullmm = nested = pages = alloc_ok = alloc_failed = 0;
			pending = roots = maps = 0;
		} else if (!strcmp(e->marker, "MMPREEMPT-WINDOW-END")) {
			state = 2;
		}
		return;
	}
	if (state == 2)
		return;
	n[e->type]++;
	k = e->type >= EV_IM_LOCK_START && e->type <= EV_IM_LOCK_RELEASED;
	w = !!e->f[F_WRITE];
	switch (e->type) {
	case EV_AV_LOCK_START: case EV_IM_LOCK_START:
		started[k][w]++;
		break;
	case EV_AV_LOCK_ACQUIRED: case EV_IM_LOCK_ACQUIRED:
		if (e->f[F_SUCCESS])
			acq[k][w]++;
		else
			fail[k][w]++;
		cont[k][w] += !!e->f[F_CONTENDED];
		break;
	case EV_AV_LOCK_RELEASED: case EV_IM_LOCK_RELEASED:
		rel[k][w]++;
		break;
	case EV_G_START:
		fullmm += !!e->f[F_FULLMM];
		break;
	case EV_G_FINISH:
		nested += !!e->f[F_NESTED];
		break;
	case EV_G_FLUSH:
		pages += fu(e, F_PAGES);
		break;
	case EV_G_BATCH_ALLOC:
		if (e->f[F_SUCCESS])
			alloc_ok++;
		else
			alloc_failed++;
		break;
	case EV_G_RESCHED:
		pending += !!e->f[F_NEED_RESCHED];
		break;
	case EV_AL_ACQUIRED:
		roots += fu(e, F_ANON_VMA_ROOTS);
		maps += fu(e, F_MAPPINGS);
		break;
	default:
		break;
	}
}

int window_state(void)
{
	return state;
}

struct stat_line {
	char name[128];
	u64 v;
};

enum { AGREE, DISAGREE, NA_ZERO, NA_UNRECORDED, NR_OUTCOMES };

struct cmp {
	FILE *f;
	struct stat_line *lines;
	size_t nlines;
	uint32_t recorded;
	int count[NR_OUTCOMES];
	char na[2][4096];	/* the names of each kind of n/a */
};

static const struct stat_line *stat_of(const struct cmp *c, const char *name)
{
	for (size_t i = 0; i < c->nlines; i++)
		if (!strcmp(c->lines[i].name, name))
			return &c->lines[i];
	return NULL;
}

static void na(struct cmp *c, int outcome, const char *name)
{
	char *l = c->na[outcome - NA_ZERO];
	size_t len = strlen(l);

	c->count[outcome]++;
	if (len + strlen(name) + 5 < sizeof(c->na[0]))
		snprintf(l + len, sizeof(c->na[0]) - len, " %s", name);
	else if (!strstr(l, " ..."))
		snprintf(l + len, sizeof(c->na[0]) - len, " ...");
}

/* One counter: the trace's count of it, if the trace recorded `types`. */
static void check(struct cmp *c, uint32_t types, u64 want, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void check(struct cmp *c, uint32_t types, u64 want, const char *fmt, ...)
{
	const struct stat_line *s;
	char name[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	s = stat_of(c, name);
	if (!s) {
		c->count[DISAGREE]++;
		fprintf(c->f, "MISMATCH %s: not in the module's stats\n", name);
	} else if ((c->recorded & types) != types) {
		na(c, NA_UNRECORDED, name);
	} else if (s->v != want) {
		c->count[DISAGREE]++;
		fprintf(c->f, "MISMATCH %s: module %" PRIu64 ", trace %" PRIu64 "\n", name,
			s->v, want);
	} else if (!want) {
		na(c, NA_ZERO, name);
	} else {
		c->count[AGREE]++;
	}
}

int window_compare(FILE *f, const char *stats, uint32_t rec)
{
	static const char *const kn[2] = { "anon_vma", "i_mmap" };
	static const char *const mn[2] = { "read", "write" };
	static const char *const why[2] = { "0 in both", "the trace did not record their events" };
	struct cmp c = { .f = f, .recorded = rec };
	char line[256];
	size_t cap = 0;
	int compared, nas;
	FILE *s = fopen(stats, "r");

	if (!s) {
		report_err(errno, stats, "cannot read the module's stats");
		return ST_TROUBLE;
	}
	while (fgets(line, sizeof(line), s)) {
		grow(&c.lines, &cap, c.nlines, sizeof(*c.lines));
		if (sscanf(line, "%127s %" SCNu64, c.lines[c.nlines].name,
			   &c.lines[c.nlines].v) == 2)
			c.nlines++;
	}
	fclose(s);
	fprintf(f, "== trace vs mmpreempt.ko stats (%s)\n", seen_marker ?
		"between the MMPREEMPT-WINDOW markers" : "no window markers: the whole trace");
	for (int t = EV_AV_LOCK_START; t <= EV_AL_DROP; t++)
		check(&c, 1u << t, n[t], "events.%s", ev_names[t]);
	for (int k = 0; k < 2; k++)
		for (int w = 0; w < 2; w++) {
			uint32_t st = 1u << (k ? EV_IM_LOCK_START : EV_AV_LOCK_START);
			uint32_t aq = 1u << (k ? EV_IM_LOCK_ACQUIRED : EV_AV_LOCK_ACQUIRED);
			uint32_t rl = 1u << (k ? EV_IM_LOCK_RELEASED : EV_AV_LOCK_RELEASED);

			check(&c, st, started[k][w], "%s.lock.%s.started", kn[k], mn[w]);
			check(&c, aq, acq[k][w], "%s.lock.%s.acquired", kn[k], mn[w]);
			check(&c, aq, fail[k][w], "%s.lock.%s.trylock_failed", kn[k], mn[w]);
			check(&c, aq, cont[k][w], "%s.lock.%s.contended", kn[k], mn[w]);
			check(&c, rl, rel[k][w], "%s.lock.%s.released", kn[k], mn[w]);
		}
	check(&c, 1u << EV_G_START, fullmm, "mmu_gather.gathers_fullmm");
	check(&c, 1u << EV_G_FINISH, nested, "mmu_gather.gathers_nested");
	check(&c, 1u << EV_G_FLUSH, pages, "mmu_gather.pages");
	check(&c, 1u << EV_G_BATCH_ALLOC, alloc_ok, "mmu_gather.batch_alloc");
	check(&c, 1u << EV_G_BATCH_ALLOC, alloc_failed, "mmu_gather.batch_alloc_failed");
	check(&c, 1u << EV_G_RESCHED, pending, "mmu_gather.preemption_points_pending");
	check(&c, 1u << EV_AL_ACQUIRED, roots, "mm_all_locks.anon_vma_roots");
	check(&c, 1u << EV_AL_ACQUIRED, maps, "mm_all_locks.mappings");
	free(c.lines);
	for (int i = 0; i < 2; i++)
		if (c.count[NA_ZERO + i])
			fprintf(f, "n/a (%s):%s\n", why[i], c.na[i]);
	compared = c.count[AGREE] + c.count[DISAGREE];
	nas = c.count[NA_ZERO] + c.count[NA_UNRECORDED];
	if (!compared) {
		fprintf(f, "0 of 0 counters agree: all %d n/a, nothing was compared\n\n", nas);
		return ST_MISMATCH;
	}
	fprintf(f, "%d of %d counters agree%s, %d n/a (nothing to compare)\n\n", c.count[AGREE],
		compared, c.count[DISAGREE] ? "" : " exactly", nas);
	return c.count[DISAGREE] ? ST_MISMATCH : 0;
}
