// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict: each invariant with how many events it checked and every
 * violation with the event that broke it (the first few printed in full,
 * all counted). The checks themselves live with the analysis that has the
 * state (life.c, locks.c).
 */
#include <stdarg.h>

#include "report.h"

#define SHOWN 10

static const char *const names[INV_NR] = {
	[INV_REFCOUNT] = "refcount never below zero, gets and puts balance",
	[INV_FREE] = "free only after the last put, nothing after it",
	[INV_ROOT] = "a root freed after all its children",
	[INV_REUSE] = "reuse only with num_children < 2 and num_active_vmas == 0",
	[INV_LOCK] = "every acquired lock released by the task that took it",
};
static const char *const tags[INV_NR] = {
	"refcount", "free", "root", "reuse", "lock",
};

static u64 checked[INV_NR], broken[INV_NR];

void inv_count(enum invariant inv)
{
	checked[inv]++;
}

void violation(enum invariant inv, const struct mm_event *e, const char *fmt, ...)
{
	va_list ap;

	if (++broken[inv] > SHOWN)
		return;
	fprintf(stderr, "VIOLATION %s: ", tags[inv]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (e) {
		fprintf(stderr, "\n  event #%llu: ", (unsigned long long)e->seq);
		ev_print(stderr, e);
	} else {
		fprintf(stderr, " (at the end of the trace)\n");
	}
}

int inv_report(FILE *f)
{
	int total = 0;

	fprintf(f, "== invariants\n");
	for (int i = 0; i < INV_NR; i++) {
		fprintf(f, "%-8s %-60s %s (%llu checked", tags[i], names[i],
			broken[i] ? "VIOLATED" : "ok", (unsigned long long)checked[i]);
		if (broken[i])
			fprintf(f, ", %llu violations", (unsigned long long)broken[i]);
		fprintf(f, ")\n");
		total += broken[i];
	}
	fprintf(f, "verdict: %d violation%s\n\n", total, total == 1 ? "" : "s");
	return total;
}
