// SPDX-License-Identifier: GPL-2.0
/*
 * migrate: move_pages(2) private anonymous pages between NUMA nodes.
 *
 * Migrating an anonymous folio pins its anon_vma with folio_get_anon_vma()
 * (an inc-not-zero) and walks the rmap under the anon_vma lock. --race
 * migrates the copy-on-write pages of a child while it exits (move_pages
 * pins the child's mm, so its teardown waits for the call). --compact-race
 * has children exit while this process runs memory compaction, which
 * migrates pages found by physical address without pinning any mm: its
 * inc-not-zero can meet an anon_vma whose refcount already dropped to
 * zero. How often is up to timing, counted by the anon_vma_get_failed
 * event, not here.
 */
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define MPOL_MF_MOVE (1 << 1)

static long move_pages(pid_t pid, unsigned long n, void **pages,
		       const int *nodes, int *status)
{
	return syscall(SYS_move_pages, pid, n, pages, nodes, status, MPOL_MF_MOVE);
}

static void usage(FILE *f)
{
	fprintf(f,
		"migrate: move private anonymous pages between NUMA nodes with move_pages(2)\n"
		"usage: migrate [--pages N] [--rounds R] [--race K] [--compact-race K]\n"
		"  --pages N   pages to map and move (default 256)\n"
		"  --rounds R  moves node 0 -> 1 -> 0 ... (default 2)\n"
		"  --race K    instead: K times, migrate a child's COW pages while it exits\n"
		"  --compact-race K  instead: K times, compact memory while a child exits\n"

		"Needs two NUMA nodes. Prints pages moved per round.\n");
}

static char *populate(long n, long page)
{
	char *m = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		die("migrate: mmap: %s\n", strerror(errno));
	for (long i = 0; i < n; i++)
		m[i * page] = 1;
	return m;
}

static int rounds_mode(long n, long rounds, long page)
{
	char *m = populate(n, page);
	void **pages = calloc(n, sizeof(*pages));
	int *nodes = calloc(n, sizeof(*nodes)), *status = calloc(n, sizeof(*status));

	if (!pages || !nodes || !status)
		die("migrate: out of memory\n");
	for (long r = 0; r < rounds; r++) {
		long moved = 0;

		for (long i = 0; i < n; i++) {
			pages[i] = m + i * page;
			nodes[i] = (int)((r + 1) % 2);
		}
		if (move_pages(0, n, pages, nodes, status) < 0)
			die("migrate: move_pages: %s\n", strerror(errno));
		for (long i = 0; i < n; i++)
			moved += status[i] == nodes[i];
		printf("migrate: round %ld: %ld of %ld pages now on node %d\n",
		       r + 1, moved, n, nodes[0]);
		if (moved != n)
			return 1;
	}
	return 0;
}

static int race_mode(long n, long races, long page)
{
	void **pages = calloc(n, sizeof(*pages));
	int *nodes = calloc(n, sizeof(*nodes)), *status = calloc(n, sizeof(*status));
	long calls = 0;

	if (!pages || !nodes || !status)
		die("migrate: out of memory\n");
	for (long k = 0; k < races; k++) {
		char *m = populate(n, page);
		int ready[2], st;
		pid_t pid;
		char b;

		if (pipe(ready))
			die("migrate: pipe: %s\n", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("migrate: fork: %s\n", strerror(errno));
		if (pid == 0) {
			for (long i = 0; i < n; i++)
				m[i * page] = 2;	/* the child's own copies */
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
			_exit(0);
		}
		/* a child that dies first leaves the pipe at EOF: no hang */
		close(ready[1]);
		if (read(ready[0], &b, 1) != 1)
			die("migrate: child failed\n");
		for (long i = 0; i < n; i++) {
			pages[i] = m + i * page;
			nodes[i] = (int)(k % 2);
		}
		/* until the child's mm is gone */
		while (move_pages(pid, n, pages, nodes, status) >= 0) {
			calls++;
			for (long i = 0; i < n; i++)
				nodes[i] ^= 1;
		}
		/* ESRCH: reaped; EINVAL: a zombie, its mm already gone */
		if (errno != ESRCH && errno != EINVAL)
			die("migrate: move_pages: %s\n", strerror(errno));
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			die("migrate: child failed\n");
		munmap(m, n * page);
		close(ready[0]);
	}
	printf("migrate: %ld races, %ld move_pages calls on exiting children\n",
	       races, calls);
	return 0;
}

/* K children each populate N pages and exit while we compact memory. */
static int compact_race_mode(long n, long races, long page)
{
	for (long k = 0; k < races; k++) {
		int ready[2], st, fd;
		pid_t pid;
		char b;

		if (pipe(ready))
			die("migrate: pipe: %s\n", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("migrate: fork: %s\n", strerror(errno));
		if (pid == 0) {
			populate(n, page);
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
			_exit(0);
		}
		close(ready[1]);
		if (read(ready[0], &b, 1) != 1)
			die("migrate: child failed\n");
		fd = open("/proc/sys/vm/compact_memory", O_WRONLY);
		if (fd < 0 || write(fd, "1", 1) != 1)
			die("migrate: compact_memory: %s\n", strerror(errno));
		close(fd);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			die("migrate: child failed\n");
		close(ready[0]);
	}
	printf("migrate: %ld compactions while a child exited\n", races);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pages", required_argument, NULL, 'n' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "race", required_argument, NULL, 'R' },
		{ "compact-race", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long n = 256, rounds = 2, races = 0, craces = 0, page = sysconf(_SC_PAGESIZE);
	int c;

	while ((c = getopt_long(argc, argv, "n:r:R:C:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = number("migrate", "--pages", optarg, 1, 1 << 20);
			break;
		case 'r':
			rounds = number("migrate", "--rounds", optarg, 1, 100000);
			break;
		case 'R':
			races = number("migrate", "--race", optarg, 1, 1000000);
			break;
		case 'C':
			craces = number("migrate", "--compact-race", optarg, 1, 1000000);
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
	if (craces)
		return compact_race_mode(n, craces, page);
	return races ? race_mode(n, races, page) : rounds_mode(n, rounds, page);
}
