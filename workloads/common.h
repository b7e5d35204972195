/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest workloads: strict number parsing and exits that say
 * what went wrong.
 */
#ifndef MMPREEMPT_WORKLOAD_COMMON_H
#define MMPREEMPT_WORKLOAD_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define die(...) do { fprintf(stderr, __VA_ARGS__); exit(1); } while (0)

/* A whole number in [min, max], or exit 2 naming the option. */
static inline long number(const char *prog, const char *opt, const char *s,
			  long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "%s: %s wants a number in [%ld, %ld], not '%s'\n",
			prog, opt, min, max, s);
		exit(2);
	}
	return v;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif
