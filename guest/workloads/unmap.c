// SPDX-License-Identifier: GPL-2.0
/*
 * unmap: populate a private anonymous region, then munmap it in one call.
 *
 * The munmap is one mmu_gather over the whole region: it fills and flushes
 * batches, allocates batch pages up to MAX_GATHER_BATCH_COUNT and reaches
 * the preemption point in tlb_batch_pages_flush() every 512 pages. With
 * --thp the region is 2 MiB aligned and madvised for huge pages, so far
 * fewer struct pages go through the gather.
 */
#include <getopt.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

static void usage(FILE *f)
{
	fprintf(f,
		"unmap: populate N MiB of private anonymous memory, then munmap it at once\n"
		"usage: unmap [--mib N] [--repeat R] [--thp] [--hold-ms T]\n"
		"  --mib N      region size in MiB (default 64)\n"
		"  --repeat R   populate+munmap R times (default 1)\n"
		"  --thp        align to 2 MiB and madvise(MADV_HUGEPAGE)\n"
		"  --hold-ms T  sleep T ms between populate and munmap (default 0)\n"
		"Prints the region, the pages touched and the munmap time.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "thp", no_argument, NULL, 'T' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long mib = 64, repeat = 1, hold = 0, page = sysconf(_SC_PAGESIZE);
	int thp = 0, c;

	while ((c = getopt_long(argc, argv, "m:r:Tt:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mib = number("unmap", "--mib", optarg, 1, 65536);
			break;
		case 'r':
			repeat = number("unmap", "--repeat", optarg, 1, 1000000);
			break;
		case 'T':
			thp = 1;
			break;
		case 't':
			hold = number("unmap", "--hold-ms", optarg, 0, 3600000);
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
	for (long r = 0; r < repeat; r++) {
		size_t len = (size_t)mib << 20, align = thp ? 2UL << 20 : 0;
		char *raw, *mem;
		double t0, t1;

		raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED)
			die("unmap: mmap %ld MiB: %s\n", mib, strerror(errno));
		mem = raw;
		if (align) {
			mem = (char *)(((uintptr_t)raw + align - 1) & ~(align - 1));
			if (madvise(mem, len, MADV_HUGEPAGE))
				die("unmap: madvise(MADV_HUGEPAGE): %s\n", strerror(errno));
		}
		for (size_t off = 0; off < len; off += page)
			mem[off] = 1;
		sleep_ms(hold);
		t0 = now_ms();
		if (munmap(raw, len + align))
			die("unmap: munmap: %s\n", strerror(errno));
		t1 = now_ms();
		printf("unmap: %ld MiB%s, %zu pages touched, munmap %.3f ms\n",
		       mib, thp ? " (thp)" : "", len / page, t1 - t0);
	}
	return 0;
}
