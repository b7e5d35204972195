/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest workloads: strict number parsing and exits that say
 * what went wrong.
 */
#ifndef MMPREEMPT_WORKLOAD_COMMON_H
#define MMPREEMPT_WORKLOAD_COMMON_H

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/*
 * Reads @len bytes that children write to @fd (a pipe whose write end the
 * caller has closed), within @ms in all, or exits naming what went wrong.
 * A plain read() waited forever for a child that died before writing, as
 * long as another child kept the write end open. So: a child that ended
 * with a failure or a signal (seen without reaping it) fails the run at
 * once; the end of the pipe (every child gone) and the time limit fail it
 * too. A child that exits 0 after it wrote is no error.
 */
static inline void read_children(const char *prog, int fd, void *buf,
				 size_t len, long ms)
{
	double end = now_ms() + ms;
	char *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = end - now_ms();
		siginfo_t si = { 0 };
		ssize_t n;
		int r;

		if (left <= 0)
			die("%s: children did not report within %ld ms\n", prog, ms);
		r = poll(&pfd, 1, left < 100 ? (int)left + 1 : 100);
		if (r < 0 && errno != EINTR)
			die("%s: poll: %s\n", prog, strerror(errno));
		if (r > 0) {
			n = read(fd, p, len);
			if (n < 0 && errno != EINTR)
				die("%s: read: %s\n", prog, strerror(errno));
			if (n == 0)
				die("%s: every child ended before it reported\n", prog);
			if (n > 0) {
				p += n;
				len -= n;
			}
			continue;
		}
		if (!waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) &&
		    si.si_pid &&
		    (si.si_code != CLD_EXITED || si.si_status != 0))
			die("%s: child %d %s %d before it reported\n", prog,
			    (int)si.si_pid,
			    si.si_code == CLD_EXITED ? "exited with status" :
			    "was killed by signal", si.si_status);
	}
}

#endif
