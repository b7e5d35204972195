// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: walk an operation's allocation failures one by one with the
 * kernel's per-task fault injection (/proc/thread-self/fail-nth: writing N
 * makes this task's N-th allocation that passes the failslab and
 * fail_page_alloc filters fail). For N = 1, 2, ... it repeats the operation
 * and reports how it ended; the walk stops at the first N that the operation
 * never reaches (it then ran with no failure), so every failure site the
 * filters let through is hit once.
 *
 *   fork      fork() of a process with --vmas anonymous vmas, each with its
 *             anon_vma (anon_vma_fork(), anon_vma_clone()); the child exits
 *   fault     first touch of a fresh anonymous vma (__anon_vma_prepare())
 *   load KO   init_module() of the module file KO (the loader's and the
 *             module's own allocations); a failed load must leave neither
 *             /sys/module/NAME nor debugfs NAME behind; a load that
 *             succeeds with no failure is left loaded
 *
 * Output: one line per N, "nth N injected|clean <result>", then "sites N".
 * Needs: CONFIG_FAULT_INJECTION and the filters set up by the caller (see
 * tests/guest/fi-*.sh). Exit 1 when the operation misbehaves: a failure
 * that is not a clean error, or an injected fork that still succeeded
 * without a fallback to say so.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static int nth_fd;

static void set_nth(long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld", n);

	if (pwrite(nth_fd, buf, len, 0) != len)
		die("failnth: cannot write fail-nth: %s\n", strerror(errno));
}

/* 0 when the N-th allocation was reached (and failed); then disarmed. */
static long left_nth(void)
{
	char buf[32] = "";
	long left;

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		die("failnth: cannot read fail-nth: %s\n", strerror(errno));
	left = strtol(buf, NULL, 10);
	set_nth(0);
	return left;
}

/*
 * What the kernel logged since the last call: whether a forced failure's
 * stack had FUNC in a reliable frame (" FUNC+0x", not " ? FUNC+0x"), and
 * whether a line had TEXT in it.
 */
static int kmsg_fd = -1;

static void kmsg_scan(const char *func, const char *text, int *in_func, int *said)
{
	char rec[8192], pat[256];

	snprintf(pat, sizeof(pat), " %s+0x", func ? func : "");
	*in_func = *said = 0;
	for (;;) {
		ssize_t r = read(kmsg_fd, rec, sizeof(rec) - 1);
		char *msg;

		if (r < 0 && errno == EPIPE)
			continue;	/* records overwritten: go on with the next */
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (func && !strncmp(msg, pat, strlen(pat)))
			*in_func = 1;
		if (text && strstr(msg, text))
			*said = 1;
	}
}

static const char *errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case EINTR: return "EINTR";
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	default: return strerror(e);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"failnth: every allocation failure of one operation, one at a time (fail-nth)\n"
		"usage: failnth [--vmas N] [--max N] [--own FUNC [--message TEXT]]\n"
		"               fork|fault|load KO [PARAMS]\n"
		"  --own FUNC    mark the steps whose forced failure's stack (read from\n"
		"                /dev/kmsg; fault injection's verbose=2) has FUNC in it\n"
		"  --message T   such a step that fails must log a line with T in it\n"
		"  --vmas N      anonymous vmas the forking process has (default 4)\n"
		"  --max N       give up after N failures (default 10000)\n"
		);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "vmas", required_argument, NULL, 'v' },
		{ "max", required_argument, NULL, 'm' },
		{ "own", required_argument, NULL, 'O' },
		{ "message", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long vmas = 4, max = 10000, n, page = sysconf(_SC_PAGESIZE);
	const char *op, *params = "", *own = NULL, *message = NULL;
	char *image = NULL, *modname = NULL;
	size_t image_len = 0;
	int c, bad = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			vmas = number("failnth", "--vmas", optarg, 1, 1000);
			break;
		case 'm':
			max = number("failnth", "--max", optarg, 1, 1000000);
			break;
		case 'O':
			own = optarg;
			break;
		case 'M':
			message = optarg;
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
	op = argv[optind];
	if (!strcmp(op, "load")) {
		struct stat st;
		int fd;

		if (optind + 1 >= argc) {
			usage(stderr);
			return 2;
		}
		if (optind + 2 < argc)
			params = argv[optind + 2];
		/* the module's name: the file's, less directories and ".ko" */
		modname = strrchr(argv[optind + 1], '/');
		modname = strdup(modname ? modname + 1 : argv[optind + 1]);
		if (strlen(modname) > 3 && !strcmp(modname + strlen(modname) - 3, ".ko"))
			modname[strlen(modname) - 3] = '\0';
		fd = open(argv[optind + 1], O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			die("failnth: %s: %s\n", argv[optind + 1], strerror(errno));
		image_len = st.st_size;
		image = malloc(image_len);
		if (!image || read(fd, image, image_len) != (ssize_t)image_len)
			die("failnth: cannot read %s\n", argv[optind + 1]);
		close(fd);
	} else if (strcmp(op, "fork") && strcmp(op, "fault")) {
		usage(stderr);
		return 2;
	}

	if (own) {
		kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		if (kmsg_fd < 0 || lseek(kmsg_fd, 0, SEEK_END) < 0)
			die("failnth: /dev/kmsg: %s\n", strerror(errno));
	}
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0)
		die("failnth: /proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION?)\n",
		    strerror(errno));

	/* The forking process's vmas, apart (a guard page between) so that
	 * each keeps its own anon_vma.
	 */
	if (!strcmp(op, "fork")) {
		for (long i = 0; i < vmas; i++) {
			char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				die("failnth: mmap: %s\n", strerror(errno));
			p[0] = 1;
			mprotect(p + page, page, PROT_NONE);
		}
	}

	for (n = 1; n <= max; n++) {
		char result[160];
		long left;
		int ok;

		if (!strcmp(op, "fork")) {
			pid_t pid;
			int st;

			set_nth(n);
			pid = fork();
			if (pid == 0)
				_exit(0);
			left = left_nth();
			if (pid < 0) {
				ok = errno == ENOMEM;
				snprintf(result, sizeof(result), "fork failed: %s",
					 errname(errno));
			} else {
				ok = waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
				     !WEXITSTATUS(st);
				snprintf(result, sizeof(result), "fork ok%s",
					 ok ? "" : ", child did not exit 0");
			}
		} else if (!strcmp(op, "fault")) {
			volatile char *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
						MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				die("failnth: mmap: %s\n", strerror(errno));
			set_nth(n);
			p[0] = 1;	/* a failed fault is retried: it must end */
			left = left_nth();
			ok = p[0] == 1;
			snprintf(result, sizeof(result), "touch %s",
				 ok ? "ok" : "lost the write");
			munmap((void *)p, page);
		} else {
			long r;

			set_nth(n);
			r = syscall(SYS_init_module, image, image_len, params);
			left = left_nth();
			if (r) {
				char path[300];

				ok = errno != EEXIST;
				snprintf(result, sizeof(result), "load failed: %s",
					 errname(errno));
				/* a failed load leaves nothing behind */
				snprintf(path, sizeof(path), "/sys/module/%s", modname);
				if (!access(path, F_OK)) {
					printf("nth %ld: %s is left behind\n", n, path);
					ok = 0;
				}
				snprintf(path, sizeof(path), "/sys/kernel/debug/%s", modname);
				if (!access(path, F_OK)) {
					printf("nth %ld: %s is left behind\n", n, path);
					ok = 0;
				}
			} else {
				ok = 1;
				snprintf(result, sizeof(result), "load ok");
			}
			if (!left && !r) {
				/* the failure was absorbed: unload, go on */
				snprintf(result, sizeof(result),
					 "load ok (the failure was absorbed)");
				if (syscall(SYS_delete_module, modname, O_NONBLOCK))
					die("failnth: cannot unload %s: %s\n",
					    modname, strerror(errno));
			}
			if (left && r)
				ok = 0;	/* failed with nothing injected */
		}
		if (own) {
			int in_own, said;

			kmsg_scan(own, message, &in_own, &said);
			if (in_own) {
				int failed = !!strstr(result, "failed");

				if (failed && message && !said) {
					printf("nth %ld: failed in %s without logging \"%s\"\n",
					       n, own, message);
					ok = 0;
				}
				snprintf(result + strlen(result), sizeof(result) - strlen(result),
					 " [in %s%s]", own,
					 failed && said ? ", logged" : "");
			}
		}
		printf("nth %ld %s %s\n", n, left ? "clean" : "injected", result);
		fflush(stdout);
		if (!ok)
			bad = 1;
		if (left) {
			printf("sites %ld\n", n - 1);
			return bad;
		}
	}
	printf("sites more than %ld (gave up)\n", max);
	return 1;
}
