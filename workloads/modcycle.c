// SPDX-License-Identifier: GPL-2.0
/*
 * modcycle: load and unload a module N times from one process
 * (init_module(2) then delete_module(2)), without an insmod and an rmmod
 * process per cycle: on the debug kernel under TCG a process costs more
 * than the cycle itself. The module is read once. Every cycle must load and
 * unload (an unload refused with EAGAIN while a reader holds one of its
 * files open is retried); any other failure stops the run with its errno.
 *
 * Output: progress every 100 cycles, then "cycles N, ms per cycle min/avg/max".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

static void usage(FILE *f)
{
	fprintf(f,
		"modcycle: load and unload a module N times from one process\n"
		"usage: modcycle [--cycles N] KO [PARAMS]\n"
		"  --cycles N  load/unload cycles (default 1000)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cycles", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long cycles = 1000, i, busy = 0;
	double lo = 1e18, hi = 0, sum = 0;
	const char *params = "";
	char *image, *name, *dot;
	struct stat st;
	int c, fd;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			cycles = number("modcycle", "--cycles", optarg, 1, 10000000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc || optind + 2 < argc) {
		usage(stderr);
		return 2;
	}
	if (optind + 1 < argc)
		params = argv[optind + 1];
	fd = open(argv[optind], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("modcycle: %s: %s\n", argv[optind], strerror(errno));
	image = malloc(st.st_size);
	if (!image || read(fd, image, st.st_size) != st.st_size)
		die("modcycle: cannot read %s\n", argv[optind]);
	close(fd);
	name = strrchr(argv[optind], '/');
	name = strdup(name ? name + 1 : argv[optind]);
	dot = strstr(name, ".ko");
	if (dot)
		*dot = '\0';

	for (i = 1; i <= cycles; i++) {
		double t0 = now_ms(), ms;

		if (syscall(SYS_init_module, image, (unsigned long)st.st_size, params))
			die("modcycle: cycle %ld: loading %s: %s\n", i, name, strerror(errno));
		/* EAGAIN: a reader has one of its files open; try again */
		while (syscall(SYS_delete_module, name, O_NONBLOCK)) {
			if (errno != EAGAIN)
				die("modcycle: cycle %ld: unloading %s: %s\n", i, name,
				    strerror(errno));
			busy++;
			sleep_ms(1);
		}
		ms = now_ms() - t0;
		sum += ms;
		lo = ms < lo ? ms : lo;
		hi = ms > hi ? ms : hi;
		if (i % 100 == 0) {
			printf("modcycle: %ld cycles\n", i);
			fflush(stdout);
		}
	}
	printf("cycles %ld, ms per cycle %.1f/%.1f/%.1f (min/avg/max), %ld unloads retried while a file was open\n",
	       cycles, lo, sum / cycles, hi, busy);
	return 0;
}
