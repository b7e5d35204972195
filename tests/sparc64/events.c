// SPDX-License-Identifier: GPL-2.0
/*
 * events: the series' anon_vma and mmu_gather trace events fire on sparc64.
 * Enables both systems in tracefs, forks children that write to an
 * inherited anonymous buffer (copy-on-write: anon_vma alloc, clone, locks,
 * frees) and unmaps it (mmu_gather), then counts each event in the trace.
 * One KTAP subtest per event the workload must produce (not
 * anon_vma_lock_start: it marks a caller about to block, and one CPU with
 * one workload never contends); the trace's
 * overrun count must be 0, or the counts are not all there is.
 * Needs: tracefs at /sys/kernel/tracing, CONFIG_TRACEPOINTS, the series.
 * Overhead: well under a second of guest time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"

static int wr(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0) {
		printf("# %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = write(fd, val, strlen(val));
	close(fd);
	if (n != (ssize_t)strlen(val)) {
		printf("# write %s to %s: %s\n", val, path, strerror(errno));
		return -1;
	}
	return 0;
}

static void workload(void)
{
	size_t len = 64 * 8192;
	char *p;
	int i;

	for (i = 0; i < 4; i++) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			exit(1);
		memset(p, 1, len);
		if (fork() == 0) {
			memset(p, 2, len);
			_exit(0);
		}
		wait(NULL);
		munmap(p, len);
	}
}

int main(void)
{
	static const char *const want[] = {
		"anon_vma_alloc", "anon_vma_attach", "anon_vma_free",
		"anon_vma_lock_acquired", "anon_vma_lock_released",
		"anon_vma_get", "anon_vma_put",
		"mmu_gather_start", "mmu_gather_flush", "mmu_gather_finish",
	};
	enum { NW = sizeof(want) / sizeof(want[0]) };
	unsigned long count[NW] = { 0 }, overrun = 0;
	char line[512], pat[64];
	int i, nt = 0, failed = 0;
	FILE *f;

	/* line-buffered: what was printed before an oops kills us stays */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(T "events/anon_vma/enable", W_OK) || access(T "events/mmu_gather/enable", W_OK)) {
		printf("# %sevents/{anon_vma,mmu_gather}: %s\n", T, strerror(errno));
		printf("    not ok 1 the anon_vma and mmu_gather event systems exist\n");
		return 1;
	}
	if (wr(T "buffer_size_kb", "4096") || wr(T "trace", "") ||
	    wr(T "events/anon_vma/enable", "1") || wr(T "events/mmu_gather/enable", "1"))
		return 1;
	workload();
	if (wr(T "events/anon_vma/enable", "0") || wr(T "events/mmu_gather/enable", "0"))
		return 1;

	f = fopen(T "per_cpu/cpu0/stats", "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "overrun: %lu", &overrun);
	if (f)
		fclose(f);
	f = fopen(T "trace", "r");
	if (!f) {
		printf("# %strace: %s\n", T, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		for (i = 0; i < NW; i++) {
			snprintf(pat, sizeof(pat), " %s: ", want[i]);
			if (strstr(line, pat))
				count[i]++;
		}
	}
	fclose(f);
	printf("# measured: overrun %lu;", overrun);
	for (i = 0; i < NW; i++)
		printf(" %s %lu", want[i], count[i]);
	printf("\n");
	nt++;
	if (overrun)
		failed++;
	printf("    %s %d the trace lost nothing\n", overrun ? "not ok" : "ok", nt);
	for (i = 0; i < NW; i++) {
		nt++;
		if (!count[i])
			failed++;
		printf("    %s %d %s fired\n", count[i] ? "ok" : "not ok", nt, want[i]);
	}
	return failed ? 1 : 0;
}
