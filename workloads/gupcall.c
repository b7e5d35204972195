// SPDX-License-Identifier: GPL-2.0
/*
 * gupcall: one GUP_FAST_BENCHMARK ioctl of the tree's gup_test driver
 * (CONFIG_GUP_TEST, /sys/kernel/debug/gup_test) over private anonymous
 * memory that is NOT faulted in, one page per get_user_pages_fast() call.
 *
 * The tree's own gup_test program always faults its pages in first (or
 * asks for FOLL_TOUCH, which GUP-fast refuses with a WARN), so GUP-fast
 * never leaves its lockless walk there. Here every page is absent: the
 * walk finds nothing and each call falls back to the slow path
 * (get_user_pages_unlocked()), which takes the mmap lock itself, faults
 * the page in and pins it. The driver does not take the mmap lock for
 * GUP_FAST, so any mmap lock inside this ioctl is the slow path's.
 * Transparent huge pages are off for the region (one fault per page).
 * --touch faults the pages in first (the lockless case); --fast-only asks
 * for FOLL_FAST_ONLY (no fallback: on absent pages it pins nothing).
 * Prints the pages pinned (the driver's own count); exits 1 unless every
 * page was pinned.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

/* mm/gup_test.h of linux 6.1 */
struct gup_test {
	uint64_t get_delta_usec;
	uint64_t put_delta_usec;
	uint64_t addr;
	uint64_t size;
	uint32_t nr_pages_per_call;
	uint32_t gup_flags;
	uint32_t test_flags;
	uint32_t which_pages[8];
};
#define GUP_FAST_BENCHMARK	_IOWR('g', 1, struct gup_test)
#define FOLL_WRITE		0x01
#define FOLL_FAST_ONLY		0x80000

static void usage(FILE *f)
{
	fprintf(f,
		"gupcall: gup_test's GUP_FAST ioctl over private anonymous memory not faulted in\n"
		"usage: gupcall [--mib N] [--touch] [--fast-only]\n"
		"  --mib N      region size in MiB (default 4)\n"
		"  --touch      fault the pages in first (GUP-fast then pins them locklessly)\n"
		"  --fast-only  FOLL_FAST_ONLY: no slow-path fallback\n"
		"Prints the pages pinned; exits 1 unless all were. Needs root and CONFIG_GUP_TEST.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "touch", no_argument, NULL, 't' },
		{ "fast-only", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct gup_test gup = { 0 };
	long mib = 4, page = sysconf(_SC_PAGESIZE), pages, pinned;
	int c, touch = 0, fast_only = 0, fd;
	size_t len;
	char *m;

	while ((c = getopt_long(argc, argv, "m:tfh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mib = number("gupcall", "--mib", optarg, 1, 1024);
			break;
		case 't':
			touch = 1;
			break;
		case 'f':
			fast_only = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	len = (size_t)mib << 20;
	pages = (long)(len / page);
	fd = open("/sys/kernel/debug/gup_test", O_RDWR);
	if (fd < 0)
		die("gupcall: /sys/kernel/debug/gup_test: %s (CONFIG_GUP_TEST, debugfs, root)\n",
		    strerror(errno));
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die("gupcall: mmap: %s\n", strerror(errno));
	if (madvise(m, len, MADV_NOHUGEPAGE))
		die("gupcall: madvise(MADV_NOHUGEPAGE): %s\n", strerror(errno));
	if (touch)
		for (long i = 0; i < pages; i++)
			m[i * page] = 1;
	gup.addr = (uintptr_t)m;
	gup.size = len;
	gup.nr_pages_per_call = 1;
	gup.gup_flags = FOLL_WRITE | (fast_only ? FOLL_FAST_ONLY : 0);
	if (ioctl(fd, GUP_FAST_BENCHMARK, &gup))
		die("gupcall: ioctl(GUP_FAST_BENCHMARK): %s\n", strerror(errno));
	/* one page per call: the range the driver walked is what it pinned */
	pinned = (long)(gup.size / page);
	printf("gupcall: GUP_FAST%s over %ld pages %s: %ld pinned, get %llu us\n",
	       fast_only ? " (fast only)" : "", pages,
	       touch ? "faulted in first" : "not faulted in", pinned,
	       (unsigned long long)gup.get_delta_usec);
	return pinned == pages ? 0 : 1;
}
