// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline's data (mmreport --timeline DIR; report/timeline.sh plots it
 * with report/timeline.gp): where the long holds and the long stretches
 * without a preemption point happened, and who waited. One row per task,
 * for the N tasks with the longest hold or gather stretch; under them every
 * hold of the trace as a heat map of time x log2(hold).
 *
 * Nothing here pairs events: locks.c and gather.c hand over each hold, wait,
 * switch-out while holding, gather stretch and preemption point as they
 * pair it (timeline_add()), so that the picture shows exactly what the
 * report counts, cut the same way.
 *
 * Files in DIR, times in seconds from the trace's first event, to the ns:
 *   rows.txt       "row comm-pid", row 1 at the bottom, the longest on top
 *   holds.dat      "row start end lock", lock 0 anon_vma read, 1 anon_vma
 *                  write, 2 i_mmap read, 3 i_mmap write
 *   waits.dat      "row start end lock": lock_start to its contended
 *                  acquisition
 *   switches.dat   "row time": switched out holding a lock
 *   points.dat     "row time": a preemption point taken inside a gather
 *   stretches.dat  "row start end length_us": a gather's run between points
 *   heat.dat       "time bucket holds" for 100 time bins x log2(hold ns)
 *                  buckets 8 (below 512 ns) to 30 (2^30 ns, 1.07 s, and
 *                  more), NaN where there is none, a blank line after each
 *                  time bin
 *   span.txt       "span first": the seconds from the first event to the
 *                  last, and the first event's trace timestamp
 *   summary.txt    what the picture shows, in figures, at trace timestamps;
 *                  between make record's MMPREEMPT-WINDOW markers, the holds
 *                  released and the contended acquisitions: what
 *                  mmpreempt.ko timed in the same window (holds_timed,
 *                  contended)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hmap.h"
#include "report.h"

#define ROWS 12			/* tasks drawn unless told */
#define HEAT_BINS 100
#define HEAT_LO 8		/* log2 buckets of the heat map: 256 ns and below .. */
#define HEAT_HI 30		/* .. 2^30 ns and above */

struct mark {
	u64 from, to;
	int pid, lock;
};

struct marks {
	struct mark *m;
	size_t n, cap;
};

struct tl_task {
	int pid, row;		/* row: 0 when not drawn */
	bool drawn;		/* has a hold or a stretch */
	u64 longest;		/* of them, in ns */
	char comm[32];		/* as its last event named it */
};

static bool on;
static struct marks marks[TL_NR];
static struct hmap task_ix;	/* (pid, 0) -> index + 1 in tasks */
static struct tl_task *tasks;
static size_t ntasks, captasks;
static u64 win_holds, win_contended;

static struct tl_task *task_of(int pid)
{
	u64 *ix = hmap_get(&task_ix, (uint32_t)pid, 0, true);

	if (!*ix) {
		grow(&tasks, &captasks, ntasks, sizeof(*tasks));
		tasks[ntasks] = (struct tl_task){ .pid = pid };
		*ix = ++ntasks;
	}
	return &tasks[*ix - 1];
}

void timeline_start(void)
{
	on = true;
}

void timeline_event(const struct mm_event *e)
{
	struct tl_task *t;

	if (!on)
		return;
	/* as window.c counts: a later window starts the counts again */
	if (e->type == EV_MARKER && !strcmp(e->marker, "MMPREEMPT-WINDOW-START"))
		win_holds = win_contended = 0;
	t = task_of(e->pid);
	/* the name --dump gives a task without one */
	snprintf(t->comm, sizeof(t->comm), "%s", e->comm[0] ? e->comm : "<...>");
	if ((e->type == EV_AV_LOCK_ACQUIRED || e->type == EV_IM_LOCK_ACQUIRED) &&
	    e->f[F_SUCCESS] && e->f[F_CONTENDED] && window_state() == 1)
		win_contended++;
}

void timeline_add(enum tl_mark what, int pid, int lock, u64 from, u64 to)
{
	struct marks *l = &marks[what];
	struct tl_task *t;

	if (!on)
		return;
	/* a nested release ends no hold, but the module times it as one */
	if ((what == TL_HOLD || what == TL_NESTED) && window_state() == 1)
		win_holds++;
	if (what == TL_NESTED)
		return;
	grow(&l->m, &l->cap, l->n, sizeof(*l->m));
	l->m[l->n++] = (struct mark){ .from = from, .to = to, .pid = pid, .lock = lock };
	if (what != TL_HOLD && what != TL_STRETCH)
		return;
	t = task_of(pid);
	t->drawn = true;
	if (to - from > t->longest)
		t->longest = to - from;
}

/* Seconds to the nanosecond, from integers: exact at any trace length. */
static void put_s(FILE *f, u64 ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		report_err(errno, path, "cannot write the timeline");
	return f;
}

static int close_in(FILE *f, const char *dir, const char *name)
{
	char path[4096];
	int bad = ferror(f);

	errno = 0;
	if (fclose(f) || bad) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		report_err(errno, path, "cannot write the timeline");
		return -1;
	}
	return 0;
}

/* longest first; in the order the tasks came when as long */
static int by_longest(const void *a, const void *b)
{
	const struct tl_task *x = &tasks[*(const size_t *)a], *y = &tasks[*(const size_t *)b];

	if (x->longest != y->longest)
		return x->longest < y->longest ? 1 : -1;
	return x < y ? -1 : x > y;
}

/*
 * rows.txt: the `rows` tasks with the longest hold or stretch, each given
 * its row, row 1 (the shortest of them) first and at the bottom.
 */
static int write_rows(const char *dir, size_t rows)
{
	size_t *order = xrealloc(NULL, (ntasks + 1) * sizeof(*order)), n = 0;
	FILE *f = open_in(dir, "rows.txt");

	if (!f) {
		free(order);
		return -1;
	}
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i].drawn)
			order[n++] = i;
	qsort(order, n, sizeof(*order), by_longest);
	if (n > rows)
		n = rows;
	for (size_t i = n; i-- > 0;) {
		struct tl_task *t = &tasks[order[i]];

		t->row = n - i;
		fprintf(f, "%d %s-%d\n", t->row, t->comm, t->pid);
	}
	free(order);
	return close_in(f, dir, "rows.txt");
}

static const struct tl_task *tl_task(int pid)
{
	u64 *ix = hmap_get(&task_ix, (uint32_t)pid, 0, false);

	return ix ? &tasks[*ix - 1] : NULL;
}

static int row_of(int pid)
{
	const struct tl_task *t = tl_task(pid);

	return t ? t->row : 0;
}

/*
 * One .dat file of the marks on the drawn rows: "row time" for a switch-out
 * or a point, "row start end" and then the lock of a hold or a wait, the
 * length in tenths of a microsecond (rounded) of a stretch.
 */
static int write_marks(const char *dir, const char *name, enum tl_mark what, u64 first)
{
	const struct marks *l = &marks[what];
	FILE *f = open_in(dir, name);

	if (!f)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct mark *m = &l->m[i];
		u64 tenths = (m->to - m->from + 50) / 100;
		int row = row_of(m->pid);

		if (!row)
			continue;
		fprintf(f, "%d ", row);
		if (what != TL_SWITCH && what != TL_POINT) {
			put_s(f, m->from - first);
			fputc(' ', f);
		}
		put_s(f, m->to - first);
		if (what == TL_HOLD || what == TL_WAIT)
			fprintf(f, " %d", m->lock);
		else if (what == TL_STRETCH)
			fprintf(f, " %" PRIu64 ".%" PRIu64, tenths / 10, tenths % 10);
		fputc('\n', f);
	}
	return close_in(f, dir, name);
}

/* Every hold: HEAT_BINS time bins over the span x log2(hold ns), counted. */
static int write_heat(const char *dir, u64 first, u64 span)
{
	static u64 heat[HEAT_BINS][HEAT_HI + 1];
	const struct marks *l = &marks[TL_HOLD];
	FILE *f = open_in(dir, "heat.dat");

	if (!f)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		u64 len = l->m[i].to - l->m[i].from;
		u64 x = (l->m[i].from - first) * HEAT_BINS / span;
		int b = len ? 63 - __builtin_clzll(len) : 0;

		b = b < HEAT_LO ? HEAT_LO : b > HEAT_HI ? HEAT_HI : b;
		heat[x < HEAT_BINS ? x : HEAT_BINS - 1][b]++;
	}
	for (u64 x = 0; x < HEAT_BINS; x++) {
		for (int b = HEAT_LO; b <= HEAT_HI; b++) {
			/* the middle of the bin, to the nanosecond */
			put_s(f, ((2 * x + 1) * span + HEAT_BINS) / (2 * HEAT_BINS));
			if (heat[x][b])
				fprintf(f, " %d %" PRIu64 "\n", b, heat[x][b]);
			else
				fprintf(f, " %d NaN\n", b);
		}
		fputc('\n', f);
	}
	return close_in(f, dir, "heat.dat");
}

/* The longest mark of a list, the first in the trace of the longest; or NULL. */
static const struct mark *longest(enum tl_mark what)
{
	const struct mark *best = NULL;

	for (size_t i = 0; i < marks[what].n; i++) {
		const struct mark *m = &marks[what].m[i];

		if (!best || m->to - m->from > best->to - best->from)
			best = m;
	}
	return best;
}

/* "longest hold 37.44ms by alllocks-362 at 38.525314 s" */
static void longest_line(FILE *f, const char *what, const struct mark *m)
{
	const struct tl_task *t = tl_task(m->pid);
	char len[FMT_NS_LEN], at[FMT_TS_LEN];

	fprintf(f, "longest %s %s by %s-%d at %s s\n", what, fmt_ns(m->to - m->from, len,
		sizeof(len)), t->comm, m->pid, fmt_ts(m->from, at, sizeof(at)));
}

static int write_summary(FILE *out, const char *dir, u64 first, u64 span)
{
	const struct mark *h = longest(TL_HOLD), *s = longest(TL_STRETCH);
	char *text = NULL;
	size_t len = 0;
	char a[FMT_NS_LEN], b[FMT_TS_LEN];
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		report_err(errno, "summary.txt", "cannot make it");
		return -1;
	}
	fprintf(f, "span %s from %s s, %zu holds, %zu contended waits, %zu switch-outs "
		"holding a lock, %zu gather stretches, %zu preemption points\n",
		fmt_ns(span, a, sizeof(a)), fmt_ts(first, b, sizeof(b)), marks[TL_HOLD].n,
		marks[TL_WAIT].n, marks[TL_SWITCH].n, marks[TL_STRETCH].n, marks[TL_POINT].n);
	if (window_state())
		fprintf(f, "in the MMPREEMPT window: %" PRIu64 " holds released, %" PRIu64
			" contended acquisitions\n", win_holds, win_contended);
	if (h)
		longest_line(f, "hold", h);
	if (s)
		longest_line(f, "gather stretch", s);
	fclose(f);
	fputs(text, out);
	f = open_in(dir, "summary.txt");
	if (f)
		fputs(text, f);
	free(text);
	return f ? close_in(f, dir, "summary.txt") : -1;
}

int timeline_write(FILE *out, const char *dir, const struct read_result *r, int rows)
{
	u64 first = r->first_ts, span = r->last_ts - r->first_ts;
	/* the heat map's bins over a trace of one instant: over its first second */
	u64 bins_over = span ? span : 1000000000;
	FILE *f;

	if (write_rows(dir, rows > 0 ? rows : ROWS) ||
	    write_marks(dir, "holds.dat", TL_HOLD, first) ||
	    write_marks(dir, "waits.dat", TL_WAIT, first) ||
	    write_marks(dir, "switches.dat", TL_SWITCH, first) ||
	    write_marks(dir, "points.dat", TL_POINT, first) ||
	    write_marks(dir, "stretches.dat", TL_STRETCH, first) ||
	    write_heat(dir, first, bins_over))
		return -1;
	f = open_in(dir, "span.txt");
	if (!f)
		return -1;
	put_s(f, span);
	fputc(' ', f);
	put_s(f, first);
	fputc('\n', f);
	if (close_in(f, dir, "span.txt"))
		return -1;
	return write_summary(out, dir, first, span);
}
