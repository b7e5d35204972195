// SPDX-License-Identifier: GPL-2.0
/*
 * init: PID 1 of the sparc64 guest (guest/run-sparc64.sh). Mounts what the
 * tests need, runs every program listed in /tests/list in order, each with a
 * time limit, and writes one KTAP stream to the console and to the
 * virtio-serial port "status": a program's own output lines (its subtests,
 * "    ok N ...", and "#" diagnostics) pass through, its exit status becomes
 * its result (0 ok, 4 skipped with the reason of its last "SKIP: " line,
 * anything else or a kill not ok). The last line on the port is
 * "status N", N the number of failed programs; then it powers off.
 *
 * A list line is "NAME SECONDS PROGRAM [ARG...]"; blank lines and lines
 * starting with '#' are skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXARGS 32

static FILE *port;

/* One line to the console and to the status port. */
static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	if (port) {
		va_start(ap, fmt);
		vfprintf(port, fmt, ap);
		va_end(ap);
		fflush(port);
	}
}

static void mnt(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		out("# init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

static volatile sig_atomic_t expired;

static void on_alarm(int sig)
{
	(void)sig;
	expired = 1;
}

/* Run one program; its output is relayed line by line. */
static int run(const char *name, int secs, char **argv, char *skip, size_t skiplen)
{
	char line[1024];
	int pfd[2], status;
	pid_t pid;
	FILE *in;

	skip[0] = '\0';
	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execv(argv[0], argv);
		printf("# cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	expired = 0;
	alarm(secs);
	in = fdopen(pfd[0], "r");
	for (;;) {
		if (!fgets(line, sizeof(line), in)) {
			if (ferror(in) && errno == EINTR && !expired) {
				clearerr(in);
				continue;
			}
			if (expired) {
				kill(-pid, SIGKILL);
				clearerr(in);
				expired = 0;
				out("# %s: killed after %d s\n", name, secs);
				continue;
			}
			break;
		}
		if (!strncmp(line, "SKIP: ", 6)) {
			size_t l = strlen(line + 6);

			if (l >= skiplen)
				l = skiplen - 1;
			memcpy(skip, line + 6, l);
			skip[l] = '\0';
		}
		if (!strncmp(line, "    ok ", 7) || !strncmp(line, "    not ok ", 11) ||
		    line[0] == '#' || !strncmp(line, "    #", 5))
			out("%s", line);
		else
			out("# %s", line);
	}
	fclose(in);
	alarm(0);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	skip[strcspn(skip, "\n")] = '\0';
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	out("# %s: killed by signal %d\n", name, WTERMSIG(status));
	return 128 + WTERMSIG(status);
}

int main(void)
{
	char line[512], skip[256], *argv[MAXARGS + 1], *name, *tok;
	int n = 0, i = 0, failed = 0, secs, rc, a;
	struct sigaction sa = { .sa_handler = on_alarm };
	FILE *list;

	mnt("devtmpfs", "/dev", "devtmpfs");
	mnt("proc", "/proc", "proc");
	mnt("sysfs", "/sys", "sysfs");
	mnt("debugfs", "/sys/kernel/debug", "debugfs");
	mnt("tracefs", "/sys/kernel/tracing", "tracefs");
	mnt("tmpfs", "/tmp", "tmpfs");
	sigaction(SIGALRM, &sa, NULL);
	port = fopen("/dev/vport0p1", "w");
	if (!port)
		out("# init: no status port /dev/vport0p1: %s\n", strerror(errno));

	list = fopen("/tests/list", "r");
	if (!list) {
		out("# init: /tests/list: %s\n", strerror(errno));
		out("status 1\n");
		goto off;
	}
	while (fgets(line, sizeof(line), list))
		if (line[0] != '#' && line[strspn(line, " \t\n")] != '\0')
			n++;
	rewind(list);
	out("KTAP version 1\n1..%d\n", n);
	while (fgets(line, sizeof(line), list)) {
		if (line[0] == '#' || line[strspn(line, " \t\n")] == '\0')
			continue;
		i++;
		name = strtok(line, " \t\n");
		tok = strtok(NULL, " \t\n");
		secs = tok ? atoi(tok) : 0;
		for (a = 0; a < MAXARGS && (tok = strtok(NULL, " \t\n")); a++)
			argv[a] = tok;
		argv[a] = NULL;
		if (secs <= 0 || a == 0) {
			out("not ok %d %s # bad /tests/list line\n", i, name);
			failed++;
			continue;
		}
		rc = run(name, secs, argv, skip, sizeof(skip));
		if (rc == 0) {
			out("ok %d %s\n", i, name);
		} else if (rc == 4) {
			out("ok %d %s # SKIP %s\n", i, name, skip[0] ? skip : "(no reason given)");
		} else {
			out("not ok %d %s # exit %d\n", i, name, rc);
			failed++;
		}
	}
	out("status %d\n", failed);
off:
	if (port)
		fclose(port);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
