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

static long page;

static void usage(FILE *f)
{
	fprintf(f,
		"mmops: time one mm path N times\n"
		"usage: mmops [--ops N] fork|fault|file|migrate\n"
		"  --ops N  operations (default 100)\n"
		"Prints the mean, median and minimum ns per operation.\n");
}

static void op_fork(char *mem)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("mmops: fork: %s\n", strerror(errno));
	if (!pid) {
		mem[0] = 2;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("mmops: the child failed\n");
}

static void op_fault(void)
{
	size_t len = 32UL << 20;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("mmops: mmap: %s\n", strerror(errno));
	for (size_t off = 0; off < len; off += page)
		m[off] = 1;
	if (munmap(m, len))
		die("mmops: munmap: %s\n", strerror(errno));
}

static void op_file(int fd)
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
	if (munmap(m, len))
		die("mmops: munmap: %s\n", strerror(errno));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void op_migrate(void **pages, int n)
{
	int nodes[128], status[128];

	for (int to = 1; to >= 0; to--) {
		for (int i = 0; i < n; i++)
			nodes[i] = to;
		if (syscall(SYS_move_pages, 0, n, pages, nodes, status,
			    MPOL_MF_MOVE))
			die("mmops: move_pages to node %d: %s\n", to, strerror(errno));
		for (int i = 0; i < n; i++)
			if (status[i] != to)
				die("mmops: page %d is on node %d, not %d\n", i,
				    status[i], to);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long ops = 100;
	void *pages[128];
	enum { FORK, FAULT, FILEMAP, MIGRATE } kind;
	const char *mode;
	char *mem = NULL;
	int c, fd = -1;
	double t0, t1, *each;

	page = sysconf(_SC_PAGESIZE);
	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			ops = number("mmops", "--ops", optarg, 1, 10000000);
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
	mode = argv[optind];
	if (!strcmp(mode, "fork") || !strcmp(mode, "migrate")) {
		kind = *mode == 'f' ? FORK : MIGRATE;
		mem = mmap(NULL, 1UL << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			die("mmops: mmap: %s\n", strerror(errno));
		memset(mem, 1, 1UL << 20);
		for (int i = 0; i < 128; i++)
			pages[i] = mem + i * page;
	} else if (!strcmp(mode, "file")) {
		char path[] = "/tmp/mmops-XXXXXX";

		kind = FILEMAP;
		fd = mkstemp(path);
		if (fd < 0)
			die("mmops: mkstemp: %s\n", strerror(errno));
		unlink(path);
	} else if (!strcmp(mode, "fault")) {
		kind = FAULT;
	} else {
		usage(stderr);
		return 2;
	}
	each = malloc(ops * sizeof(*each));
	if (!each)
		die("mmops: out of memory\n");
	t0 = now_ms();
	for (long i = 0; i < ops; i++) {
		double o = now_ms();

		if (kind == FORK)
			op_fork(mem);
		else if (kind == FAULT)
			op_fault();
		else if (kind == FILEMAP)
			op_file(fd);
		else
			op_migrate(pages, 128);
		each[i] = (now_ms() - o) * 1e6;
	}
	t1 = now_ms();
	qsort(each, ops, sizeof(*each), cmp_double);
	printf("mmops: %s %ld ops, %.1f ns per op, median %.1f, min %.1f\n",
	       mode, ops, (t1 - t0) * 1e6 / ops,
	       ops % 2 ? each[ops / 2] : (each[ops / 2 - 1] + each[ops / 2]) / 2,
	       each[0]);
	return 0;
}
