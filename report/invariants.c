// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict: each invariant with how many events it checked and every
 * violation with the event that broke it (the first few printed in full,
 * all counted). The checks themselves live with the analysis that has the
 * state (life.c, locks.c). An invariant that checked nothing reads n/a,
 * never ok: a trace without the events it needs proves nothing about it.
 *
 * Violations are found while the events stream in, before the report is
 * printed; they are kept and printed in the verdict, on the report's
 * stream, so that every verdict line (VIOLATION, MISMATCH, LOST, NOT
 * EXERCISED) is on stdout and the report's first line stays its first.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define SHOWN 10

static const char *const names[INV_NR] = {
	[INV_REFCOUNT] = "refcount never below 0, each life a walk 1 -> 0 by value",
	[INV_FREE] = "freed once, at 0, with one put to 0 in its life",
	[INV_ROOT] = "a root freed after all its children",
	[INV_REUSE] = "reuse only with num_children < 2",
	[INV_LOCK] = "every acquired lock released by the task that took it",
	[INV_WAIT] = "a lock_start ends in the same task's contended acquisition",
};
static const char *const tags[INV_NR] = {
	"refcount", "free", "root", "reuse", "lock", "wait",
};

static u64 checked[INV_NR], broken[INV_NR];
static FILE *shown;		/* the violations printed in full, in trace order */
static char *shown_buf;
static size_t shown_len;

void inv_count(enum invariant inv)
{
	checked[inv]++;
}

void violation(enum invariant inv, const struct mm_event *e, const char *fmt, ...)
{
	va_list ap;

	if (++broken[inv] > SHOWN)
		return;
	if (!shown) {
		shown = open_memstream(&shown_buf, &shown_len);
		if (!shown) {
			report_err(errno, "violations", "cannot keep them");
			exit(ST_TROUBLE);
		}
	}
	fprintf(shown, "VIOLATION %s: ", tags[inv]);
	va_start(ap, fmt);
	vfprintf(shown, fmt, ap);
	va_end(ap);
	if (e) {
		fprintf(shown, "\n  event #%" PRIu64 ": ", e->seq);
		ev_print(shown, e);
	} else {
		fprintf(shown, " (at the end of the trace)\n");
	}
}

int inv_parse(const char *list)
{
	int mask = 0;

	if (!strcmp(list, "all"))
		return (1 << INV_NR) - 1;
	while (*list) {
		size_t len = strcspn(list, ",");
		int i;

		for (i = 0; i < INV_NR; i++)
			if (strlen(tags[i]) == len && !strncmp(tags[i], list, len))
				break;
		if (i == INV_NR)
			return -1;
		mask |= 1 << i;
		list += len;
		if (*list)
			list++;
	}
	return mask ? mask : -1;
}

int inv_report(FILE *f)
{
	int total = 0, idle = 0;

	fprintf(f, "== invariants\n");
	for (int i = 0; i < INV_NR; i++) {
		fprintf(f, "%-8s %-60s %s (%" PRIu64 " checked", tags[i], names[i],
			broken[i] ? "VIOLATED" : checked[i] ? "ok" : "n/a", checked[i]);
		if (broken[i])
			fprintf(f, ", %" PRIu64 " violations", broken[i]);
		fprintf(f, ")\n");
		total += broken[i];
		idle += !checked[i];
	}
	if (idle) {
		fprintf(f, "n/a, nothing checked:");
		for (int i = 0; i < INV_NR; i++)
			if (!checked[i])
				fprintf(f, " %s", tags[i]);
		fputc('\n', f);
	}
	if (shown) {
		fclose(shown);
		shown = NULL;
		fwrite(shown_buf, 1, shown_len, f);
		free(shown_buf);
	}
	fprintf(f, "verdict: %d violation%s\n\n", total, total == 1 ? "" : "s");
	return total;
}

int inv_unexercised(FILE *f, int mask)
{
	int n = 0;

	for (int i = 0; i < INV_NR; i++)
		if (mask & (1 << i) && !checked[i]) {
			fprintf(f, "NOT EXERCISED %s: the trace has nothing it checks\n", tags[i]);
			n++;
		}
	return n;
}
