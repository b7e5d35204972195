// SPDX-License-Identifier: GPL-2.0
/*
 * forktree: a fork tree of known shape over private anonymous memory.
 *
 * The root maps a private anonymous region and writes every page; each process
 * forks WIDTH children down to DEPTH generations, and every child writes every
 * page again (copy-on-write). That builds an anon_vma tree one level per
 * generation, all under the root's anon_vma. The shape is exact: the tree has
 * sum(WIDTH^i, i = 0..DEPTH) processes and one fork fewer than that.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char summary[] =
	"forktree: fork a DEPTH x WIDTH process tree that writes private anonymous memory\n";

static void usage(FILE *f)
{
	fprintf(f, "%s"
		"usage: forktree [--depth D] [--width W] [--mib M] [--hold-ms T]\n"
		"  --depth D    generations below the root (default 3)\n"
		"  --width W    children per process (default 2)\n"
		"  --mib M      private anonymous MiB mapped by the root (default 1)\n"
		"  --hold-ms T  each process sleeps T ms after writing (default 0)\n"
		"Prints the number of processes and forks on success.\n", summary);
}

static long page;

static void touch(char *mem, size_t len, int gen)
{
	for (size_t off = 0; off < len; off += page)
		mem[off] = (char)gen;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR)
		;
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

static long number(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "forktree: %s wants a number in [%ld, %ld], not '%s'\n",
			opt, min, max, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "width", required_argument, NULL, 'w' },
		{ "mib", required_argument, NULL, 'm' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long depth = 3, width = 2, mib = 1, hold = 0, procs = 1, gen = 1;
	size_t len;
	char *mem;
	int c;

	while ((c = getopt_long(argc, argv, "d:w:m:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': depth = number("--depth", optarg, 0, 16); break;
		case 'w': width = number("--width", optarg, 1, 64); break;
		case 'm': mib = number("--mib", optarg, 1, 65536); break;
		case 't': hold = number("--hold-ms", optarg, 0, 3600000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
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
	if (grow(mem, len, 0, (int)depth, (int)width, hold))
		return 1;
	printf("forktree: %ld processes, %ld forks, %ld MiB each\n", procs, procs - 1, mib);
	return 0;
}
