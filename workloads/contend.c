// SPDX-License-Identifier: GPL-2.0
/*
 * contend: make exactly N acquisitions of one lock wait behind a holder.
 *
 * Needs lock_hold.ko (tests/modules). One thread takes the lock in write
 * mode through /sys/kernel/debug/lock_hold and holds it; once it is held,
 * N threads each ask for the same lock in the chosen mode and must wait.
 * The lock is the i_mmap lock of lock_hold's own file, or the anon_vma
 * lock of a page of this process (a fresh exec: its anon_vma is a root of
 * its own, shared with no other process, on a page no other mapping
 * touches, so no fault can merge into it). Threads, not processes, made
 * and started before the hold: no fork, exit or stack fault takes an mm
 * lock while the lock is held, so the N waits are the only contention a
 * tracer should see. With --try the N threads each make one trylock
 * instead, which must fail behind the holder (lock_hold.ko's try modes).
 */
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

#define HOLD_FILE "/sys/kernel/debug/lock_hold"

static char holder_cmd[96], waiter_cmd[96];
static int try_mode, try_failed;
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

static void usage(FILE *f)
{
	fprintf(f,
		"contend: make N acquisitions of one lock wait behind a holder\n"
		"usage: contend [--lock anon_vma|i_mmap] [--mode read|write] [--waiters N]\n"
		"               [--hold-ms T] [--try]\n"
		"  --lock L     which lock (default i_mmap)\n"
		"  --mode M     the waiters' mode; the holder always writes (default write)\n"
		"  --waiters N  acquisitions made to wait (default 3)\n"
		"  --hold-ms T  how long the holder holds it (default 1500)\n"
		"  --try        the N threads each make one trylock, which must fail\n"
		"               (i_mmap read or write, anon_vma read)\n"
		"Needs lock_hold.ko loaded. Prints the waiters that completed.\n");
}

/*
 * One command to lock_hold; returns 1 for a trylock that failed (EBUSY,
 * only with --try), dies on any other error.
 */
static int hold_cmd(const char *cmd)
{
	int fd = open(HOLD_FILE, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		die("contend: %s: %s (is lock_hold.ko loaded?)\n", HOLD_FILE,
		    strerror(errno));
	n = write(fd, cmd, strlen(cmd));
	if (n < 0 && errno == EBUSY && try_mode) {
		close(fd);
		return 1;
	}
	if (n != (ssize_t)strlen(cmd))
		die("contend: '%s': %s\n", cmd,
		    n < 0 ? strerror(errno) : "short write");
	close(fd);
	return 0;
}

static void *lock_once(void *cmd)
{
	hold_cmd(cmd);
	return NULL;
}

static void *waiter(void *cmd)
{
	pthread_mutex_lock(&go_lock);
	while (!go)
		pthread_cond_wait(&go_cond, &go_lock);
	pthread_mutex_unlock(&go_lock);
	if (hold_cmd(cmd))
		__atomic_add_fetch(&try_failed, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lock", required_argument, NULL, 'l' },
		{ "mode", required_argument, NULL, 'm' },
		{ "waiters", required_argument, NULL, 'n' },
		{ "hold-ms", required_argument, NULL, 't' },
		{ "try", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *lock = "i_mmap", *mode = "write";
	long waiters = 3, hold = 1500, i;
	pthread_t holder, *w;
	char target[48] = "";
	int c;

	while ((c = getopt_long(argc, argv, "l:m:n:t:Th", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			lock = optarg;
			break;
		case 'm':
			mode = optarg;
			break;
		case 'n':
			waiters = number("contend", "--waiters", optarg, 1, 64);
			break;
		case 't':
			hold = number("contend", "--hold-ms", optarg, 100, 10000);
			break;
		case 'T':
			try_mode = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || (strcmp(lock, "i_mmap") && strcmp(lock, "anon_vma")) ||
	    (strcmp(mode, "read") && strcmp(mode, "write"))) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(lock, "anon_vma")) {
		/* far from every other mapping, with no neighbour to merge */
		char *p = mmap((void *)0x5a5a5a000000UL, 4096,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p == MAP_FAILED)
			die("contend: mmap: %s\n", strerror(errno));
		p[0] = 1;	/* the fault gives the region its anon_vma */
		snprintf(target, sizeof(target), " %d %lx", getpid(),
			 (unsigned long)p);
	}
	snprintf(holder_cmd, sizeof(holder_cmd), "%s write%s %ld", lock,
		 target, hold);
	snprintf(waiter_cmd, sizeof(waiter_cmd), "%s %s%s%s 1", lock,
		 try_mode ? "try" : "", mode, target);
	w = calloc(waiters, sizeof(*w));
	if (!w)
		die("contend: out of memory\n");
	for (i = 0; i < waiters; i++)
		if (pthread_create(&w[i], NULL, waiter, waiter_cmd))
			die("contend: pthread_create failed\n");
	sleep_ms(100);	/* every waiter parked, its stack touched */
	if (pthread_create(&holder, NULL, lock_once, holder_cmd))
		die("contend: pthread_create failed\n");
	/* the holder's write takes the lock at once: give it time to */
	sleep_ms(hold / 4);
	pthread_mutex_lock(&go_lock);
	go = 1;
	pthread_cond_broadcast(&go_cond);
	pthread_mutex_unlock(&go_lock);
	pthread_join(holder, NULL);
	for (i = 0; i < waiters; i++)
		pthread_join(w[i], NULL);
	free(w);
	if (try_mode) {
		printf("contend: %s %s: %d of %ld trylocks failed behind a %ld ms hold\n",
		       lock, mode, try_failed, waiters, hold);
		return try_failed == waiters ? 0 : 1;
	}
	printf("contend: %s %s: %ld waiters behind a %ld ms hold completed\n",
	       lock, mode, waiters, hold);
	return 0;
}
