/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A distribution of u64 samples (durations in ns, page counts): every
 * sample kept, so percentiles are exact, plus a log2 histogram printed in
 * bpftrace's layout so a report reads like the tools' output.
 */
#ifndef MMREPORT_DIST_H
#define MMREPORT_DIST_H

#include <stdint.h>
#include <stdio.h>

#define DIST_BUCKETS 65

struct dist {
	uint64_t *v;
	size_t n, cap;
	uint64_t sum, max;
	uint64_t hist[DIST_BUCKETS];	/* [0]: 0, [k]: [2^(k-1), 2^k) */
	int sorted;
};

void dist_add(struct dist *d, uint64_t v);
uint64_t dist_pct(struct dist *d, double p);	/* nearest-rank */
void dist_free(struct dist *d);
/*
 * bpftrace-style "@name:" histogram; top > 0 prints only the top fullest
 * buckets, each run of the others as one "..." row with their count
 */
void dist_hist(FILE *f, const struct dist *d, const char *name, int top);
/* "n=… p50=… p90=… p99=… max=…"; unit "ns": each figure through fmt_ns() */
void dist_line(FILE *f, struct dist *d, const char *unit);
/*
 * Every duration mmreport prints goes through this: four significant
 * digits, the unit glued on (842ns 14.09us 8.448ms 2.698s). FMT_NS_LEN
 * holds any.
 */
#define FMT_NS_LEN 24
const char *fmt_ns(uint64_t ns, char *buf, size_t len);

#endif
