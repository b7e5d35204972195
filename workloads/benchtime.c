// SPDX-License-Identifier: GPL-2.0
/*
 * benchtime: run a command R times and print the ns each run took, by
 * CLOCK_MONOTONIC read in this process around fork+exec+wait.
 *
 * Why not the shell's `date`: every binary a shell runs from the guest
 * image is read over virtio, and under icount (sleep=off) an idle CPU
 * waiting on the host jumps guest time to the next timer tick, so a figure
 * timed by `date` moves in 4 ms steps (HZ=250). benchtime is static and,
 * with the command on tmpfs and static too, its timed part does no host
 * I/O: its figure is a count of guest instructions. With --strict (one
 * vCPU under icount), a run during which the CPU went idle (from /proc/stat:
 * the guest's own writeback to its disk, say) is not one: benchtime says
 * so, discards it and runs again, up to --retries times per run, then
 * fails. Without it (more CPUs, or no icount) a figure is plain wall time.
 *
 * The command's stdout goes to /dev/null; its stderr stays. A run whose
 * command fails makes benchtime fail (exit 1) after saying so.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static void usage(FILE *f)
{
	fprintf(f,
		"benchtime: time a command by the guest clock, in ns per run\n"
		"usage: benchtime [--rounds R] [--strict [--retries K]] -- CMD [ARG...]\n"
		"  --rounds R   run it R times (default 1)\n"
		"  --strict     discard a run in which a CPU idled (icount, one vCPU)\n"
		"  --retries K  with --strict: rerun such a run up to K times (default 3)\n"
		"Prints one line per run: \"benchtime: NS ns CMD\"; a discarded run is\n"
		"said on stderr. Exit 1 when a run failed or idled K + 1 times (its\n"
		"figure would not count instructions under icount), 2 on bad usage.\n");
}

/* idle + iowait jiffies of all CPUs, from the first line of /proc/stat */
static unsigned long long idle_jiffies(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			 &v[3], &v[4]) != 5)
		die("benchtime: cannot read /proc/stat\n");
	fclose(f);
	return v[3] + v[4];
}

static long long ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "retries", required_argument, NULL, 'k' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long rounds = 1, retries = 3, r, tries = 0;
	int c, strict = 0;

	while ((c = getopt_long(argc, argv, "+r:k:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rounds = number("benchtime", "--rounds", optarg, 1, 100000);
			break;
		case 'k':
			retries = number("benchtime", "--retries", optarg, 0, 100);
			break;
		case 's':
			strict = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		unsigned long long i0 = idle_jiffies(), i1;
		long long t0 = ns_now(), t1;
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("benchtime: fork: %s\n", strerror(errno));
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
			execv(argv[optind], argv + optind);
			fprintf(stderr, "benchtime: exec %s: %s\n", argv[optind],
				strerror(errno));
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("benchtime: waitpid: %s\n", strerror(errno));
		t1 = ns_now();
		i1 = idle_jiffies();
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			die("benchtime: %s failed (status 0x%x)\n", argv[optind],
			    status);
		if (strict && i1 != i0) {
			fprintf(stderr, "benchtime: run %ld discarded: the CPU idled %llu jiffies in its %lld ns\n",
				r + 1, i1 - i0, t1 - t0);
			if (++tries > retries)
				die("benchtime: run %ld idled %ld times: no instruction count\n",
				    r + 1, tries);
			r--;
			continue;
		}
		tries = 0;
		printf("benchtime: %lld ns %s\n", t1 - t0, argv[optind]);
		fflush(stdout);
	}
	return 0;
}
