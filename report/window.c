// SPDX-License-Identifier: GPL-2.0
/*
 * The trace against mmpreempt.ko's stats for the same run. The recorder
 * resets the module and writes MMPREEMPT-WINDOW-START to trace_marker, runs
 * the workload, writes MMPREEMPT-WINDOW-END and snapshots stats: events
 * between the markers are what the module counted. Without markers the
 * whole trace is the window.
 */
#include <string.h>

#include "report.h"

static int state;		/* 0 before any marker, 1 inside, 2 after */
static bool seen_marker;
static u64 n[EV_NR], acq[2][2], fail[2][2], rel[2][2];
static u64 fullmm, pages, alloc_ok, alloc_failed, roots, maps;

void window_event(const struct mm_event *e)
{
	int k, w;

	if (e->type == EV_MARKER) {
		if (!strcmp(e->marker, "MMPREEMPT-WINDOW-START")) {
			state = 1;
			seen_marker = true;
			memset(n, 0, sizeof(n));	/* the window counts from here */
			memset(acq, 0, sizeof(acq));
			memset(fail, 0, sizeof(fail));
			memset(rel, 0, sizeof(rel));
			fullmm = pages = alloc_ok = alloc_failed = roots = maps = 0;
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
	case EV_AV_LOCK_ACQUIRED: case EV_IM_LOCK_ACQUIRED:
		if (e->f[F_SUCCESS])
			acq[k][w]++;
		else
			fail[k][w]++;
		break;
	case EV_AV_LOCK_RELEASED: case EV_IM_LOCK_RELEASED:
		rel[k][w]++;
		break;
	case EV_G_START:
		fullmm += !!e->f[F_FULLMM];
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
	case EV_AL_ACQUIRED:
		roots += fu(e, F_ANON_VMA_ROOTS);
		maps += fu(e, F_MAPPINGS);
		break;
	default:
		break;
	}
}

static uint32_t recorded;
static int skipped;

/* n counters whose events the trace does not hold are not compared */
static bool held(uint32_t types, int n)
{
	if ((recorded & types) == types)
		return true;
	skipped += n;
	return false;
}

static int check(FILE *f, const char *stats, const char *name, u64 want, int *checked)
{
	char line[256], key[128];
	unsigned long long v;
	FILE *s = fopen(stats, "r");

	if (!s)
		return 1;
	while (fgets(line, sizeof(line), s))
		if (sscanf(line, "%127s %llu", key, &v) == 2 && !strcmp(key, name)) {
			fclose(s);
			(*checked)++;
			if (v == want)
				return 0;
			fprintf(f, "MISMATCH %s: module %llu, trace %llu\n", name, v,
				(unsigned long long)want);
			return 1;
		}
	fclose(s);
	fprintf(f, "MISMATCH %s: not in %s\n", name, stats);
	return 1;
}

int window_compare(FILE *f, const char *stats, uint32_t rec)
{
	static const char *const kn[2] = { "anon_vma", "i_mmap" }, *const mn[2] = { "read", "write" };
	char name[128];
	int bad = 0, checked = 0;
	FILE *s = fopen(stats, "r");

	if (!s) {
		fprintf(f, "MISMATCH: cannot read %s\n", stats);
		return 1;
	}
	fclose(s);
	recorded = rec;
	fprintf(f, "== trace vs mmpreempt.ko stats (%s)\n", seen_marker ?
		"between the MMPREEMPT-WINDOW markers" : "no window markers: the whole trace");
	for (int t = EV_AV_LOCK_START; t <= EV_AL_DROP; t++) {
		snprintf(name, sizeof(name), "events.%s", ev_names[t]);
		if (held(1u << t, 1))
			bad += check(f, stats, name, n[t], &checked);
	}
	for (int k = 0; k < 2; k++)
		for (int w = 0; w < 2; w++) {
			uint32_t acq_ev = 1u << (k ? EV_IM_LOCK_ACQUIRED : EV_AV_LOCK_ACQUIRED);
			uint32_t rel_ev = 1u << (k ? EV_IM_LOCK_RELEASED : EV_AV_LOCK_RELEASED);

			if (!held(acq_ev | rel_ev, 3))
				continue;
			snprintf(name, sizeof(name), "%s.lock.%s.acquired", kn[k], mn[w]);
			bad += check(f, stats, name, acq[k][w], &checked);
			snprintf(name, sizeof(name), "%s.lock.%s.trylock_failed", kn[k], mn[w]);
			bad += check(f, stats, name, fail[k][w], &checked);
			snprintf(name, sizeof(name), "%s.lock.%s.released", kn[k], mn[w]);
			bad += check(f, stats, name, rel[k][w], &checked);
		}
	if (held(1u << EV_G_START, 1))
		bad += check(f, stats, "mmu_gather.gathers_fullmm", fullmm, &checked);
	if (held(1u << EV_G_FLUSH, 1))
		bad += check(f, stats, "mmu_gather.pages", pages, &checked);
	if (held(1u << EV_G_BATCH_ALLOC, 2)) {
		bad += check(f, stats, "mmu_gather.batch_alloc", alloc_ok, &checked);
		bad += check(f, stats, "mmu_gather.batch_alloc_failed", alloc_failed, &checked);
	}
	if (held(1u << EV_AL_ACQUIRED, 2)) {
		bad += check(f, stats, "mm_all_locks.anon_vma_roots", roots, &checked);
		bad += check(f, stats, "mm_all_locks.mappings", maps, &checked);
	}
	fprintf(f, "%d of %d counters agree%s\n", checked - bad, checked,
		bad ? "" : " exactly");
	if (skipped)
		fprintf(f, "(%d more not compared: the trace did not record their events)\n",
			skipped);
	fputc('\n', f);
	return bad;
}
