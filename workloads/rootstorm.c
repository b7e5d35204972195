// SPDX-License-Identifier: GPL-2.0
/*
 * rootstorm: PROCS processes, one per CPU, hammer the lock of one root
 * anon_vma at once.
 *
 * The parent maps a private anonymous region and writes it, so that it has
 * an anon_vma, then forks PROCS children: each child's anon_vma hangs under
 * the parent's root. Every child, pinned to its own CPU, then splits its
 * copy of the region with mprotect() on one page in the middle and merges it
 * back, OPS times: each split (anon_vma_clone()) and each merge
 * (__vma_adjust()) takes the shared root's lock in write mode, so the
 * children contend on one rwsem, and a tracer's shared state (if it has any)
 * on that root is written from every CPU. The children start together and
 * the figure is the wall time of the slowest, per operation (one
 * split-and-merge pair).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* bounds the run's wait for its children (10 million pairs under TCG: less) */
#define REPORT_MS (30 * 60 * 1000L)

static void usage(FILE *f)
{
	fprintf(f,
		"rootstorm: PROCS processes, one per CPU, split and merge a VMA under one root anon_vma\n"
		"usage: rootstorm [--procs P] [--ops N]\n"
		"  --procs P  children, each pinned to CPU i mod the CPUs online (default 2)\n"
		"  --ops N    split-and-merge pairs per child (default 2000)\n"
		"Prints the slowest child's wall time per pair, in us.\n");
}

static void child(char *mem, long page, long ops, int cpu, int go_fd,
		  int done_fd)
{
	cpu_set_t set;
	double t0, t1;
	char c;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("rootstorm: sched_setaffinity(CPU %d): %s\n", cpu, strerror(errno));
	if (read(go_fd, &c, 1) != 1)
		die("rootstorm: the start signal never came\n");
	t0 = now_ms();
	for (long i = 0; i < ops; i++) {
		if (mprotect(mem + 4 * page, page, PROT_READ) ||
		    mprotect(mem + 4 * page, page, PROT_READ | PROT_WRITE))
			die("rootstorm: mprotect: %s\n", strerror(errno));
	}
	t1 = now_ms();
	{
		double t[2] = { t1, t0 };

		/* one write of at most PIPE_BUF bytes: never split */
		if (write(done_fd, t, sizeof(t)) != sizeof(t))
			die("rootstorm: reporting to the parent failed\n");
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "procs", required_argument, NULL, 'p' },
		{ "ops", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long procs = 2, ops = 2000, page = sysconf(_SC_PAGESIZE);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int go[2], done[2], c, status;
	double first = 0, last = 0;
	char *mem;

	while ((c = getopt_long(argc, argv, "p:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			procs = number("rootstorm", "--procs", optarg, 1, 64);
			break;
		case 'n':
			ops = number("rootstorm", "--ops", optarg, 1, 10000000);
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
	mem = mmap(NULL, 8 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("rootstorm: mmap: %s\n", strerror(errno));
	memset(mem, 1, 8 * page);	/* the root anon_vma */
	if (pipe(go) || pipe(done))
		die("rootstorm: pipe: %s\n", strerror(errno));
	for (long i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("rootstorm: fork: %s\n", strerror(errno));
		if (!pid) {
			/* a parent that dies leaves go's read end at EOF */
			close(go[1]);
			close(done[0]);
			/* the child's own anon_vma, under the parent's root */
			memset(mem, 2, 8 * page);
			child(mem, page, ops, (int)(i % cpus), go[0], done[1]);
		}
	}
	close(go[0]);
	close(done[1]);
	/* children all gone: the write fails and says so, rather than SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	for (long i = 0; i < procs; i++)
		if (write(go[1], "g", 1) != 1)
			die("rootstorm: starting the children failed: %s\n",
			    strerror(errno));
	for (long i = 0; i < procs; i++) {
		double t[2];

		/* each report is one write of sizeof(t) <= PIPE_BUF bytes */
		read_children("rootstorm", done[0], t, sizeof(t), REPORT_MS);
		if (!i || t[1] < first)
			first = t[1];
		if (t[0] > last)
			last = t[0];
	}
	for (long i = 0; i < procs; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("rootstorm: a child failed\n");
	printf("rootstorm: %ld procs x %ld split+merge pairs, %.3f us per pair\n",
	       procs, ops, (last - first) * 1e3 / ops);
	return 0;
}
