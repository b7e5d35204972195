// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "grow.h"

static int bucket(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

void dist_add(struct dist *d, uint64_t v)
{
	grow(&d->v, &d->cap, d->n, sizeof(*d->v));
	d->v[d->n++] = v;
	d->sum += v;
	if (v > d->max)
		d->max = v;
	d->hist[bucket(v)]++;
	d->sorted = 0;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t dist_pct(struct dist *d, double p)
{
	size_t rank;

	if (!d->n)
		return 0;
	if (!d->sorted) {
		qsort(d->v, d->n, sizeof(*d->v), cmp);
		d->sorted = 1;
	}
	rank = (size_t)(p / 100.0 * d->n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > d->n)
		rank = d->n;
	return d->v[rank - 1];
}

void dist_free(struct dist *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static void human(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = " KMGTPE";
	int i = 0;

	while (v >= 1024 && !(v % 1024) && i < 6) {
		v /= 1024;
		i++;
	}
	if (i)
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[i]);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* the smallest value in bucket i: [0] holds 0, [i] holds [2^(i-1), 2^i) */
static uint64_t bucket_lo(int i)
{
	return i ? 1ull << (i - 1) : 0;
}

void dist_hist(FILE *f, const struct dist *d, const char *name, int top)
{
	static const char bar[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	int lo = -1, hi = -1, shown = 0, show[DIST_BUCKETS] = { 0 };
	uint64_t peak = 0;

	for (int i = 0; i < DIST_BUCKETS; i++)
		if (d->hist[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
			if (d->hist[i] > peak)
				peak = d->hist[i];
		}
	fprintf(f, "@%s:\n", name);
	if (lo < 0) {
		fprintf(f, "  (no samples)\n\n");
		return;
	}
	for (int i = lo; i <= hi; i++)
		show[i] = 1;
	if (top > 0 && hi - lo + 1 > top) {
		/*
		 * the `top` fullest buckets, in bucket order; an empty bucket is
		 * never one of them: with fewer full ones, only those show
		 */
		memset(show, 0, sizeof(show));
		for (int k = 0; k < top; k++) {
			int best = -1;

			for (int i = lo; i <= hi; i++)
				if (!show[i] && d->hist[i] &&
				    (best < 0 || d->hist[i] > d->hist[best]))
					best = i;
			if (best < 0)
				break;
			show[best] = 1;
			shown++;
		}
	}
	for (int i = lo; i <= hi; i++) {
		char label[64], a[24], b[24];
		int w = (int)(d->hist[i] * 52 / peak);

		if (!show[i]) {
			/* a row for each run of hidden buckets: no gap goes unseen */
			uint64_t sum = 0;
			int j = i;

			while (j <= hi && !show[j])
				sum += d->hist[j++];
			human(bucket_lo(i), a, sizeof(a));
			human(j < DIST_BUCKETS ? bucket_lo(j) : 0, b, sizeof(b));
			fprintf(f, "%-16s%8" PRIu64 "   %d bucket%s not shown: [%s, %s)\n", "...",
				sum, j - i, j - i > 1 ? "s" : "", a, j < DIST_BUCKETS ? b : "inf");
			i = j - 1;
			continue;
		}
		if (i == 0) {
			snprintf(label, sizeof(label), "[0]");
		} else if (i == 1) {
			snprintf(label, sizeof(label), "[1]");
		} else {
			human(bucket_lo(i), a, sizeof(a));
			human(i + 1 < DIST_BUCKETS ? bucket_lo(i + 1) : 0, b, sizeof(b));
			snprintf(label, sizeof(label), "[%s, %s)", a,
				 i + 1 < DIST_BUCKETS ? b : "inf");
		}
		fprintf(f, "%-16s%8" PRIu64 " |%-52.*s|\n", label, d->hist[i], w, bar);
	}
	if (top > 0 && hi - lo + 1 > top)
		fprintf(f, "  (%d fullest of %d buckets shown)\n", shown, hi - lo + 1);
	fputc('\n', f);
}

/* a / b rounded half up, without the overflow of (a + b / 2) / b */
static uint64_t round_div(uint64_t a, uint64_t b)
{
	return a / b + (b > 1 && a % b >= b / 2);
}

/*
 * The one way mmreport prints a duration: four significant digits and the
 * unit glued on, so that a table cell or a key=value figure stays one word
 * for awk: 842ns 14.09us 8.448ms 2.698s. The unit is the largest of ns, us,
 * ms and s that leaves a figure of at least 1; below 1 us the whole
 * nanoseconds; from 1000 s the whole seconds. Rounding that reaches 1000
 * of a unit moves to the next unit (999.96 us prints 1.000ms). Integer
 * arithmetic only, so a figure is the same on every host.
 */
const char *fmt_ns(uint64_t ns, char *buf, size_t len)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	static const uint64_t p10[] = { 1, 10, 100, 1000 };
	uint64_t base = 1;	/* ns in one unit */

	if (ns < 1000) {
		snprintf(buf, len, "%" PRIu64 "ns", ns);
		return buf;
	}
	for (int u = 1; u <= 3; u++) {
		base *= 1000;
		/* with d decimals, m is the figure times 10^d, rounded */
		for (int d = 3; d >= 1; d--) {
			uint64_t step = base / p10[d], m = round_div(ns, step);

			if (m < 10000) {
				snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%s", m / p10[d], d,
					 m % p10[d], unit[u]);
				return buf;
			}
		}
	}
	snprintf(buf, len, "%" PRIu64 "s", round_div(ns, 1000000000));
	return buf;
}

void dist_line(FILE *f, struct dist *d, const char *unit)
{
	char a[FMT_NS_LEN], b[FMT_NS_LEN], c[FMT_NS_LEN], m[FMT_NS_LEN];

	if (!d->n) {
		fprintf(f, "n=0");
		return;
	}
	if (!strcmp(unit, "ns"))
		fprintf(f, "n=%zu p50=%s p90=%s p99=%s max=%s", d->n,
			fmt_ns(dist_pct(d, 50), a, sizeof(a)),
			fmt_ns(dist_pct(d, 90), b, sizeof(b)),
			fmt_ns(dist_pct(d, 99), c, sizeof(c)), fmt_ns(d->max, m, sizeof(m)));
	else
		fprintf(f, "n=%zu p50=%" PRIu64 " p90=%" PRIu64 " p99=%" PRIu64 " max=%" PRIu64
			"%s%s", d->n, dist_pct(d, 50), dist_pct(d, 90), dist_pct(d, 99), d->max,
			*unit ? " " : "", unit);
}
