// SPDX-License-Identifier: GPL-2.0
/*
 * mix: every other workload at once, so one recording shows the anon_vma,
 * i_mmap, mmu_gather and mm_all_locks events interleaved and contending on
 * the same CPUs. Each workload runs as a child exec'd from the directory
 * this binary lives in, with parameters sized for a few seconds under TCG.
 * A workload that cannot run on this guest (migrate with one NUMA node,
 * alllocks with neither mmpreempt.ko nor test_hmm) is reported as skipped
 * with the reason; any other failure makes mix fail.
 */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

struct job {
	const char *name;
	const char *args[12];
	const char *needs;	/* a path that must exist, or NULL */
	const char *why;	/* said when it does not */
	pid_t pid;
	double t0, ms;
	int status;
	int skipped;
};

static struct job jobs[] = {
	{ .name = "forktree", .args = { "--depth", "3", "--width", "2", "--mib", "2" } },
	{ .name = "unmap", .args = { "--mib", "64", "--repeat", "2" } },
	{ .name = "filemap", .args = { "--procs", "4", "--pages", "256", "--rounds", "2" } },
	{ .name = "ksm", .args = { "--pages", "128" },
	  .needs = "/sys/kernel/mm/ksm/run", .why = "no KSM in this kernel" },
	{ .name = "migrate", .args = { "--pages", "256", "--rounds", "2" },
	  .needs = "/sys/devices/system/node/node1",
	  .why = "one NUMA node: nothing to migrate to" },
	{ .name = "alllocks", .args = { "--roots", "300", "--files", "30", "--module" },
	  .needs = "/sys/kernel/debug/mmpreempt/take_all_locks",
	  .why = "mmpreempt.ko is not loaded" },
};
#define NJOBS (sizeof(jobs) / sizeof(jobs[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"mix: run forktree, unmap, filemap, ksm, migrate and alllocks at once\n"
		"usage: mix [--rounds R] [--skip NAME[,NAME...]]\n"
		"  --rounds R   run the whole set R times, one set after the other (default 1)\n"
		"  --skip LIST  leave these workloads out (comma-separated names)\n"
		"Each workload prints its own lines as it goes; mix ends with\n"
		"one line per workload: name, status, wall ms. Exit 1 if any failed.\n");
	for (size_t i = 0; i < NJOBS; i++) {
		fprintf(f, "  %-9s", jobs[i].name);
		for (int a = 0; jobs[i].args[a]; a++)
			fprintf(f, " %s", jobs[i].args[a]);
		fprintf(f, "\n");
	}
}

static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static void start(struct job *j, const char *dir)
{
	char path[PATH_MAX];
	const char *argv[16] = { j->name };
	int a;

	for (a = 0; j->args[a]; a++)
		argv[a + 1] = j->args[a];
	snprintf(path, sizeof(path), "%s/%s", dir, j->name);
	j->t0 = now_ms();
	j->pid = fork();
	if (j->pid < 0)
		die("mix: fork: %s\n", strerror(errno));
	if (j->pid == 0) {
		execv(path, (char **)argv);
		fprintf(stderr, "mix: exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "skip", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char self[PATH_MAX], *dir;
	const char *skip = NULL;
	long rounds = 1;
	int c, failed = 0;
	ssize_t n;

	while ((c = getopt_long(argc, argv, "r:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rounds = number("mix", "--rounds", optarg, 1, 1000);
			break;
		case 's':
			skip = optarg;
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
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		die("mix: /proc/self/exe: %s\n", strerror(errno));
	self[n] = 0;
	dir = dirname(self);
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (long r = 0; r < rounds; r++) {
		for (size_t i = 0; i < NJOBS; i++) {
			struct job *j = &jobs[i];

			j->skipped = 0;
			if (listed(skip, j->name)) {
				j->skipped = 1;
				j->why = "--skip";
			} else if (j->needs && access(j->needs, F_OK)) {
				j->skipped = 1;
			} else {
				start(j, dir);
			}
		}
		for (size_t done = 0; done < NJOBS;) {
			int st;
			pid_t p = wait(&st);

			if (p < 0)
				break;	/* every child reaped */
			for (size_t i = 0; i < NJOBS; i++)
				if (!jobs[i].skipped && jobs[i].pid == p) {
					jobs[i].status = st;
					jobs[i].ms = now_ms() - jobs[i].t0;
					done++;
				}
		}
		for (size_t i = 0; i < NJOBS; i++) {
			struct job *j = &jobs[i];

			if (j->skipped) {
				printf("mix: round %ld %-9s skipped: %s\n", r + 1, j->name, j->why);
			} else if (WIFEXITED(j->status) && !WEXITSTATUS(j->status)) {
				printf("mix: round %ld %-9s ok %.1f ms\n", r + 1, j->name, j->ms);
			} else {
				printf("mix: round %ld %-9s FAILED (%s %d) after %.1f ms\n",
				       r + 1, j->name,
				       WIFEXITED(j->status) ? "exit" : "signal",
				       WIFEXITED(j->status) ? WEXITSTATUS(j->status) :
				       WTERMSIG(j->status), j->ms);
				failed = 1;
			}
		}
	}
	return failed;
}
