// SPDX-License-Identifier: GPL-2.0
/*
 * unmap: populate a private anonymous region, then munmap it in one call.
 *
 * The munmap is one mmu_gather over the whole region: it fills and flushes
 * batches, allocates batch pages up to MAX_GATHER_BATCH_COUNT and reaches
 * the preemption point in tlb_batch_pages_flush() every 512 pages. With
 * --thp the region is 2 MiB aligned and madvised for huge pages, so far
 * fewer struct pages go through the gather. With --threads, each thread
 * of one process unmaps a region of its own, all at once. munmap() holds
 * the mmap lock for write until it downgrades, so munmaps mostly take turns;
 * with --dontneed each thread first zaps its region with
 * madvise(MADV_DONTNEED), under the mmap lock for read: those gathers on the
 * one mm overlap, and tlb_finish_mmu() sees a nested flush.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

static void usage(FILE *f)
{
	fprintf(f,
		"unmap: populate N MiB of private anonymous memory, then munmap it at once\n"
		"usage: unmap [--mib N] [--repeat R] [--thp] [--hold-ms T] [--threads T]\n"
		"             [--dontneed]\n"
		"  --mib N      region size in MiB (default 64)\n"
		"  --repeat R   populate+munmap R times (default 1)\n"
		"  --thp        align to 2 MiB and madvise(MADV_HUGEPAGE)\n"
		"  --hold-ms T  sleep T ms between populate and munmap (default 0)\n"
		"  --threads T  T threads, each its own region, munmap at once (default 1)\n"
		"  --dontneed   zap with madvise(MADV_DONTNEED) first (threads' gathers overlap)\n"
		"Prints the region, the pages touched and the munmap time.\n");
}

static long mib = 64, repeat = 1, hold, page;
static int thp, dontneed;
static pthread_barrier_t ready;

static void *rounds(void *arg)
{
	(void)arg;
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
		pthread_barrier_wait(&ready);
		t0 = now_ms();
		if (dontneed && madvise(mem, len, MADV_DONTNEED))
			die("unmap: madvise(MADV_DONTNEED): %s\n", strerror(errno));
		if (munmap(raw, len + align))
			die("unmap: munmap: %s\n", strerror(errno));
		t1 = now_ms();
		printf("unmap: %ld MiB%s, %zu pages touched, munmap %.3f ms\n",
		       mib, thp ? " (thp)" : "", len / page, t1 - t0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "thp", no_argument, NULL, 'T' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "threads", required_argument, NULL, 'j' },
		{ "dontneed", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long threads = 1;
	pthread_t *tid;
	int c;

	page = sysconf(_SC_PAGESIZE);

	while ((c = getopt_long(argc, argv, "m:r:Tt:j:dh", opts, NULL)) != -1) {
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
		case 'd':
			dontneed = 1;
			break;
		case 'j':
			threads = number("unmap", "--threads", optarg, 1, 64);
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
	if (pthread_barrier_init(&ready, NULL, threads))
		die("unmap: pthread_barrier_init failed\n");
	tid = calloc(threads, sizeof(*tid));
	if (!tid)
		die("unmap: out of memory\n");
	for (long i = 1; i < threads; i++)
		if (pthread_create(&tid[i], NULL, rounds, NULL))
			die("unmap: pthread_create failed\n");
	rounds(NULL);
	for (long i = 1; i < threads; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return 0;
}
