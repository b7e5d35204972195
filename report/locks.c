// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma and i_mmap lock waits and holds. A lock is the anon_vma tree's
 * root (the rwsem lives there) or the address_space. An acquisition is
 * contended when its acquired event says so (contended=true): the kernel
 * knows, a clock threshold would only guess. Only a contended acquisition
 * has a wait: lock_start, emitted when the task is about to block, to the
 * acquired event of the same task, lock and mode. Hold: acquired (success)
 * to released by the same task. A release by a task that holds nothing
 * there while another task does breaks the "released by its acquirer"
 * invariant; a release nobody in the trace acquired was taken before the
 * trace began, and is only counted.
 */
#include <stdlib.h>

#include "grow.h"
#include "hmap.h"
#include "report.h"

static const char *const kind_names[2] = { "anon_vma", "i_mmap" };

struct kindstat {
	struct dist wait[2], hold[2];
	u64 started[2], acquired[2], failed[2], contended[2], released[2];
	u64 before_trace[2], nested[2];
	u64 wait_before_trace[2];	/* contended, its lock_start not in the trace */
	u64 no_field;			/* acquired events with no contended field */
	u64 switched, switched_runnable;
	struct dist offcpu;	/* a holder's time switched out */
};

struct rootstat {
	u64 root, holds, hold_ns, hold_max, waits, wait_ns, members;
	char comm[32];
};

static struct kindstat ks[2];
/*
 * (pid, W_LOCK/W_TS/W_MODE) -> the lock, time and kind << 1 | write of the
 * task's lock_start: a task blocks on one lock at a time, so whatever it
 * acquires next must be that lock, in that mode, contended.
 */
static struct hmap waiting;
enum { W_LOCK, W_TS, W_MODE };
static struct hmap holds;	/* (lock, key) -> ts of acquired */
static struct hmap nest;	/* (lock, key) -> holds of it beyond the first */
static struct hmap holders;	/* (lock, kind<<1|write) -> tasks holding it */
static struct hmap holder_pid;	/* (lock, kind<<1|write) -> a pid holding it */
static struct hmap task_held;	/* (pid, kind) -> locks held */
static struct hmap switched_at;	/* (pid, kind) -> ts of the switch-out */
static struct hmap rootidx;	/* (root, 0) -> index + 1 */
static struct hmap member;	/* (anon_vma, root) -> seen */
static struct rootstat *roots;
static size_t nroots, caproots;

static const char *const mode_names[2] = { "read", "write" };

static u64 key(int pid, int kind, int write)
{
	return (u64)(uint32_t)pid << 2 | kind << 1 | write;
}

static struct rootstat *root_of(const struct mm_event *e)
{
	u64 r = fu(e, F_ROOT), *ix = hmap_get(&rootidx, r, 0, true);

	if (!*ix) {
		grow(&roots, &caproots, nroots, sizeof(*roots));
		roots[nroots] = (struct rootstat){ .root = r };
		snprintf(roots[nroots].comm, sizeof(roots[nroots].comm), "%s", e->comm);
		*ix = ++nroots;
	}
	if (!hmap_get(&member, fu(e, F_ANON_VMA), r, false)) {
		*hmap_get(&member, fu(e, F_ANON_VMA), r, true) = 1;
		roots[*ix - 1].members++;
	}
	return &roots[*ix - 1];
}

static void on_switch(const struct mm_event *e)
{
	for (int k = 0; k < 2; k++) {
		u64 *n = hmap_get(&task_held, fu(e, F_PREV_PID), k, false), *at;

		if (n && *n) {
			ks[k].switched++;
			if (switched_runnable(e))
				ks[k].switched_runnable++;
			*hmap_get(&switched_at, fu(e, F_PREV_PID), k, true) = e->ts;
		}
		at = hmap_get(&switched_at, fu(e, F_NEXT_PID), k, false);
		if (at) {
			dist_add(&ks[k].offcpu, e->ts - *at);
			hmap_del(&switched_at, fu(e, F_NEXT_PID), k);
		}
	}
}

static bool waiting_of(int pid, u64 *lock, u64 *ts, u64 *mode)
{
	u64 *l = hmap_get(&waiting, (uint32_t)pid, W_LOCK, false);

	if (!l)
		return false;
	*lock = *l;
	*ts = *hmap_get(&waiting, (uint32_t)pid, W_TS, true);
	*mode = *hmap_get(&waiting, (uint32_t)pid, W_MODE, true);
	return true;
}

static void waiting_end(int pid)
{
	for (int i = W_LOCK; i <= W_MODE; i++)
		hmap_del(&waiting, (uint32_t)pid, i);
}

static void lock_start(const struct mm_event *e, int kind, int w, u64 lock)
{
	u64 wl, at, mode;

	ks[kind].started[w]++;
	if (waiting_of(e->pid, &wl, &at, &mode))
		violation(INV_WAIT, e, "lock_start while pid %d still waits for the %s %s "
			  "lock 0x%llx", e->pid, kind_names[mode >> 1], mode_names[mode & 1],
			  (unsigned long long)wl);
	*hmap_get(&waiting, (uint32_t)e->pid, W_LOCK, true) = lock;
	*hmap_get(&waiting, (uint32_t)e->pid, W_TS, true) = e->ts;
	*hmap_get(&waiting, (uint32_t)e->pid, W_MODE, true) = kind << 1 | w;
}

/* The wait this acquisition ends, if it was contended, and the wait check. */
static void acquired_wait(const struct mm_event *e, int kind, int w, u64 lock)
{
	bool contended = e->f[F_CONTENDED], waited;
	u64 wl, at, mode;

	waited = waiting_of(e->pid, &wl, &at, &mode);
	if (!has(e, F_CONTENDED)) {
		/* a kernel before the field traced a start for every acquisition */
		ks[kind].no_field++;
		if (waited)
			waiting_end(e->pid);
		return;
	}
	if (contended)
		ks[kind].contended[w]++;
	if (contended || waited)
		inv_count(INV_WAIT);
	if (contended && !e->f[F_SUCCESS])
		violation(INV_WAIT, e, "a failed acquisition marked contended (a trylock "
			  "never waits)");
	if (!waited) {
		if (contended)
			ks[kind].wait_before_trace[w]++;
		return;
	}
	if (wl != lock || mode != (u64)(kind << 1 | w) || !contended) {
		violation(INV_WAIT, e, "pid %d's lock_start of the %s %s lock 0x%llx ends in "
			  "%s acquisition of the %s %s lock 0x%llx", e->pid,
			  kind_names[mode >> 1], mode_names[mode & 1], (unsigned long long)wl,
			  contended ? "a contended" : "an uncontended", kind_names[kind],
			  mode_names[w], (unsigned long long)lock);
	} else {
		dist_add(&ks[kind].wait[w], e->ts - at);
		if (!kind) {
			struct rootstat *r = root_of(e);

			r->waits++;
			r->wait_ns += e->ts - at;
		}
	}
	waiting_end(e->pid);
}

void locks_event(const struct mm_event *e)
{
	int kind, w;
	u64 lock, k, *p;

	switch (e->type) {
	case EV_AV_LOCK_START: case EV_AV_LOCK_ACQUIRED: case EV_AV_LOCK_RELEASED:
		kind = 0;
		lock = fu(e, F_ROOT);
		break;
	case EV_IM_LOCK_START: case EV_IM_LOCK_ACQUIRED: case EV_IM_LOCK_RELEASED:
		kind = 1;
		lock = fu(e, F_MAPPING);
		break;
	case EV_SCHED_SWITCH:
		on_switch(e);
		return;
	default:
		return;
	}
	w = !!e->f[F_WRITE];
	k = key(e->pid, kind, w);
	switch (e->type) {
	case EV_AV_LOCK_START: case EV_IM_LOCK_START:
		lock_start(e, kind, w, lock);
		break;
	case EV_AV_LOCK_ACQUIRED: case EV_IM_LOCK_ACQUIRED:
		acquired_wait(e, kind, w, lock);
		if (!e->f[F_SUCCESS]) {
			ks[kind].failed[w]++;
			break;
		}
		ks[kind].acquired[w]++;
		(*hmap_get(&task_held, e->pid, kind, true))++;
		p = hmap_get(&holds, lock, k, false);
		if (p) {
			(*hmap_get(&nest, lock, k, true))++;	/* read lock taken again */
			break;
		}
		*hmap_get(&holds, lock, k, true) = e->ts;
		(*hmap_get(&holders, lock, kind << 1 | w, true))++;
		*hmap_get(&holder_pid, lock, kind << 1 | w, true) = e->pid;
		break;
	default:	/* released */
		ks[kind].released[w]++;
		inv_count(INV_LOCK);
		p = hmap_get(&nest, lock, k, false);
		if (p && *p) {
			ks[kind].nested[w]++;
			if (!--*p)
				hmap_del(&nest, lock, k);
			(*hmap_get(&task_held, e->pid, kind, true))--;
			break;
		}
		p = hmap_get(&holds, lock, k, false);
		if (!p) {
			u64 *h = hmap_get(&holders, lock, kind << 1 | w, false);

			if (h && *h)
				violation(INV_LOCK, e, "%s %s lock released by pid %d, "
					  "which does not hold it; pid %llu does", kind_names[kind],
					  mode_names[w], e->pid,
					  (unsigned long long)*hmap_get(&holder_pid, lock,
									kind << 1 | w, true));
			else
				ks[kind].before_trace[w]++;
			break;
		}
		dist_add(&ks[kind].hold[w], e->ts - *p);
		if (!kind) {
			struct rootstat *r = root_of(e);

			r->holds++;
			r->hold_ns += e->ts - *p;
			if (e->ts - *p > r->hold_max)
				r->hold_max = e->ts - *p;
		}
		hmap_del(&holds, lock, k);
		if (!--*hmap_get(&holders, lock, kind << 1 | w, true))
			hmap_del(&holders, lock, kind << 1 | w);
		(*hmap_get(&task_held, e->pid, kind, true))--;
		break;
	}
}

struct dist *locks_hold(int kind, int write)
{
	return &ks[kind].hold[write];
}

static int by_hold(const void *a, const void *b)
{
	const struct rootstat *x = a, *y = b;

	return x->hold_ns < y->hold_ns ? 1 : x->hold_ns > y->hold_ns ? -1 : 0;
}

void locks_report(FILE *f, const struct report_opts *o)
{
	char a[24], b[24];
	size_t held_at_end = 0, waiting_at_end = 0;

	hmap_for_each(&holds, it)
		held_at_end++;
	fprintf(f, "== locks: wait = lock_start to its contended acquisition (contended: the "
		"acquired event says the task had to wait), hold = acquired to released\n");
	for (int k = 0; k < 2; k++)
		for (int w = 0; w < 2; w++) {
			if (!ks[k].started[w] && !ks[k].acquired[w] && !ks[k].failed[w] &&
			    !ks[k].released[w])
				continue;
			fprintf(f, "%-8s %-5s acquired %llu (%llu contended), trylock failed %llu, "
				"released %llu (%llu taken before the trace, %llu nested)\n",
				kind_names[k], mode_names[w], (unsigned long long)ks[k].acquired[w],
				(unsigned long long)ks[k].contended[w],
				(unsigned long long)ks[k].failed[w],
				(unsigned long long)ks[k].released[w],
				(unsigned long long)ks[k].before_trace[w],
				(unsigned long long)ks[k].nested[w]);
			fprintf(f, "  wait: ");
			dist_line(f, &ks[k].wait[w], "ns");
			if (ks[k].wait_before_trace[w])
				fprintf(f, " (and %llu waits begun before the trace)",
					(unsigned long long)ks[k].wait_before_trace[w]);
			fprintf(f, "\n  hold: ");
			dist_line(f, &ks[k].hold[w], "ns");
			fprintf(f, " total=%s\n", fmt_ns(ks[k].hold[w].sum, a, sizeof(a)));
		}
	for (int k = 0; k < 2; k++)
		if (ks[k].no_field)
			fprintf(f, "%s: %llu acquired events have no contended field (a kernel "
				"before it): their contention and waits are not counted\n",
				kind_names[k], (unsigned long long)ks[k].no_field);
	hmap_for_each(&waiting, it)
		waiting_at_end += it->k2 == W_LOCK;
	if (waiting_at_end)
		fprintf(f, "tasks still waiting for a lock when the trace ended: %zu\n",
			waiting_at_end);
	fprintf(f, "locks still held when the trace ended: %zu\n", held_at_end);
	for (int k = 0; k < 2; k++)
		if (ks[k].switched)
			fprintf(f, "%s holders switched out while holding: %llu (%llu still runnable: "
				"preempted or yielding; %llu asleep); off CPU p50 %s, longest %s\n",
				kind_names[k], (unsigned long long)ks[k].switched,
				(unsigned long long)ks[k].switched_runnable,
				(unsigned long long)(ks[k].switched - ks[k].switched_runnable),
				fmt_ns(dist_pct(&ks[k].offcpu, 50), a, sizeof(a)),
				fmt_ns(ks[k].offcpu.max, b, sizeof(b)));
	fputc('\n', f);
	for (int k = 0; k < 2; k++)
		for (int w = 0; w < 2; w++) {
			char name[48];

			if (!ks[k].hold[w].n)
				continue;
			snprintf(name, sizeof(name), "%s_%s_hold_ns", kind_names[k], mode_names[w]);
			dist_hist(f, &ks[k].hold[w], name, o->brief);
		}
	qsort(roots, nroots, sizeof(*roots), by_hold);
	fprintf(f, "== anon_vma roots by total hold time (top %d of %zu)\n", o->top, nroots);
	fprintf(f, "%-20s %12s %7s %12s %12s %8s %s\n", "root", "hold total", "holds",
		"hold max", "wait total", "anon_vmas", "first locker");
	for (size_t i = 0; i < nroots && i < (size_t)o->top; i++) {
		char h[24], m[24], wt[24];

		fprintf(f, "0x%-18llx %12s %7llu %12s %12s %8llu %s\n",
			(unsigned long long)roots[i].root, fmt_ns(roots[i].hold_ns, h, sizeof(h)),
			(unsigned long long)roots[i].holds, fmt_ns(roots[i].hold_max, m, sizeof(m)),
			fmt_ns(roots[i].wait_ns, wt, sizeof(wt)),
			(unsigned long long)roots[i].members, roots[i].comm);
	}
	fputc('\n', f);
}
