// SPDX-License-Identifier: GPL-2.0
/*
 * mmops: one mm path, N times, timed per operation: what the series costs
 * a path with every trace event off (bench/off-cost.sh runs it on stock 6.1
 * and on the patched kernel, under icount, where a guest ns is one
 * instruction).
 *
 * fork     fork, the child writes one page of a 1 MiB private region (a
 *          copy-on-write fault) and exits, the parent waits: anon_vma_fork,
 *          the child's exit unlinking its anon_vmas, one small gather
 * fault    map 32 MiB private anonymous, write every page, munmap: faults
 *          with __anon_vma_prepare, one long gather with its batches
 * file     map a 1 MiB tmpfs file shared, read every page, truncate it to 0
 *          (the rmap walk under the i_mmap lock) and back, munmap
 * migrate  move 128 pages of a private region from node 0 to node 1 and
 *          back with move_pages(2): anon_vma refcounts and rmap walks
 *          (needs a second NUMA node)
 * page     map one anonymous page, write it, munmap: the per-VMA anon_vma
 *          lifecycle once (__anon_vma_prepare, unlink_anon_vmas, the free)
 * forkvmas fork a process with 128 one-page anonymous VMAs (every other
 *          one read-only, so none merge), the child exits at once: 128
 *          anon_vma_fork and 128 unlinks per operation
 * split    mprotect the middle page of three written ones read-only and
 *          back: a VMA split and a merge (vma_adjust's anon_vma locking)
 * mremap   move 16 written pages to another address and back
 * filepage map one page of a tmpfs file shared, read it, munmap: the
 *          i_mmap write lock at the link and the unlink
 * collapse write 512 pages of a 2 MiB aligned region (small pages: THP
 *          "madvise" mode, no MADV_HUGEPAGE) and MADV_COLLAPSE them
 *          (khugepaged's path: the anon_vma write lock), then munmap
 * pageout  MADV_PAGEOUT of 64 clean pages of a file mapped shared (reclaim:
 *          the rmap walk under the i_mmap lock); the refill (reading them
 *          back) is not timed. --dir: where the file is (a disk file system:
 *          tmpfs pages are not reclaimed without swap)
 * notifier fork, the child opens /dev/hmm_dmirror0 (test_hmm.ko): its first
 *          mmu notifier on the mm runs mm_take_all_locks; then it exits
 * dontneed write 256 pages, MADV_DONTNEED them: a gather on the zap path
 *
 * Prints "mmops: MODE N ops, X ns per op, median M, min L" (the clock is
 * CLOCK_MONOTONIC): the mean, and the median and minimum of the operations
 * timed one by one. Under icount the mean carries whatever else the guest did
 * meanwhile (a timer tick, a work item, a pcp refill), in some rounds and not
 * others; the median of single operations leaves those out.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define MPOL_MF_MOVE (1 << 1)
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define NVMAS 64	/* forkvmas: twice as many VMAs */
#define NPAGES 64	/* pageout */

static long page;
static char *mem;	/* fork, migrate, forkvmas, split, mremap, ...: set up once */
static char *mem2;	/* mremap: where it goes and comes back from */
static int fd = -1;
static void *pages[128];
static const char *dir = "/var/tmp";

static void usage(FILE *f)
{
	fprintf(f,
		"mmops: time one mm path N times\n"
		"usage: mmops [--ops N] [--dir D] MODE\n"
		"  MODE     fork fault file migrate page forkvmas split mremap\n"
		"           filepage collapse pageout notifier dontneed\n"
		"  --ops N  operations (default 100)\n"
		"  --dir D  where pageout's file goes (default /var/tmp)\n"
		"Prints the mean, median and minimum ns per operation.\n");
}

static char *map_anon(size_t len)
{
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("mmops: mmap: %s\n", strerror(errno));
	return m;
}

static void unmap(void *m, size_t len)
{
	if (munmap(m, len))
		die("mmops: munmap: %s\n", strerror(errno));
}

static void advise(void *m, size_t len, int advice, const char *name)
{
	if (madvise(m, len, advice))
		die("mmops: madvise %s: %s\n", name, strerror(errno));
}

static void protect(void *m, size_t len, int prot)
{
	if (mprotect(m, len, prot))
		die("mmops: mprotect: %s\n", strerror(errno));
}

static void reap(pid_t pid)
{
	int status;

	if (pid < 0)
		die("mmops: fork: %s\n", strerror(errno));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("mmops: the child failed\n");
}

static void setup_mem(void)
{
	mem = map_anon(1UL << 20);
	memset(mem, 1, 1UL << 20);
	for (int i = 0; i < 128; i++)
		pages[i] = mem + i * page;
}

static void op_fork(void)
{
	pid_t pid = fork();

	if (!pid) {
		mem[0] = 2;
		_exit(0);
	}
	reap(pid);
}

static void op_fault(void)
{
	size_t len = 32UL << 20;
	char *m = map_anon(len);

	for (size_t off = 0; off < len; off += page)
		m[off] = 1;
	unmap(m, len);
}

static void setup_tmpfile(const char *in)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/mmops-XXXXXX", in);
	fd = mkstemp(path);
	if (fd < 0)
		die("mmops: mkstemp in %s: %s\n", in, strerror(errno));
	unlink(path);
}

static void setup_file(void)
{
	setup_tmpfile("/tmp");
}

static void op_file(void)
{
	size_t len = 1UL << 20;
	volatile char sum = 0;
	char *m;

	if (ftruncate(fd, len))
		die("mmops: ftruncate: %s\n", strerror(errno));
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("mmops: mmap: %s\n", strerror(errno));
	for (size_t off = 0; off < len; off += page)
		sum += m[off];
	if (ftruncate(fd, 0))
		die("mmops: ftruncate: %s\n", strerror(errno));
	unmap(m, len);
}

static void op_migrate(void)
{
	int nodes[128], status[128];

	for (int to = 1; to >= 0; to--) {
		for (int i = 0; i < 128; i++)
			nodes[i] = to;
		if (syscall(SYS_move_pages, 0, 128, pages, nodes, status,
			    MPOL_MF_MOVE))
			die("mmops: move_pages to node %d: %s\n", to, strerror(errno));
		for (int i = 0; i < 128; i++)
			if (status[i] != to)
				die("mmops: page %d is on node %d, not %d\n", i,
				    status[i], to);
	}
}

static void op_page(void)
{
	char *m = map_anon(page);

	m[0] = 1;
	unmap(m, page);
}

static void setup_forkvmas(void)
{
	mem = map_anon(2 * NVMAS * page);
	memset(mem, 1, 2 * NVMAS * page);
	/* every other page read-only: 2 * NVMAS VMAs that cannot merge */
	for (int i = 1; i < 2 * NVMAS; i += 2)
		protect(mem + i * page, page, PROT_READ);
}

static void op_forkvmas(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	reap(pid);
}

static void setup_split(void)
{
	mem = map_anon(3 * page);
	memset(mem, 1, 3 * page);
}

static void op_split(void)
{
	protect(mem + page, page, PROT_READ);
	protect(mem + page, page, PROT_READ | PROT_WRITE);
}

static void setup_mremap(void)
{
	mem = map_anon(16 * page);
	memset(mem, 1, 16 * page);
	mem2 = map_anon(16 * page);	/* a place to move to, kept reserved */
	unmap(mem2, 16 * page);
}

static void op_mremap(void)
{
	if (mremap(mem, 16 * page, 16 * page, MREMAP_MAYMOVE | MREMAP_FIXED,
		   mem2) != mem2 ||
	    mremap(mem2, 16 * page, 16 * page, MREMAP_MAYMOVE | MREMAP_FIXED,
		   mem) != mem)
		die("mmops: mremap: %s\n", strerror(errno));
}

static void setup_filepage(void)
{
	setup_tmpfile("/tmp");
	if (ftruncate(fd, page))
		die("mmops: ftruncate: %s\n", strerror(errno));
}

static void op_filepage(void)
{
	volatile char *m = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);

	if (m == MAP_FAILED)
		die("mmops: mmap: %s\n", strerror(errno));
	(void)m[0];
	unmap((void *)m, page);
}

static void op_collapse(void)
{
	size_t huge = 2UL << 20;
	char *m = map_anon(2 * huge);
	char *a = (char *)(((unsigned long)m + huge - 1) & ~(huge - 1));

	for (size_t off = 0; off < huge; off += page)
		a[off] = 1;
	advise(a, huge, MADV_COLLAPSE, "MADV_COLLAPSE");
	unmap(m, 2 * huge);
}

static void setup_pageout(void)
{
	char buf[4096];

	setup_tmpfile(dir);
	memset(buf, 1, sizeof(buf));
	for (int i = 0; i < NPAGES * page / (long)sizeof(buf); i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			die("mmops: write: %s\n", strerror(errno));
	if (fsync(fd))
		die("mmops: fsync: %s\n", strerror(errno));
	mem = mmap(NULL, NPAGES * page, PROT_READ, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		die("mmops: mmap: %s\n", strerror(errno));
}

/* untimed: the pages mapped again (read back from the disk) */
static void prep_pageout(void)
{
	volatile char sum = 0;

	for (long off = 0; off < NPAGES * page; off += page)
		sum += mem[off];
}

static void op_pageout(void)
{
	advise(mem, NPAGES * page, MADV_PAGEOUT, "MADV_PAGEOUT");
}

static void op_notifier(void)
{
	pid_t pid = fork();

	if (!pid) {
		int d = open("/dev/hmm_dmirror0", O_RDWR);

		if (d < 0) {
			fprintf(stderr, "mmops: /dev/hmm_dmirror0: %s (test_hmm.ko loaded?)\n",
				strerror(errno));
			_exit(1);
		}
		_exit(0);
	}
	reap(pid);
}

static void setup_dontneed(void)
{
	mem = map_anon(256 * page);
}

static void op_dontneed(void)
{
	for (long off = 0; off < 256 * page; off += page)
		mem[off] = 1;
	advise(mem, 256 * page, MADV_DONTNEED, "MADV_DONTNEED");
}

static const struct mode {
	const char *name;
	void (*setup)(void);	/* once */
	void (*prep)(void);	/* before each operation, not timed */
	void (*op)(void);
} modes[] = {
	{ "fork", setup_mem, NULL, op_fork },
	{ "fault", NULL, NULL, op_fault },
	{ "file", setup_file, NULL, op_file },
	{ "migrate", setup_mem, NULL, op_migrate },
	{ "page", NULL, NULL, op_page },
	{ "forkvmas", setup_forkvmas, NULL, op_forkvmas },
	{ "split", setup_split, NULL, op_split },
	{ "mremap", setup_mremap, NULL, op_mremap },
	{ "filepage", setup_filepage, NULL, op_filepage },
	{ "collapse", NULL, NULL, op_collapse },
	{ "pageout", setup_pageout, prep_pageout, op_pageout },
	{ "notifier", NULL, NULL, op_notifier },
	{ "dontneed", setup_dontneed, NULL, op_dontneed },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'n' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const struct mode *m = NULL;
	double sum = 0, *each;
	long ops = 100;
	int c;

	page = sysconf(_SC_PAGESIZE);
	while ((c = getopt_long(argc, argv, "n:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			ops = number("mmops", "--ops", optarg, 1, 10000000);
			break;
		case 'd':
			dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[optind], modes[i].name))
			m = &modes[i];
	if (!m) {
		fprintf(stderr, "mmops: no mode '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (m->setup)
		m->setup();
	each = malloc(ops * sizeof(*each));
	if (!each)
		die("mmops: out of memory\n");
	for (long i = 0; i < ops; i++) {
		double o;

		if (m->prep)
			m->prep();
		o = now_ms();
		m->op();
		each[i] = (now_ms() - o) * 1e6;
		sum += each[i];
	}
	qsort(each, ops, sizeof(*each), cmp_double);
	printf("mmops: %s %ld ops, %.1f ns per op, median %.1f, min %.1f\n",
	       m->name, ops, sum / ops,
	       ops % 2 ? each[ops / 2] : (each[ops / 2 - 1] + each[ops / 2]) / 2,
	       each[0]);
	return 0;
}
