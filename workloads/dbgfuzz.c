// SPDX-License-Identifier: GPL-2.0
/*
 * dbgfuzz: fuzz debugfs control files against the rules they promise.
 *
 * Each FILE=KIND names a writable file and the grammar it accepts:
 *   enable  a decimal in [0, 1]          (mmpreempt's enable)
 *   reset   exactly 1                    (mmpreempt's reset)
 *   pid     a decimal in [1, 4194304]    (take_all_locks: then 0 or ESRCH)
 *   bool    one of 0 1 N Y n y           (the series' tlb_preempt_points)
 * The decimals are mmpreempt's: at most 16 bytes, an optional '+', digits,
 * an optional single newline, no NUL, within unsigned int. Every write that
 * breaks its grammar must fail with EINVAL and change nothing that can be
 * read: the file's own value (enable, bool, pid), or for reset the event
 * counters of the stats file beside it, which only a reset lowers.
 *
 * Writes: random bytes (length 0..64 KiB, most short), numeric edges (0, -1,
 * 2^31, 2^32, 2^64, ...) with and without leading or trailing junk, and now
 * and then a valid value, after which the new state is read back. Then
 * --writers processes write bad values to all files at once, and the
 * state must be what it was. Every --read file is read in random pieces,
 * with lseek() (SET, CUR, END, past the end, negative) and pread(): a file
 * marked stable (PATH=stable) must read the same in pieces as whole.
 *
 * Output: counts per file and per outcome; "FAIL:" lines for every broken
 * rule. Exit 0 when none broke. Overhead: one syscall per write.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define MAXLEN 65536

enum kind { ENABLE, RESET, PID, BOOL };
static const char *const kinds[] = { "enable", "reset", "pid", "bool" };

struct target {
	const char *path;
	enum kind kind;
	char stats[512];	/* reset: the stats file beside it */
	long writes, valid, einval, other;
};

static unsigned long long rng = 88172645463325252ULL;
static unsigned long long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int failures;
#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); failures++; } while (0)

static ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = 0, r;

	if (fd < 0)
		return -1;
	while (n < (ssize_t)size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

/* The grammar: -1 bad, else the value (bool: 0 or 1). */
static long long parse(enum kind k, const char *s, size_t len)
{
	unsigned long long v = 0;
	size_t i = 0, digits = 0;

	if (memchr(s, '\0', len))
		return -1;
	if (k == BOOL) {
		if (len < 1 || len > 2 || (len == 2 && s[1] != '\n'))
			return -1;
		if (strchr("1Yy", s[0]))
			return 1;
		if (strchr("0Nn", s[0]))
			return 0;
		return -1;
	}
	if (len < 1 || len > 16)
		return -1;
	if (s[i] == '+')
		i++;
	for (; i < len && isdigit((unsigned char)s[i]); i++, digits++) {
		v = v * 10 + (s[i] - '0');
		if (v > UINT_MAX)
			return -1;
	}
	if (!digits)
		return -1;
	if (i < len && s[i] == '\n')
		i++;
	if (i != len)
		return -1;
	switch (k) {
	case ENABLE: return v <= 1 ? (long long)v : -1;
	case RESET: return v == 1 ? 1 : -1;
	case PID: return v >= 1 && v <= 4194304 ? (long long)v : -1;
	default: return -1;
	}
}

/* What a bad write must leave as it was. */
static void state(struct target *t, char *buf, size_t size)
{
	char all[65536], *line, *save;
	size_t n = 0;

	buf[0] = '\0';
	switch (t->kind) {
	case ENABLE:
	case BOOL:
	case PID:
		slurp(t->path, buf, size);
		break;
	case RESET:
		if (slurp(t->stats, all, sizeof(all)) < 0)
			break;
		for (line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "events.", 7) && n + strlen(line) + 2 < size)
				n += sprintf(buf + n, "%s\n", line);
		break;
	}
}

/* reset: every event counter at least what it was (only a reset lowers) */
static int state_kept(struct target *t, const char *before, const char *after)
{
	const char *p;

	if (t->kind != RESET)
		return !strcmp(before, after);
	for (p = before; *p; p = strchr(p, '\n') + 1) {
		char name[128];
		unsigned long long v0, v1;
		const char *q;

		if (sscanf(p, "%127s %llu", name, &v0) != 2)
			return 0;
		q = strstr(after, name);
		if (!q || sscanf(q + strlen(name), " %llu", &v1) != 1 || v1 < v0)
			return 0;
	}
	return 1;
}

static const char *const edges[] = {
	"0", "1", "-1", "2147483647", "2147483648", "4294967295", "4294967296",
	"18446744073709551615", "18446744073709551616", "99999999999999999999",
	"+1", "++1", "-0", " 1", "1 ", "\t1", "1\n\n", "\n", "0x1", "01", "00000000000000001",
	"1abc", "abc1", "1\r\n", "Y", "N", "y", "n", "yes", "no", "on", "off", "Yx",
	"1.0", "1e3", "", "4194304", "4194305", "10000", "10001",
};

/* A candidate write into buf; returns its length. */
static size_t candidate(char *buf, int allow_valid)
{
	size_t len;
	int r = rnd() % 100;

	if (r < 45) {
		/* random bytes: mostly short, now and then up to 64 KiB */
		len = (rnd() % 8) ? rnd() % 24 : rnd() % (MAXLEN + 1);
		for (size_t i = 0; i < len; i++)
			buf[i] = (rnd() % 3) ? "0123456789+-\nYyNn \t"[rnd() % 20] : (char)rnd();
		return len;
	}
	if (r < 90 || !allow_valid) {
		const char *e = edges[rnd() % (sizeof(edges) / sizeof(edges[0]))];
		const char *junk[] = { "", "", "\n", "x", " ", "\0", "\n1", "0" };
		const char *pre = (rnd() % 4) ? "" : junk[rnd() % 8];
		const char *post = junk[rnd() % 8];
		size_t pl = (pre[0] || pre == junk[5]) ? (pre == junk[5] ? 1 : strlen(pre)) : 0;
		size_t ql = post == junk[5] ? 1 : strlen(post);

		memcpy(buf, pre, pl);
		memcpy(buf + pl, e, strlen(e));
		memcpy(buf + pl + strlen(e), post, ql);
		return pl + strlen(e) + ql;
	}
	/* a valid value */
	return sprintf(buf, "%s", (const char *[]){ "1", "0\n", "1\n", "+1", "Y", "n\n" }[rnd() % 6]);
}

static void fuzz_one(struct target *t, char *buf, int allow_valid, int check_state)
{
	char before[8192], after[8192];
	size_t len = candidate(buf, allow_valid);
	long long want = parse(t->kind, buf, len);
	ssize_t w;
	int fd, e;

	if (want >= 0 && !allow_valid)
		return;		/* concurrent writers write bad values only */
	if (check_state && want < 0)
		state(t, before, sizeof(before));
	fd = open(t->path, O_WRONLY);
	if (fd < 0) {
		FAIL("%s: open: %s\n", t->path, strerror(errno));
		return;
	}
	w = write(fd, buf, len);
	e = errno;
	close(fd);
	t->writes++;
	if (want < 0) {
		if (w >= 0)
			FAIL("%s: a bad write of %zu bytes (\"%.24s\") returned %zd, want EINVAL\n",
			     t->path, len, buf, w);
		else if (e != EINVAL) {
			t->other++;
			FAIL("%s: a bad write of %zu bytes failed with %s, want EINVAL\n",
			     t->path, len, strerror(e));
		} else
			t->einval++;
		if (check_state) {
			state(t, after, sizeof(after));
			if (!state_kept(t, before, after))
				FAIL("%s: a refused write of \"%.24s\" changed the state from \"%.60s\" to \"%.60s\"\n",
				     t->path, buf, before, after);
		}
		return;
	}
	t->valid++;
	if (w == (ssize_t)len)
		return;
	if (t->kind == PID && w < 0 && e == ESRCH)
		return;
	FAIL("%s: a valid write (\"%.24s\") returned %zd (%s)\n", t->path, buf, w,
	     w < 0 ? strerror(e) : "short");
}

/* Pieces, seeks and preads of one file. */
static void read_file(const char *path, int stable, long *reads)
{
	static char whole[1 << 20], piece[1 << 20];
	ssize_t n = slurp(path, whole, sizeof(whole)), got = 0, r;
	int fd = open(path, O_RDONLY);

	if (n < 0 || fd < 0) {
		FAIL("%s: cannot read: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((r = read(fd, piece + got, 1 + rnd() % 7)) > 0 && got < (ssize_t)sizeof(piece) - 8)
		got += r, (*reads)++;
	if (r < 0)
		FAIL("%s: a short read failed: %s\n", path, strerror(errno));
	if (stable && (got != n || memcmp(piece, whole, n)))
		FAIL("%s: read in pieces (%zd bytes) differs from read whole (%zd bytes)\n",
		     path, got, n);
	for (int i = 0; i < 20; i++) {
		off_t off = rnd() % (n + 16);
		int how = rnd() % 4;
		off_t to;

		if (how == 3) {
			/* negative: must fail, not move */
			if (lseek(fd, -1 - (off_t)(rnd() % 100), SEEK_SET) >= 0)
				FAIL("%s: lseek to a negative offset succeeded\n", path);
			continue;
		}
		to = lseek(fd, how == 0 ? off : how == 1 ? 0 : 0,
			   how == 0 ? SEEK_SET : how == 1 ? SEEK_CUR : SEEK_END);
		if (to < 0 && how != 2)
			FAIL("%s: lseek(%s) failed: %s\n", path,
			     how ? "SEEK_CUR" : "SEEK_SET", strerror(errno));
		r = pread(fd, piece, 1 + rnd() % 64, off);
		(*reads)++;
		if (r < 0)
			FAIL("%s: pread at %lld failed: %s\n", path, (long long)off, strerror(errno));
		else if (stable && (off >= n ? r != 0 : memcmp(piece, whole + off, r)))
			FAIL("%s: pread at %lld returned other bytes than the file has there\n",
			     path, (long long)off);
	}
	close(fd);
}

static void usage(FILE *f)
{
	fprintf(f,
		"dbgfuzz: fuzz debugfs control files against their grammar\n"
		"usage: dbgfuzz [--writes N] [--writers W] [--seed S] [--read PATH[=stable]]... FILE=KIND...\n"
		"  KIND: enable reset pid bool (see the source's header)\n"
		"  --writes N   sequential writes in all (default 10000), and as many again\n"
		"               by the concurrent writers\n"
		"  --writers W  concurrent writers (default 4)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "writes", required_argument, NULL, 'n' },
		{ "writers", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "read", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char buf[MAXLEN + 64];
	static char st0[64][8192];
	struct target t[64];
	char *reads[64];
	int nt = 0, nr = 0, c, writers = 4;
	long writes = 10000, total = 0, nreads = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			writes = number("dbgfuzz", "--writes", optarg, 1, 10000000);
			break;
		case 'w':
			writers = number("dbgfuzz", "--writers", optarg, 1, 64);
			break;
		case 's':
			rng = number("dbgfuzz", "--seed", optarg, 1, LONG_MAX);
			break;
		case 'r':
			if (nr < 64)
				reads[nr++] = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	for (; optind < argc && nt < 64; optind++) {
		char *eq = strrchr(argv[optind], '=');
		int k;

		if (!eq) {
			usage(stderr);
			return 2;
		}
		*eq = '\0';
		for (k = 0; k < 5 && strcmp(eq + 1, kinds[k]); k++)
			;
		if (k == 5) {
			fprintf(stderr, "dbgfuzz: unknown kind '%s'\n", eq + 1);
			return 2;
		}
		t[nt] = (struct target){ .path = argv[optind], .kind = k };
		snprintf(t[nt].stats, sizeof(t[nt].stats), "%.*s/stats",
			 (int)(strrchr(t[nt].path, '/') - t[nt].path), t[nt].path);
		nt++;
	}
	if (!nt) {
		usage(stderr);
		return 2;
	}
	printf("dbgfuzz: seed %llu\n", rng);

	/* 1. one writer, every bad write checked for its errno and its effect */
	for (long i = 0; i < writes; i++)
		fuzz_one(&t[i % nt], buf, 1, 1);
	for (int i = 0; i < nt; i++) {
		printf("%s: %ld writes, %ld valid, %ld EINVAL, %ld other\n", t[i].path,
		       t[i].writes, t[i].valid, t[i].einval, t[i].other);
		total += t[i].writes;
	}

	/* 2. concurrent writers of bad values: the state must not move */
	for (int i = 0; i < nt; i++)
		state(&t[i], st0[i], sizeof(st0[i]));
	for (int w = 0; w < writers; w++) {
		pid_t pid = fork();

		if (pid < 0)
			die("dbgfuzz: fork: %s\n", strerror(errno));
		if (pid == 0) {
			rng += 7919 * (w + 1);
			for (long i = 0; i < writes / writers; i++)
				fuzz_one(&t[rnd() % nt], buf, 0, 0);
			_exit(failures ? 1 : 0);
		}
	}
	for (int w = 0; w < writers; w++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			FAIL("a concurrent writer failed (its FAIL lines above)\n");
	}
	for (int i = 0; i < nt; i++) {
		char now[8192];

		state(&t[i], now, sizeof(now));
		if (!state_kept(&t[i], st0[i], now))
			FAIL("%s: concurrent bad writes changed the state from \"%.60s\" to \"%.60s\"\n",
			     t[i].path, st0[i], now);
	}
	printf("concurrent: %d writers, about %ld bad writes\n", writers,
	       (writes / writers) * writers);

	/* 3. reads in pieces, seeks, preads */
	for (int i = 0; i < nr; i++) {
		char *eq = strrchr(reads[i], '=');
		int stable = eq && !strcmp(eq, "=stable");

		if (eq)
			*eq = '\0';
		for (int round = 0; round < 10; round++)
			read_file(reads[i], stable, &nreads);
	}
	printf("reads: %d files, %ld partial reads and preads\n", nr, nreads);
	printf("dbgfuzz: %ld sequential writes, %d broken rules\n", total, failures);
	return failures ? 1 : 0;
}
