// SPDX-License-Identifier: GPL-2.0
/*
 * ksm: identical private anonymous pages merged by ksmd, then released.
 *
 * A child maps pages of identical content, marks them MADV_MERGEABLE and
 * waits until ksmd has merged them: each merged page's rmap_item holds a
 * reference on its anon_vma (get_anon_vma()). The child exits; the parent
 * then unmerges everything (ksm run=2), which drops those references, and
 * restores ksmd's settings. Needs root and CONFIG_KSM. ksmd's settings are
 * the kernel's, one set for every run: runs at once take turns.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ksm_ctl.h"

/*
 * Waits for this run's turn, at most @ms: an unmerge of all (run=2) by one
 * run would undo another's merges, and each restores settings the other
 * changed. The lock is held until exit.
 */
static void ksm_turn(long ms)
{
	const char *path = "/tmp/mmpreempt-ksm.lock";
	int fd = open(path, O_RDWR | O_CREAT, 0600);
	double t0 = now_ms();

	if (fd < 0)
		die("ksm: %s: %s\n", path, strerror(errno));
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			die("ksm: flock %s: %s\n", path, strerror(errno));
		if (now_ms() - t0 > ms)
			die("ksm: another run held %s for %ld ms\n", path, ms);
		sleep_ms(20);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"ksm: merge identical anonymous pages with ksmd, exit, unmerge\n"
		"usage: ksm [--pages N] [--timeout-ms T]\n"
		"  --pages N       identical pages (default 128)\n"
		"  --timeout-ms T  give up waiting for ksmd after T ms (default 20000)\n"
		"Prints pages merged. Needs root.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pages", required_argument, NULL, 'n' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long n = 128, timeout = 20000, page = sysconf(_SC_PAGESIZE);
	long run, scan, sleep_ms_old, sharing = 0;
	int c, st, go[2], done[2];
	pid_t pid;
	char b;

	while ((c = getopt_long(argc, argv, "n:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = number("ksm", "--pages", optarg, 2, 1 << 18);
			break;
		case 't':
			timeout = number("ksm", "--timeout-ms", optarg, 1, 3600000);
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
	ksm_turn(2 * timeout + 60000);	/* another run's whole length */
	run = ksm_read("run");
	scan = ksm_read("pages_to_scan");
	sleep_ms_old = ksm_read("sleep_millisecs");
	if (pipe(go) || pipe(done))
		die("ksm: pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("ksm: fork: %s\n", strerror(errno));
	if (pid == 0) {
		char *m = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			_exit(1);
		/* a parent that dies leaves done's read end at EOF */
		close(go[0]);
		close(done[1]);
		memset(m, 0x5a, n * page);
		if (madvise(m, n * page, MADV_MERGEABLE))
			_exit(1);
		if (write(go[1], "m", 1) != 1 || read(done[0], &b, 1) != 1)
			_exit(1);
		_exit(0);
	}
	/* a child that dies first leaves go's read end at EOF: no hang */
	close(go[1]);
	close(done[0]);
	if (read(go[0], &b, 1) != 1)
		die("ksm: child failed to map\n");
	ksm_write("pages_to_scan", n * 4);
	ksm_write("sleep_millisecs", 0);
	ksm_write("run", 1);
	for (double t0 = now_ms(); now_ms() - t0 < timeout; sleep_ms(20)) {
		sharing = ksm_read("pages_sharing");
		if (sharing >= n - 1)
			break;
	}
	if (write(done[1], "d", 1) != 1 || waitpid(pid, &st, 0) != pid)
		die("ksm: child lost\n");
	ksm_write("run", 2);	/* unmerge all: drops the rmap items' anon_vma refs */
	ksm_write("pages_to_scan", scan);
	ksm_write("sleep_millisecs", sleep_ms_old);
	ksm_write("run", run == 2 ? 0 : run);
	printf("ksm: %ld of %ld pages merged, %ld shared after unmerge\n",
	       sharing, n, ksm_read("pages_shared"));
	return !WIFEXITED(st) || WEXITSTATUS(st) || sharing < n - 1;
}
