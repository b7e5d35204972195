// SPDX-License-Identifier: GPL-2.0
/*
 * alllocks: an mm with many anon_vma roots and file mappings, then
 * mm_take_all_locks() on it.
 *
 * Every other page of a reservation is made writable and touched, so each
 * of those vmas gets an anon_vma of its own (a PROT_NONE vma without an
 * anon_vma between them leaves nothing to share); each file is a separate
 * mapping. mm_take_all_locks() is reached only through the first
 * mmu_notifier registration on an mm: opening the test_hmm device
 * (/dev/hmm_dmirror0, lib/test_hmm.c) registers one on the opener's mm;
 * with --module, mmpreempt.ko's take_all_locks file registers one on ours.
 *
 * --forks N instead forks N children one after the other, each exiting at
 * once: each fork gives every root an anon_vma of the child's, attached
 * under it (anon_vma_fork()), and each exit frees them, so the run times
 * the anon_vma lifecycle with as many roots alive as asked (a tracer's
 * per-root state then meets that many). Output: the ns per fork.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define TAKE "/sys/kernel/debug/mmpreempt/take_all_locks"

/* One write of our pid, as the file wants, then its verdict on this call. */
static void take_via_module(long roots, long files)
{
	char buf[256];
	double t0 = now_ms();
	int fd = open(TAKE, O_RDWR);
	ssize_t n;

	if (fd < 0)
		die("alllocks: open %s: %s (is mmpreempt.ko loaded?)\n", TAKE, strerror(errno));
	n = snprintf(buf, sizeof(buf), "%ld", (long)getpid());
	if (write(fd, buf, n) != n)
		die("alllocks: write %s: %s\n", TAKE, strerror(errno));
	close(fd);
	fd = open(TAKE, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		die("alllocks: read %s: %s\n", TAKE, strerror(errno));
	buf[n] = 0;
	close(fd);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ' ' : 0;
	printf("alllocks: %ld anon_vma roots, %ld file mappings, take_all_locks in %.3f ms: %s\n",
	       roots, files, now_ms() - t0, buf);
}

/* N forks in turn, each child exiting at once; the parent waits for each */
static void fork_loop(long roots, long forks)
{
	double t0 = now_ms();
	int status;

	for (long i = 0; i < forks; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("alllocks: fork: %s\n", strerror(errno));
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("alllocks: fork %ld: the child did not exit 0\n", i);
	}
	printf("alllocks: %ld forks of %ld anon_vma roots: %.0f ns per fork\n",
	       forks, roots, (now_ms() - t0) * 1e6 / forks);
}

static void usage(FILE *f)
{
	fprintf(f,
		"alllocks: build >= N anon_vma roots and M file mappings, then trigger mm_take_all_locks\n"
		"usage: alllocks [--roots N] [--files M] [--device PATH | --module] [--hold-ms T]\n"
		"  --roots N      separate anonymous vmas, each its own anon_vma root (default 500)\n"
		"  --files M      separately mapped files in /tmp (default 50)\n"
		"  --device PATH  opening it registers an mmu_notifier (default /dev/hmm_dmirror0)\n"
		"  --module       write our pid to mmpreempt.ko's take_all_locks instead\n"
		"                 (" TAKE "; no test_hmm needed)\n"
		"  --hold-ms T    keep the device open T ms (default 0)\n"
		"  --wait         do not open the device: print \"ready\" and sleep until killed\n"
		"  --forks N      do not open the device: fork N children in turn, each exiting\n"
		"                 at once, and print the ns per fork\n"
		"                 (for a trigger from outside, such as mmpreempt's take_all_locks)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "roots", required_argument, NULL, 'n' },
		{ "files", required_argument, NULL, 'f' },
		{ "device", required_argument, NULL, 'd' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "wait", no_argument, NULL, 'w' },
		{ "forks", required_argument, NULL, 'k' },
		{ "module", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long roots = 500, files = 50, hold = 0, forks = 0, page = sysconf(_SC_PAGESIZE);
	const char *dev = "/dev/hmm_dmirror0";
	char *res, path[64];
	double t0;
	int c, fd, wait_only = 0, via_module = 0;

	while ((c = getopt_long(argc, argv, "n:f:d:t:k:wmh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			roots = number("alllocks", "--roots", optarg, 1, 30000);
			break;
		case 'f':
			files = number("alllocks", "--files", optarg, 0, 10000);
			break;
		case 'd':
			dev = optarg;
			break;
		case 't':
			hold = number("alllocks", "--hold-ms", optarg, 0, 3600000);
			break;
		case 'k':
			forks = number("alllocks", "--forks", optarg, 1, 10000000);
			break;
		case 'w':
			wait_only = 1;
			break;
		case 'm':
			via_module = 1;
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
	res = mmap(NULL, 2 * roots * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		die("alllocks: mmap: %s\n", strerror(errno));
	for (long i = 0; i < roots; i++) {
		char *p = res + 2 * i * page;

		if (mprotect(p, page, PROT_READ | PROT_WRITE))
			die("alllocks: mprotect: %s\n", strerror(errno));
		*p = 1;
	}
	for (long i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "/tmp/alllocks-%ld-%ld", (long)getpid(), i);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || ftruncate(fd, page))
			die("alllocks: %s: %s\n", path, strerror(errno));
		if (mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED)
			die("alllocks: mmap %s: %s\n", path, strerror(errno));
		close(fd);
		unlink(path);
	}
	if (forks) {
		fork_loop(roots, forks);
		return 0;
	}
	if (wait_only) {
		printf("alllocks: %ld anon_vma roots, %ld file mappings: ready\n",
		       roots, files);
		fflush(stdout);
		for (;;)
			pause();
	}
	if (via_module) {
		take_via_module(roots, files);
		sleep_ms(hold);
		return 0;
	}
	t0 = now_ms();
	fd = open(dev, O_RDWR);
	if (fd < 0)
		die("alllocks: open %s: %s (is test_hmm loaded and the node made?)\n",
		    dev, strerror(errno));
	printf("alllocks: %ld anon_vma roots, %ld file mappings, mmu_notifier registered in %.3f ms\n",
	       roots, files, now_ms() - t0);
	sleep_ms(hold);
	close(fd);
	return 0;
}
