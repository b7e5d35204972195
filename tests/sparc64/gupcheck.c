// SPDX-License-Identifier: GPL-2.0
/*
 * gupcheck: get_user_pages() and its fast, pinning and long-term variants on
 * a sparc64 guest, through the kernel's own gup_test ioctl
 * (/sys/kernel/debug/gup_test, CONFIG_GUP_TEST; the modes of
 * tools/testing/selftests/vm/gup_test.c). One KTAP subtest per case: each
 * asks for every page of a buffer, one page per call, and passes when the
 * kernel processed all of them. The last case counts what the lockless
 * walk pins on its own (FOLL_FAST_ONLY): every 8K page with the series,
 * none on stock 6.1, where sparc64 has no GUP-fast.
 *
 * Usage: gupcheck [-s] [MIB]   (-s: only print the fast-only count, for the
 * stock kernel's comparison; MIB: buffer size, default 16)
 * Needs: debugfs, CONFIG_GUP_TEST; hugetlb cases reserve 8 MiB pages.
 * Overhead: a few seconds of guest time under TCG.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gup_test.h"

#define FOLL_WRITE	0x01
#define FOLL_FAST_ONLY	0x80000	/* include/linux/mm.h, 6.1 */

static int gfd, nt, failed;
static long psz;

struct mode {
	const char *name;	/* gup_test's option and what it does */
	unsigned long cmd;
	int write, thp, huge;
	unsigned int extra;
};

/* A failed case says why after "#" (a comment, not a KTAP directive). */
static void result(int ok, const char *name, const char *why)
{
	nt++;
	if (!ok)
		failed++;
	printf("    %s %d %s\n", ok ? "ok" : "not ok", nt, name);
	if (!ok && why)
		printf("    # %s: %s\n", name, why);
}

/* Map, touch and hand the buffer to the ioctl; return pages processed. */
static long gup(const struct mode *m, size_t size, struct gup_test *g, char *err, size_t errlen)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (m->huge ? MAP_HUGETLB : 0);
	char *p;
	size_t off;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		return -1;
	}
	if (m->thp > 0 && madvise(p, size, MADV_HUGEPAGE))
		printf("# madvise(MADV_HUGEPAGE): %s\n", strerror(errno));
	if (m->thp < 0 && madvise(p, size, MADV_NOHUGEPAGE))
		printf("# madvise(MADV_NOHUGEPAGE): %s\n", strerror(errno));
	for (off = 0; off < size; off += psz)
		p[off] = 1;
	memset(g, 0, sizeof(*g));
	g->addr = (unsigned long)p;
	g->size = size;
	g->nr_pages_per_call = 1;
	g->gup_flags = (m->write ? FOLL_WRITE : 0) | m->extra;
	if (m->cmd == DUMP_USER_PAGES_TEST)
		g->which_pages[0] = 1;
	if (ioctl(gfd, m->cmd, g)) {
		snprintf(err, errlen, "ioctl: %s", strerror(errno));
		munmap(p, size);
		return -1;
	}
	munmap(p, size);
	return g->size / psz;
}

static int reserve_huge(int want)
{
	char buf[32];
	int fd, n;

	fd = open("/proc/sys/vm/nr_hugepages", O_RDWR);
	if (fd < 0)
		return 0;
	n = snprintf(buf, sizeof(buf), "%d\n", want);
	if (write(fd, buf, n) != n)
		printf("# nr_hugepages: %s\n", strerror(errno));
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return atoi(buf);
}

int main(int argc, char **argv)
{
	static const struct mode modes[] = {
		{ "-u get_user_pages_fast", GUP_FAST_BENCHMARK, 1, 0, 0, 0 },
		{ "-a pin_user_pages_fast", PIN_FAST_BENCHMARK, 1, 0, 0, 0 },
		{ "-U get_user_pages", GUP_BASIC_TEST, 1, 0, 0, 0 },
		{ "-b pin_user_pages", PIN_BASIC_TEST, 1, 0, 0, 0 },
		{ "-L pin_user_pages FOLL_LONGTERM", PIN_LONGTERM_BENCHMARK, 1, 0, 0, 0 },
		{ "-c dump_page of page 0", DUMP_USER_PAGES_TEST, 1, 0, 0, 0 },
		{ "-W -u get_user_pages_fast read-only", GUP_FAST_BENCHMARK, 0, 0, 0, 0 },
		{ "-W -a pin_user_pages_fast read-only", PIN_FAST_BENCHMARK, 0, 0, 0, 0 },
		{ "-t -u THP", GUP_FAST_BENCHMARK, 1, 1, 0, 0 },
		{ "-t -W -u THP read-only", GUP_FAST_BENCHMARK, 0, 1, 0, 0 },
		{ "-T -u no THP", GUP_FAST_BENCHMARK, 1, -1, 0, 0 },
		{ "-H -u hugetlb", GUP_FAST_BENCHMARK, 1, 0, 1, 0 },
		{ "-H -W -a hugetlb read-only pin", PIN_FAST_BENCHMARK, 0, 0, 1, 0 },
	};
	const struct mode fast = { "fast-only", GUP_FAST_BENCHMARK, 1, -1, 0, FOLL_FAST_ONLY };
	const struct mode fastro = { "fast-only read-only", GUP_FAST_BENCHMARK, 0, -1, 0, FOLL_FAST_ONLY };
	struct gup_test g;
	char err[128], why[160];
	int stock = 0, huge = 0, a = 1;
	size_t size, npages;
	unsigned int i;
	long got;

	/* line-buffered: what was printed before an oops kills us stays */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > a && !strcmp(argv[a], "-s")) {
		stock = 1;
		a++;
	}
	size = (size_t)(argc > a ? atoi(argv[a]) : 16) << 20;
	psz = sysconf(_SC_PAGESIZE);
	npages = size / psz;
	gfd = open("/sys/kernel/debug/gup_test", O_RDWR);
	if (gfd < 0) {
		printf("SKIP: /sys/kernel/debug/gup_test: %s (CONFIG_GUP_TEST?)\n", strerror(errno));
		return 4;
	}
	printf("# page size %ld, buffer %zu MiB = %zu pages, one page per call\n",
	       psz, size >> 20, npages);
	if (!stock) {
		huge = reserve_huge((int)(size >> 23) + 1);
		printf("# hugetlb: %d 8 MiB pages reserved\n", huge);
		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			if (modes[i].huge && huge <= (int)(size >> 23)) {
				nt++;
				printf("    ok %d %s # SKIP %d hugetlb pages reserved, %zu needed\n",
				       nt, modes[i].name, huge, (size >> 23) + 1);
				continue;
			}
			got = gup(&modes[i], size, &g, err, sizeof(err));
			if (got < 0) {
				result(0, modes[i].name, err);
				continue;
			}
			snprintf(why, sizeof(why), "%ld of %zu pages", got, npages);
			printf("# %s: %ld of %zu pages, get %llu us, put %llu us\n", modes[i].name,
			       got, npages, (unsigned long long)g.get_delta_usec,
			       (unsigned long long)g.put_delta_usec);
			result(got == (long)npages, modes[i].name, got == (long)npages ? NULL : why);
		}
	}
	got = gup(&fast, size, &g, err, sizeof(err));
	printf("# measured: the lockless walk alone pinned %ld of %zu 8K pages (FOLL_FAST_ONLY|FOLL_WRITE)\n",
	       got, npages);
	if (!stock) {
		snprintf(why, sizeof(why), "%ld of %zu pages: the lockless walk fell back", got, npages);
		result(got == (long)npages, "GUP-fast pins every 8K page on its own", got == (long)npages ? NULL : why);
		got = gup(&fastro, size, &g, err, sizeof(err));
		printf("# measured: read-only, %ld of %zu 8K pages\n", got, npages);
		snprintf(why, sizeof(why), "%ld of %zu pages", got, npages);
		result(got == (long)npages, "GUP-fast pins every 8K page read-only", got == (long)npages ? NULL : why);
	}
	if (huge)
		reserve_huge(0);
	return failed ? 1 : 0;
}
