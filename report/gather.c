// SPDX-License-Identifier: GPL-2.0
/*
 * mmu_gather batching and the preemption points inside gathers. A stretch
 * is the time a gathering task ran with no preemption point: from the
 * gather's start, a tlb_batch_pages_flush() point taken (mmu_gather_resched,
 * which fires only while debugfs mm/tlb_preempt_points is on) or its return to
 * a CPU, to the next point, its switch-out or the finish.
 * The longest stretches are what preemptibility is meant to bound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hmap.h"
#include "report.h"

struct gth {
	u64 tlb, mm, start, end, last, pages, flushes, points, switchouts, runnable;
	int pid, running, fullmm, open, row;
	char comm[32];
};

struct stretch {
	u64 len, at, mm;
	int pid;
	const char *ends;
	char comm[32];
};

static struct hmap open_g;	/* (tlb, pid) -> index + 1 */
static struct hmap task_g;	/* (pid, 0) -> index + 1 of its innermost gather */
static struct hmap rows;	/* (pid, 0) -> timeline row */
static struct gth *g;
static size_t ng, capg;
static struct stretch *st;
static size_t nst, capst;
static struct dist per_flush, batches, flushes_per, span, stretch, since_point;
static u64 n_fullmm, n_nested, allocs_ok, allocs_failed, max_batch_count, points, pending;
static u64 unmatched;

static void end_stretch(struct gth *x, u64 ts, const char *why)
{
	struct stretch *s;

	if (!x->running)
		return;
	dist_add(&stretch, ts - x->last);
	timeline_add(TL_STRETCH, x->pid, 0, x->last, ts);
	grow(&st, &capst, nst, sizeof(*st));
	s = &st[nst++];
	*s = (struct stretch){ ts - x->last, x->last, x->mm, x->pid, why, "" };
	memcpy(s->comm, x->comm, sizeof(s->comm));
	x->last = ts;
}

static struct gth *of_task(int pid)
{
	u64 *ix = hmap_get(&task_g, pid, 0, false);

	return ix ? &g[*ix - 1] : NULL;
}

void gather_event(const struct mm_event *e)
{
	u64 *ix = NULL;
	struct gth *x;

	if (e->type >= EV_G_START && e->type <= EV_G_FINISH && e->type != EV_G_START)
		ix = hmap_get(&open_g, fu(e, F_TLB), e->pid, false);
	x = ix ? &g[*ix - 1] : NULL;
	switch (e->type) {
	case EV_G_START:
		grow(&g, &capg, ng, sizeof(*g));
		x = &g[ng++];
		*x = (struct gth){ .tlb = fu(e, F_TLB), .mm = fu(e, F_MM), .start = e->ts,
				   .last = e->ts, .pid = e->pid, .running = 1,
				   .fullmm = !!e->f[F_FULLMM], .open = 1 };
		memcpy(x->comm, e->comm, sizeof(x->comm));
		if (!hmap_get(&rows, e->pid, 0, false))
			*hmap_get(&rows, e->pid, 0, true) = rows.n;
		x->row = (int)*hmap_get(&rows, e->pid, 0, false);
		*hmap_get(&open_g, x->tlb, e->pid, true) = ng;
		*hmap_get(&task_g, e->pid, 0, true) = ng;
		n_fullmm += x->fullmm;
		break;
	case EV_G_FLUSH:
		dist_add(&per_flush, fu(e, F_PAGES));
		dist_add(&batches, fu(e, F_BATCHES));
		if (x) {
			x->flushes++;
			x->pages += fu(e, F_PAGES);
		}
		break;
	case EV_G_BATCH_ALLOC:
		if (e->f[F_SUCCESS])
			allocs_ok++;
		else
			allocs_failed++;
		if (fu(e, F_BATCH_COUNT) > max_batch_count)
			max_batch_count = fu(e, F_BATCH_COUNT);
		break;
	case EV_G_RESCHED:
		points++;
		pending += !!e->f[F_NEED_RESCHED];
		dist_add(&since_point, fu(e, F_PAGES));
		/* a point of a gather begun before the trace is a point too */
		timeline_add(TL_POINT, e->pid, 0, e->ts, e->ts);
		if (x) {
			x->points++;
			end_stretch(x, e->ts, "point");
		}
		break;
	case EV_G_FINISH:
		if (!x) {
			unmatched++;	/* started before the trace */
			break;
		}
		end_stretch(x, e->ts, "finish");
		n_nested += !!e->f[F_NESTED];
		x->end = e->ts;
		x->open = 0;
		dist_add(&span, x->end - x->start);
		dist_add(&flushes_per, x->flushes);
		hmap_del(&open_g, x->tlb, x->pid);
		hmap_del(&task_g, x->pid, 0);
		break;
	case EV_SCHED_SWITCH:
		x = of_task((int)e->f[F_PREV_PID]);
		if (x && x->open && x->running) {
			end_stretch(x, e->ts, "switch");
			x->running = 0;
			x->switchouts++;
			x->runnable += switched_runnable(e);
		}
		x = of_task((int)e->f[F_NEXT_PID]);
		if (x && x->open && !x->running) {
			x->running = 1;
			x->last = e->ts;
		}
		break;
	default:
		break;
	}
}

static int by_len(const void *a, const void *b)
{
	const struct stretch *x = a, *y = b;

	return x->len < y->len ? 1 : x->len > y->len ? -1 : 0;
}

void gather_report(FILE *f, const struct report_opts *o)
{
	u64 so = 0, rn = 0, done = 0;
	char a[FMT_NS_LEN];
	char at[FMT_TS_LEN];

	for (size_t i = 0; i < ng; i++) {
		so += g[i].switchouts;
		rn += g[i].runnable;
		done += !g[i].open;
	}
	fprintf(f, "== mmu_gather\n");
	fprintf(f, "gathers %zu (%" PRIu64 " fullmm, %" PRIu64 " finished, %" PRIu64 " of them "
		"nested: another gather in flight on the mm made the finish flush it all; %"
		PRIu64 " finishes of gathers begun before the trace), flushes %zu, pages %"
		PRIu64 "\n", ng, n_fullmm, done, n_nested, unmatched, per_flush.n, per_flush.sum);
	fprintf(f, "pages per flush: ");
	dist_line(f, &per_flush, "pages");
	fprintf(f, "\nbatches per flush: ");
	dist_line(f, &batches, "batches");
	fprintf(f, "\nflushes per gather: ");
	dist_line(f, &flushes_per, "flushes");
	fprintf(f, "\ngather duration: ");
	dist_line(f, &span, "ns");
	fprintf(f, "\nbatch allocations: %" PRIu64 " ok, %" PRIu64 " failed, largest "
		"batch_count %" PRIu64 "\n", allocs_ok, allocs_failed, max_batch_count);
	fprintf(f, "preemption points taken: %" PRIu64 " (%" PRIu64 " with need_resched set); "
		"pages freed between points: ", points, pending);
	dist_line(f, &since_point, "pages");
	fprintf(f, "\n\n");
	dist_hist(f, &per_flush, "mmu_gather_pages_per_flush", o->brief);
	fprintf(f, "== preemption inside gathers\n");
	fprintf(f, "switch-outs inside gathers: %" PRIu64 " (%" PRIu64 " still runnable: "
		"preempted, or yielding at a point; %" PRIu64 " asleep)\n", so, rn, so - rn);
	fprintf(f, "stretches without a preemption point: ");
	dist_line(f, &stretch, "ns");
	fprintf(f, "\n");
	if (nst)	/* st is NULL until the first stretch */
		qsort(st, nst, sizeof(*st), by_len);
	fprintf(f, "longest stretches (top %d), to find in kernelshark:\n", o->top);
	for (size_t i = 0; i < nst && i < (size_t)o->top; i++)
		fprintf(f, "  %8s from %s s  %s-%d mm=0x%" PRIx64 ", ended by %s\n",
			fmt_ns(st[i].len, a, sizeof(a)), fmt_ts(st[i].at, at, sizeof(at)),
			st[i].comm, st[i].pid, st[i].mm, st[i].ends);
	fputc('\n', f);
	dist_hist(f, &stretch, "gather_stretch_ns", o->brief);
}

/* gathers.dat and stretches.dat (times in s); returns the gathers written */
int gather_plot_data(const char *dir, u64 t0)
{
	char path[4096];
	FILE *gf, *pf;
	int written = 0;

	snprintf(path, sizeof(path), "%s/gathers.dat", dir);
	gf = fopen(path, "w");
	if (!gf) {
		report_err(errno, path, "cannot write the plot data");
		return -1;
	}
	fprintf(gf, "# start_s end_s row pages pid comm\n");
	for (size_t i = 0; i < ng; i++)
		if (!g[i].open && ++written)
			fprintf(gf, "%.9f %.9f %d %" PRIu64 " %d %s\n", (g[i].start - t0) / 1e9,
				(g[i].end - t0) / 1e9, g[i].row, g[i].pages, g[i].pid, g[i].comm);
	fclose(gf);
	snprintf(path, sizeof(path), "%s/stretches.dat", dir);
	pf = fopen(path, "w");
	if (!pf) {
		report_err(errno, path, "cannot write the plot data");
		return -1;
	}
	fprintf(pf, "# start_s len_s row ended_by\n");
	for (size_t i = 0; i < nst; i++) {
		u64 *row = hmap_get(&rows, st[i].pid, 0, false);

		fprintf(pf, "%.9f %.9f %d %s\n", (st[i].at - t0) / 1e9, st[i].len / 1e9,
			row ? (int)*row : 0, st[i].ends);
	}
	fclose(pf);
	return written;
}
