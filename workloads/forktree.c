// SPDX-License-Identifier: GPL-2.0
/*
 * forktree: a fork tree of known shape over private anonymous memory.
 *
 * The root maps a private anonymous region and writes every page; each process
 * forks WIDTH children down to DEPTH generations, and every child writes every
 * page again (copy-on-write). That builds an anon_vma tree one level per
 * generation, all under the root's anon_vma. The shape is exact: the tree has
 * sum(WIDTH^i, i = 0..DEPTH) processes and one fork fewer than that.
 *
 * --ksm marks the region MADV_MERGEABLE and makes every process write the
 * same bytes, so that ksmd can merge the pages of the whole tree (each
 * merged page then pins its anon_vma from ksmd's rmap_item).
 *
 * --chain N instead forks a chain of N processes in which each one exits as
 * soon as its child has written: the anon_vma of a dead middle generation
 * has no vma and one child, so anon_vma_clone() reuses it for the next fork
 * rather than growing the tree by one more level.
 */
#include <getopt.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static const char summary[] =
	"forktree: fork a DEPTH x WIDTH process tree that writes private anonymous memory\n";

static void usage(FILE *f)
{
	fprintf(f, "%s"
		"usage: forktree [--depth D] [--width W] [--mib M] [--hold-ms T] [--chain N]\n"
		"  --depth D    generations below the root (default 3)\n"
		"  --width W    children per process (default 2)\n"
		"  --mib M      private anonymous MiB mapped by the root (default 1)\n"
		"  --hold-ms T  each process sleeps T ms after writing (default 0)\n"
		"  --chain N    a chain of N generations, each exiting once its child wrote\n"
		"  --ksm        madvise(MADV_MERGEABLE) the region; all processes write the same bytes\n"
		"Prints the number of processes and forks on success.\n", summary);
}

static long page;
static int same_bytes;

static void touch(char *mem, size_t len, int gen)
{
	for (size_t off = 0; off < len; off += page)
		mem[off] = same_bytes ? 0x5a : (char)gen;
}

/* Returns 0 when this process and its whole subtree succeeded. */
static int grow(char *mem, size_t len, int gen, int depth, int width, long hold)
{
	int bad = 0;

	touch(mem, len, gen);
	sleep_ms(hold);
	if (gen == depth)
		return 0;
	for (int i = 0; i < width; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("forktree: fork");
			bad = 1;
			break;
		}
		if (pid == 0)
			_exit(grow(mem, len, gen + 1, depth, width, hold));
	}
	for (;;) {
		int st;

		if (wait(&st) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	return bad;
}

/* Each generation forks the next, waits until it has written, and exits. */
static int chain(char *mem, size_t len, long n)
{
	int st, bad = 0;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		perror("forktree: PR_SET_CHILD_SUBREAPER");
	touch(mem, len, 0);
	for (long gen = 1; gen <= n; gen++) {
		int wrote[2];
		pid_t pid;
		char b;

		if (pipe(wrote))
			die("forktree: pipe: %s\n", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("forktree: fork: %s\n", strerror(errno));
		if (pid > 0) {
			/*
			 * parent: once the child wrote, this generation is
			 * done; a child that dies first leaves EOF
			 */
			close(wrote[1]);
			if (read(wrote[0], &b, 1) != 1)
				_exit(1);
			if (gen > 1)
				_exit(0);
			close(wrote[0]);
			break;		/* the root waits for the whole chain */
		}
		touch(mem, len, (int)gen);
		if (write(wrote[1], "w", 1) != 1)
			_exit(1);
		close(wrote[0]);
		close(wrote[1]);
		if (gen == n)
			_exit(0);
	}
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	if (!bad)
		printf("forktree: chain of %ld generations\n", n);
	return bad;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "width", required_argument, NULL, 'w' },
		{ "mib", required_argument, NULL, 'm' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "chain", required_argument, NULL, 'c' },
		{ "ksm", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long depth = 3, width = 2, mib = 1, hold = 0, procs = 1, gen = 1, nchain = 0;
	size_t len;
	char *mem;
	int c;

	while ((c = getopt_long(argc, argv, "d:w:m:t:c:kh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			depth = number("forktree", "--depth", optarg, 0, 16);
			break;
		case 'w':
			width = number("forktree", "--width", optarg, 1, 64);
			break;
		case 'm':
			mib = number("forktree", "--mib", optarg, 1, 65536);
			break;
		case 't':
			hold = number("forktree", "--hold-ms", optarg, 0, 3600000);
			break;
		case 'k':
			same_bytes = 1;
			break;
		case 'c':
			nchain = number("forktree", "--chain", optarg, 1, 4096);
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
	for (int i = 0; i < depth; i++) {
		gen *= width;
		procs += gen;
	}
	if (procs > 4096) {
		fprintf(stderr, "forktree: %ld processes is too many (limit 4096)\n", procs);
		return 2;
	}
	page = sysconf(_SC_PAGESIZE);
	len = (size_t)mib << 20;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("forktree: mmap");
		return 1;
	}
	if (same_bytes && madvise(mem, len, MADV_MERGEABLE)) {
		perror("forktree: madvise(MADV_MERGEABLE)");
		return 1;
	}
	if (nchain)
		return chain(mem, len, nchain);
	if (grow(mem, len, 0, (int)depth, (int)width, hold))
		return 1;
	printf("forktree: %ld processes, %ld forks, %ld MiB each\n", procs, procs - 1, mib);
	return 0;
}
