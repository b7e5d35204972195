// SPDX-License-Identifier: GPL-2.0
/*
 * filemap: several processes map one file MAP_SHARED, then it is truncated
 * under them.
 *
 * Each mmap and munmap of the file takes its i_mmap lock for write; the
 * truncate walks the mappings of the file (unmap_mapping_range()) with it
 * held for read while the children still map it. Repeat for contention.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* the children's mappings are ready within this, even under TCG */
#define READY_MS 120000

/* without --file, this run's own file, removed when the run exits */
static char tmp[] = "/tmp/mmpreempt-filemap.XXXXXX";

static void remove_tmp(void)
{
	unlink(tmp);
}

static void usage(FILE *f)
{
	fprintf(f,
		"filemap: many processes map one file shared, then it is truncated under them\n"
		"usage: filemap [--file PATH] [--procs P] [--pages N] [--rounds R] [--hold-ms T]\n"
		"  --file PATH  the file (created, kept; default: a file of this run's\n"
		"               own, /tmp/mmpreempt-filemap.XXXXXX, removed at the end)\n"
		"  --procs P    processes mapping it (default 4)\n"
		"  --pages N    file size in pages (default 256)\n"
		"  --rounds R   map+truncate rounds (default 1)\n"
		"  --hold-ms T  children keep the mapping T ms after the truncate (default 10)\n"
		"Prints the file's inode number and device.\n");
}

static void round_once(const char *path, int procs, long pages, long hold)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)pages * page;
	int ready[2], go[2], fd, st, bad = 0;
	char b, *r;

	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		die("filemap: %s: %s\n", path, strerror(errno));
	if (ftruncate(fd, len))
		die("filemap: ftruncate: %s\n", strerror(errno));
	if (pipe(ready) || pipe(go))
		die("filemap: pipe: %s\n", strerror(errno));
	for (int i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("filemap: fork: %s\n", strerror(errno));
		if (pid == 0) {
			char *m;

			/* a parent that dies leaves go's read end at EOF */
			close(ready[0]);
			close(go[1]);
			m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 fd, 0);
			if (m == MAP_FAILED)
				_exit(1);
			for (size_t off = 0; off < len; off += page)
				m[off] = (char)i;
			if (write(ready[1], "r", 1) != 1 || read(go[0], &b, 1) != 1)
				_exit(1);
			sleep_ms(hold);
			_exit(munmap(m, len) ? 1 : 0);
		}
	}
	close(ready[1]);
	close(go[0]);
	r = malloc(procs);
	if (!r)
		die("filemap: out of memory\n");
	read_children("filemap", ready[0], r, procs, READY_MS);
	free(r);
	/* every child maps every page now: truncate under them */
	if (ftruncate(fd, 0))
		die("filemap: truncate: %s\n", strerror(errno));
	for (int i = 0; i < procs; i++)
		if (write(go[1], "g", 1) != 1)
			die("filemap: pipe write: %s\n", strerror(errno));
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	if (bad)
		die("filemap: a child failed\n");
	close(ready[0]);
	close(go[1]);
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "procs", required_argument, NULL, 'p' },
		{ "pages", required_argument, NULL, 'n' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *path = NULL;
	long procs = 4, pages = 256, rounds = 1, hold = 10;
	struct stat sb;
	int c;

	while ((c = getopt_long(argc, argv, "f:p:n:r:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			path = optarg;
			break;
		case 'p':
			procs = number("filemap", "--procs", optarg, 1, 1024);
			break;
		case 'n':
			pages = number("filemap", "--pages", optarg, 1, 1 << 20);
			break;
		case 'r':
			rounds = number("filemap", "--rounds", optarg, 1, 100000);
			break;
		case 't':
			hold = number("filemap", "--hold-ms", optarg, 0, 3600000);
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
	/*
	 * Two runs at once must not truncate one file under each other's
	 * children: without --file each run has a file of its own.
	 */
	if (!path) {
		int fd = mkstemp(tmp);

		if (fd < 0)
			die("filemap: mkstemp %s: %s\n", tmp, strerror(errno));
		close(fd);
		path = tmp;
		/* a run that dies (exit() in die()) leaves no file behind */
		atexit(remove_tmp);
	}
	for (long r = 0; r < rounds; r++)
		round_once(path, (int)procs, pages, hold);
	if (stat(path, &sb))
		die("filemap: stat %s: %s\n", path, strerror(errno));
	printf("filemap: %ld rounds, %ld processes, %ld pages, ino=%lu dev=%u:%u\n",
	       rounds, procs, pages, (unsigned long)sb.st_ino,
	       major(sb.st_dev), minor(sb.st_dev));
	return 0;
}
