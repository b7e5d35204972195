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
 * ksmmerge 64 identical pages of a fresh region, MADV_MERGEABLE, merged by
 *          ksmd: the figure is ksmd's own run time (se.sum_exec_runtime in
 *          /proc/PID/sched: its instructions, under icount) over the scans
 *          until all are merged (one: the region's first scan, untimed,
 *          took checksums), each woken alone (sleep_millisecs written: no
 *          timer in between): stable and unstable tree, rmap items taking
 *          anon_vma references
 * ksmunmerge those pages merged (untimed), then MADV_UNMERGEABLE (timed in
 *          the caller: break_ksm's copy faults) plus ksmd's next scan (its
 *          run time), which drops the rmap items and with them their
 *          anon_vma references
 * swapout  MADV_PAGEOUT of 64 written anonymous pages (reclaim: the rmap
 *          walk under the anon_vma read lock, to swap); needs swap on,
 *          which bench/off-cost-guest.sh puts on a zram device (no disk
 *          I/O to land anywhere in a round); the refill (swap-in write
 *          faults) is not timed
 *
 * Prints "mmops: MODE N ops, X ns per op, median M, min L" (the clock is
 * CLOCK_MONOTONIC): the mean, and the median and minimum of the operations
 * timed one by one. Under icount the mean carries whatever else the guest did
 * meanwhile (a timer tick, a work item, a pcp refill), in some rounds and not
 * others; the median of single operations leaves those out. Every path
 * that can silently do nothing checks that it did its work (pages merged,
 * swapped out) and fails the run if not.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "ksm_ctl.h"

#define MPOL_MF_MOVE (1 << 1)
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define NVMAS 64	/* forkvmas: twice as many VMAs */
#define NPAGES 64	/* pageout, ksm*, swapout */

static long page;
static char *mem;	/* fork, migrate, forkvmas, split, mremap, ...: set up once */
static char *mem2;	/* mremap: where it goes and comes back from */
static int fd = -1;
static void *pages[128];
static const char *dir = "/var/tmp";
static double measured;	/* an op's own figure in ns, when not the caller's clock */

static void usage(FILE *f)
{
	fprintf(f,
		"mmops: time one mm path N times\n"
		"usage: mmops [--ops N] [--dir D] MODE\n"
		"  MODE     fork fault file migrate page forkvmas split mremap\n"
		"           filepage collapse pageout notifier dontneed ksmmerge\n"
		"           ksmunmerge swapout\n"
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

/* ksmd: found once; its settings saved, and put back at exit */
static char ksmd[256];
static long ksm_saved_run, ksm_saved_scan, ksm_saved_sleep;
static long ksm_sleep = 100000;	/* ms: ksmd runs only when woken */

static void ksm_restore(void)
{
	ksm_write("run", 2);	/* unmerge anything this run left merged */
	ksm_write("pages_to_scan", ksm_saved_scan);
	ksm_write("sleep_millisecs", ksm_saved_sleep);
	ksm_write("run", ksm_saved_run == 2 ? 0 : ksm_saved_run);
}

/* ksmd's run time so far in ns: "se.sum_exec_runtime : MS.NNNNNN" */
static double ksmd_runtime(void)
{
	char path[300], line[256];
	long long ms, ns;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/sched", ksmd);
	f = fopen(path, "r");
	if (!f)
		die("mmops: %s: %s (CONFIG_SCHED_DEBUG?)\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "se.sum_exec_runtime : %lld.%lld", &ms, &ns) == 2) {
			fclose(f);
			return ms * 1e6 + ns;
		}
	die("mmops: no se.sum_exec_runtime in %s\n", path);
}

/* ksmd's state letter (R, S, D, ...) from /proc/PID/stat */
static char ksmd_state(void)
{
	char path[300], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", ksmd);
	f = fopen(path, "r");
	if (!f)
		die("mmops: %s: %s\n", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		die("mmops: cannot parse %s\n", path);
	return p[2];
}

/*
 * Until ksmd sleeps in its wait between scans and, if @scans >= 0,
 * full_scans has passed @scans. It sleeps in other places (D: the LRU drain
 * at a scan's start; the mutex), and its full_scans grows before it goes
 * back to sleep: both together mean its scan is over.
 */
static void ksmd_wait(long scans)
{
	for (int i = 0; i < 20000; i++) {
		if (ksmd_state() == 'S' && (scans < 0 || ksm_read("full_scans") > scans))
			return;
		sleep_ms(1);
	}
	die("mmops: ksmd did not finish a scan in 20000 waits (another process using KSM?)\n");
}

/*
 * One full scan, alone: a new sleep_millisecs wakes ksmd from its wait
 * (ksm_scan_thread), and pages_to_scan above every mergeable page makes
 * ksm_do_scan() stop at the scan's end. Returns ksmd's run time for it.
 */
static double ksm_scan(void)
{
	long scans = ksm_read("full_scans");
	double t0 = ksmd_runtime();

	ksm_sleep ^= 1;
	ksm_write("sleep_millisecs", ksm_sleep);
	ksmd_wait(scans);
	return ksmd_runtime() - t0;
}

static void setup_ksm(void)
{
	struct dirent *e;
	DIR *d = opendir("/proc");

	if (access(KSM "run", F_OK))
		die("mmops: no %srun: this kernel has no KSM\n", KSM);
	while (d && (e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, "ksmd\n"))
			snprintf(ksmd, sizeof(ksmd), "%s", e->d_name);
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	if (!ksmd[0])
		die("mmops: no ksmd thread\n");
	ksm_saved_run = ksm_read("run");
	ksm_saved_scan = ksm_read("pages_to_scan");
	ksm_saved_sleep = ksm_read("sleep_millisecs");
	atexit(ksm_restore);
	ksm_write("pages_to_scan", 4 * NPAGES);
	ksm_write("sleep_millisecs", ksm_sleep);
	ksm_write("run", 1);
	ksmd_wait(-1);
}

/*
 * untimed: a fresh region of identical pages, offered to ksmd, and its first
 * scan, which only takes their checksums (a page merges once its checksum
 * held over two scans). The scan comes by itself: ksmd dropped this mm when
 * its last scan found no mergeable VMA left, and an mm's first
 * MADV_MERGEABLE wakes ksmd when no other mm is listed.
 */
static void prep_ksmmerge(void)
{
	long scans = ksm_read("full_scans");

	mem = map_anon(NPAGES * page);
	memset(mem, 0x5a, NPAGES * page);
	advise(mem, NPAGES * page, MADV_MERGEABLE, "MADV_MERGEABLE");
	ksmd_wait(scans);
}

static void op_ksmmerge(void)
{
	int n;

	measured = 0;
	for (n = 0; n < 4 && ksm_read("pages_sharing") < NPAGES - 1; n++)
		measured += ksm_scan();
	if (ksm_read("pages_sharing") != NPAGES - 1 || ksm_read("pages_shared") != 1)
		die("mmops: ksm: %ld pages sharing and %ld shared after %d scans, not %d and 1\n",
		    ksm_read("pages_sharing"), ksm_read("pages_shared"), n, NPAGES - 1);
}

/* untimed: unmerged, the rmap items gone (ksmd's next scan), unmapped */
static void post_ksmmerge(void)
{
	advise(mem, NPAGES * page, MADV_UNMERGEABLE, "MADV_UNMERGEABLE");
	ksm_scan();
	unmap(mem, NPAGES * page);
	if (ksm_read("pages_sharing") || ksm_read("pages_shared"))
		die("mmops: ksm: %ld pages sharing and %ld shared after the unmerge\n",
		    ksm_read("pages_sharing"), ksm_read("pages_shared"));
}

static void prep_ksmunmerge(void)
{
	prep_ksmmerge();
	op_ksmmerge();
}

static void op_ksmunmerge(void)
{
	double t0 = now_ms();

	advise(mem, NPAGES * page, MADV_UNMERGEABLE, "MADV_UNMERGEABLE");
	measured = (now_ms() - t0) * 1e6;
	measured += ksm_scan();
	if (ksm_read("pages_sharing") || ksm_read("pages_shared"))
		die("mmops: ksm: %ld pages sharing and %ld shared after the unmerge\n",
		    ksm_read("pages_sharing"), ksm_read("pages_shared"));
}

static void post_ksmunmerge(void)
{
	unmap(mem, NPAGES * page);
}

static void setup_swapout(void)
{
	char line[256];
	FILE *f = fopen("/proc/swaps", "r");
	int on = 0;

	while (f && fgets(line, sizeof(line), f))
		on |= line[0] == '/';
	if (f)
		fclose(f);
	if (!on)
		die("mmops: swapout needs swap on (/proc/swaps lists none)\n");
	mem = map_anon(NPAGES * page);
}

/* untimed: written, so in memory again (a swap-in write fault each) */
static void prep_swapout(void)
{
	for (long off = 0; off < NPAGES * page; off += page)
		mem[off] = 1;
}

static void op_swapout(void)
{
	advise(mem, NPAGES * page, MADV_PAGEOUT, "MADV_PAGEOUT");
}

/* untimed: each page out of memory, or the path did not run */
static void post_swapout(void)
{
	unsigned char vec[NPAGES];
	int in = 0;

	if (mincore(mem, NPAGES * page, vec))
		die("mmops: mincore: %s\n", strerror(errno));
	for (int i = 0; i < NPAGES; i++)
		in += vec[i] & 1;
	if (in)
		die("mmops: swapout: %d of %d pages still in memory after MADV_PAGEOUT\n",
		    in, NPAGES);
}

static const struct mode {
	const char *name;
	void (*setup)(void);	/* once */
	void (*prep)(void);	/* before each operation, not timed */
	void (*op)(void);
	void (*post)(void);	/* after each operation, not timed */
} modes[] = {
	{ "fork", setup_mem, NULL, op_fork, NULL },
	{ "fault", NULL, NULL, op_fault, NULL },
	{ "file", setup_file, NULL, op_file, NULL },
	{ "migrate", setup_mem, NULL, op_migrate, NULL },
	{ "page", NULL, NULL, op_page, NULL },
	{ "forkvmas", setup_forkvmas, NULL, op_forkvmas, NULL },
	{ "split", setup_split, NULL, op_split, NULL },
	{ "mremap", setup_mremap, NULL, op_mremap, NULL },
	{ "filepage", setup_filepage, NULL, op_filepage, NULL },
	{ "collapse", NULL, NULL, op_collapse, NULL },
	{ "pageout", setup_pageout, prep_pageout, op_pageout, NULL },
	{ "notifier", NULL, NULL, op_notifier, NULL },
	{ "dontneed", setup_dontneed, NULL, op_dontneed, NULL },
	{ "ksmmerge", setup_ksm, prep_ksmmerge, op_ksmmerge, post_ksmmerge },
	{ "ksmunmerge", setup_ksm, prep_ksmunmerge, op_ksmunmerge, post_ksmunmerge },
	{ "swapout", setup_swapout, prep_swapout, op_swapout, post_swapout },
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
		measured = -1;
		o = now_ms();
		m->op();
		each[i] = measured >= 0 ? measured : (now_ms() - o) * 1e6;
		sum += each[i];
		if (m->post)
			m->post();
	}
	qsort(each, ops, sizeof(*each), cmp_double);
	printf("mmops: %s %ld ops, %.1f ns per op, median %.1f, min %.1f\n",
	       m->name, ops, sum / ops,
	       ops % 2 ? each[ops / 2] : (each[ops / 2 - 1] + each[ops / 2]) / 2,
	       each[0]);
	return 0;
}
