// SPDX-License-Identifier: GPL-2.0
/*
 * sigtake: cut mm_take_all_locks() short with a signal. Writes PID to
 * mmpreempt.ko's take_all_locks (an mmu_notifier registration on PID's mm,
 * run in this task) again and again while a child sends this task SIGUSR1
 * at random intervals; SIGUSR1 has a handler without SA_RESTART, so a signal
 * that arrives during the take makes mm_take_all_locks() return -EINTR, and
 * the write with it. After each write it prints what the module read from
 * that call's mm_take_all_locks_acquired event. It stops when --want writes
 * were cut short after taking at least one lock (a signal that was already
 * pending at the start is cut short before any lock and does not count).
 *
 * Output: "take N: ok|EINTR roots R mappings M", then a summary line.
 * Needs: mmpreempt.ko loaded, a target with many anon_vma roots (alllocks
 * --wait). Exit 1 when --tries writes were not enough.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define TAKE "/sys/kernel/debug/mmpreempt/take_all_locks"

static volatile sig_atomic_t signals;

static void on_usr1(int sig)
{
	(void)sig;
	signals++;
}

/* "key value" from the take_all_locks file, or -1 */
static long field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"sigtake: cut mm_take_all_locks() short with signals (-EINTR)\n"
		"usage: sigtake [--tries N] [--want N] [--max-delay-us U] PID\n"
		"  --tries N         writes at most (default 200)\n"
		"  --want N          interrupted takes that held a lock (default 3)\n"
		"  --max-delay-us U  signal interval, random in [0, U] (default 20000)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tries", required_argument, NULL, 't' },
		{ "want", required_argument, NULL, 'w' },
		{ "max-delay-us", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long tries = 200, want = 3, delay = 20000, target, got = 0, ok = 0, early = 0;
	struct sigaction sa = { .sa_handler = on_usr1 };
	char pidstr[32];
	pid_t parent = getpid(), child;
	int c, fd, len;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tries = number("sigtake", "--tries", optarg, 1, 100000);
			break;
		case 'w':
			want = number("sigtake", "--want", optarg, 1, 100000);
			break;
		case 'd':
			delay = number("sigtake", "--max-delay-us", optarg, 1, 10000000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	target = number("sigtake", "PID", argv[optind], 1, 4194304);
	len = snprintf(pidstr, sizeof(pidstr), "%ld\n", target);
	fd = open(TAKE, O_RDWR);
	if (fd < 0)
		die("sigtake: %s: %s (is mmpreempt.ko loaded?)\n", TAKE, strerror(errno));
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigtake: sigaction: %s\n", strerror(errno));

	child = fork();
	if (child < 0)
		die("sigtake: fork: %s\n", strerror(errno));
	if (child == 0) {
		srandom(getpid());
		while (getppid() == parent) {
			long us = random() % (delay + 1);
			struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

			nanosleep(&ts, NULL);
			kill(parent, SIGUSR1);
		}
		_exit(0);
	}

	for (long i = 1; i <= tries && got < want; i++) {
		char text[256] = "";
		/* write(), not pwrite(): a seq_file refuses pwrite (ESPIPE) */
		ssize_t w = write(fd, pidstr, len), r;
		int e = errno;
		long roots, maps;

		do
			r = pread(fd, text, sizeof(text) - 1, 0);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			die("sigtake: reading %s: %s\n", TAKE, strerror(errno));
		roots = field(text, "anon_vma_roots ");
		maps = field(text, "mappings ");
		if (w == len) {
			ok++;
			printf("take %ld: ok roots %ld mappings %ld\n", i, roots, maps);
		} else if (w < 0 && e == EINTR) {
			if (roots + maps > 0)
				got++;
			else
				early++;
			printf("take %ld: EINTR roots %ld mappings %ld\n", i, roots, maps);
		} else {
			kill(child, SIGKILL);
			die("sigtake: take %ld: write returned %zd: %s\n", i, w,
			    w < 0 ? strerror(e) : "short write");
		}
		fflush(stdout);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("sigtake: %ld takes completed, %ld cut short holding locks, %ld cut short before the first lock, %ld signals\n",
	       ok, got, early, (long)signals);
	return got >= want ? 0 : 1;
}
