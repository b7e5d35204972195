// SPDX-License-Identifier: GPL-2.0
/*
 * The probes. They run inside the tracepoints, with preemption disabled,
 * in process context only (every traced lock sleeps, every gather runs in
 * a task): they write this CPU's live statistics with plain increments and
 * touch only their own task's slots of the in-flight table. One clock read
 * per event; none, and no table, in the counting twins (mode=counting). The lock events keep
 * no raw count of their own: the stats file derives it from the per kind
 * and mode counters, one of which each such event increments.
 */
#include <linux/fs.h>
#include <linux/rmap.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include <trace/events/anon_vma.h>
#include <trace/events/i_mmap.h>
#include <trace/events/mm_all_locks.h>
#include <trace/events/mmu_gather.h>

#include "mmpreempt.h"

DEFINE_STATIC_KEY_TRUE(mmp_timed);	/* read at registration only */

static __always_inline unsigned long key_of(const void *obj, int kind,
					    bool write)
{
	/*
	 * the kind and mode sit in the address's three low bits; a struct
	 * mmu_gather starts with a pointer (include/asm-generic/tlb.h)
	 */
	BUILD_BUG_ON(__alignof__(struct anon_vma) < 8 ||
		     __alignof__(struct address_space) < 8);
	return mmp_key(obj, kind << 1 | write);
}

/*
 * The lock probes. A start event comes only from an acquisition that found
 * the lock taken, so every wait timed here is one the lock imposed. The
 * clock is read after the slot is claimed, and first thing in the events
 * that end an interval, so that an interval excludes the probe's own work.
 *
 * Each probe runs its body with the mode and the clock as constants: no
 * counter's address is computed at run time, and with the TSC as the
 * clock the body calls nothing on its way, so it saves no registers.
 * What leaves that way (a home slot taken or not the key's, ktime as the
 * clock) goes out of line, as a tail call that finishes the event.
 */

/* on_lock_start() past its home slot */
static noinline notrace void start_probing(struct mmp_stat *p,
					   unsigned long key, bool tsc)
{
	struct mmp_flight *f = mmp_flight_begin_probing(key);

	if (f) {
		p->last_flight = f;
		f->t0 = mmp_read_clock(tsc);
	} else {
		p->untracked_table_full++;
	}
}

static __always_inline void timed_start(int kind, const void *lock,
					bool write, bool tsc, bool success,
					bool contended)
{
	struct mmp_stat *p = mmp_this_stat();
	unsigned long key = key_of(lock, kind, write);
	struct mmp_flight *f = mmp_flight_home(key);

	p->lock[kind][write].started++;
	if (unlikely(!mmp_flight_claim(f, key))) {
		start_probing(p, key, tsc);
		return;
	}
	p->last_flight = f;
	f->t0 = mmp_read_clock(tsc);
}

/* hold_begin() past its home slot */
static noinline notrace void hold_probing(struct mmp_stat *p,
					  unsigned long key, u64 now)
{
	struct mmp_flight *f = mmp_flight_begin_probing(key);

	if (f) {
		p->last_flight = f;
		f->t0 = now;
	} else {
		p->untracked_table_full++;
	}
}

/* An acquisition that holds no slot yet: it gets one for its hold. */
static __always_inline void hold_begin(struct mmp_stat *p, unsigned long key,
				       u64 now)
{
	struct mmp_flight *f = mmp_flight_home(key);

	if (unlikely(!mmp_flight_claim(f, key))) {
		hold_probing(p, key, now);
		return;
	}
	p->last_flight = f;
	f->t0 = now;
}

/* A contended acquisition, its wait's slot @f and the @wait it timed */
static __always_inline void acquired_waited(struct mmp_stat *p, int kind,
					    bool write, struct mmp_flight *f,
					    u64 now, u64 wait, bool success)
{
	struct mmp_lockstat *l = &p->lock[kind][write];
	const void *lock = (const void *)(f->key & ~7UL);

	l->wait_ns += wait;
	mmp_hist_ns(l->wait_hist, wait);
	if (wait > p->wait_max[kind][write])
		p->wait_max[kind][write] = wait;
	if (unlikely(!success)) {
		l->trylock_failed++;
		mmp_flight_end(f);
	} else {
		/* the wait slot becomes the hold slot in place: no second claim */
		l->acquired++;
		p->last_flight = f;
		f->t0 = now;
	}
	/*
	 * top takes the wait here too, into the same copy: at the release it
	 * could land in another copy (a reset between) or nowhere (a detach).
	 * Last, so that its out-of-line part is a tail call.
	 */
	if (kind == MMP_ANON_VMA && static_branch_likely(&mmp_top_on))
		mmp_top_add_wait(p, lock, wait);
}

/* acquired_after_wait() for a wait the fast product cannot convert */
static noinline notrace void acquired_wait_slow(struct mmp_stat *p, int kind,
						bool write,
						struct mmp_flight *f, u64 now,
						bool success)
{
	u64 wait = mmp_elapsed_slow(p, now - f->t0);

	acquired_waited(p, kind, write, f, now, wait, success);
}

/* A contended acquisition and its wait's slot @f */
static __always_inline void acquired_after_wait(struct mmp_stat *p, int kind,
						bool write,
						struct mmp_flight *f, u64 now,
						bool success)
{
	u64 d = now - f->t0;

	if (unlikely(d > mmp_clock.fast_max)) {
		acquired_wait_slow(p, kind, write, f, now, success);
		return;
	}
	acquired_waited(p, kind, write, f, now, mmp_fast_ns(d), success);
}

/* A contended acquisition not in the last slot; its start may be untracked. */
static noinline notrace void acquired_lookup(struct mmp_stat *p, int kind,
					     bool write, unsigned long key,
					     u64 now, bool success)
{
	struct mmp_flight *f = mmp_flight_find(key);
	struct mmp_lockstat *l = &p->lock[kind][write];

	if (f) {
		acquired_after_wait(p, kind, write, f, now, success);
		return;
	}
	/* no start: the wait is unknown, the hold is not */
	p->untracked_no_start++;
	l->contended++;
	if (!success) {
		l->trylock_failed++;
		return;
	}
	l->acquired++;
	hold_begin(p, key, now);
}

static __always_inline void timed_acquired(int kind, const void *lock,
					   bool write, bool tsc, bool success,
					   bool contended)
{
	struct mmp_stat *p = mmp_this_stat();
	struct mmp_lockstat *l = &p->lock[kind][write];
	unsigned long key = key_of(lock, kind, write);
	u64 now = mmp_read_clock(tsc);
	struct mmp_flight *f;

	if (!contended) {
		if (unlikely(!success)) {
			l->trylock_failed++;
			return;
		}
		l->acquired++;
		hold_begin(p, key, now);
		return;
	}
	f = p->last_flight;
	if (unlikely(!mmp_flight_is(f, key))) {
		acquired_lookup(p, kind, write, key, now, success);
		return;
	}
	acquired_after_wait(p, kind, write, f, now, success);
}

/* A release, its hold's slot @f and the @hold it timed */
static __always_inline void released_held(struct mmp_stat *p, int kind,
					  const void *lock, bool write,
					  struct mmp_flight *f, u64 hold)
{
	struct mmp_lockstat *l = &p->lock[kind][write];

	mmp_flight_end(f);
	l->hold_ns += hold;
	mmp_hist_ns(l->hold_hist, hold);
	if (hold > p->hold_max[kind][write])
		p->hold_max[kind][write] = hold;
	/* once per acquisition: its hold (its wait went in when it ended) */
	if (kind == MMP_ANON_VMA && static_branch_likely(&mmp_top_on))
		mmp_top_account(p, lock, hold);
}

/* released_hold() for a hold the fast product cannot convert */
static noinline notrace void released_hold_slow(struct mmp_stat *p, int kind,
						const void *lock, bool write,
						struct mmp_flight *f, u64 now)
{
	released_held(p, kind, lock, write, f,
		      mmp_elapsed_slow(p, now - f->t0));
}

/* A release and its hold's slot @f */
static __always_inline void released_hold(struct mmp_stat *p, int kind,
					  const void *lock, bool write,
					  struct mmp_flight *f, u64 now)
{
	u64 d = now - f->t0;

	if (unlikely(d > mmp_clock.fast_max)) {
		released_hold_slow(p, kind, lock, write, f, now);
		return;
	}
	released_held(p, kind, lock, write, f, mmp_fast_ns(d));
}

/* A release not in the last slot; its hold may be untracked. */
static noinline notrace void released_lookup(struct mmp_stat *p, int kind,
					     const void *lock, bool write,
					     u64 now)
{
	struct mmp_flight *f = mmp_flight_find(key_of(lock, kind, write));

	if (f)
		released_hold(p, kind, lock, write, f, now);
	else
		p->lock[kind][write].released_untracked++;
}

static __always_inline void timed_released(int kind, const void *lock,
					   bool write, bool tsc, bool success,
					   bool contended)
{
	struct mmp_stat *p = mmp_this_stat();
	u64 now = mmp_read_clock(tsc);
	struct mmp_flight *f = p->last_flight;

	if (unlikely(!mmp_flight_is(f, key_of(lock, kind, write)))) {
		released_lookup(p, kind, lock, write, now);
		return;
	}
	released_hold(p, kind, lock, write, f, now);
}

/*
 * mode=counting: the twins of the timed bodies. No clock, no table; the
 * lock events' counters are the ones the timed probes keep, so the stats
 * file reads the same in both modes (with no waits or holds timed).
 */
static __always_inline void count_start(int kind, const void *lock,
					bool write, bool tsc, bool success,
					bool contended)
{
	mmp_this_stat()->lock[kind][write].started++;
}

static __always_inline void count_acquired(int kind, const void *lock,
					   bool write, bool tsc, bool success,
					   bool contended)
{
	struct mmp_lockstat *l = &mmp_this_stat()->lock[kind][write];

	l->contended += contended;
	if (success)
		l->acquired++;
	else
		l->trylock_failed++;
}

static __always_inline void count_released(int kind, const void *lock,
					   bool write, bool tsc, bool success,
					   bool contended)
{
	mmp_this_stat()->lock[kind][write].released++;
}

enum mmp_step { MMP_start, MMP_acquired, MMP_released };
enum mmp_way { MMP_probe, MMP_tsc, MMP_count };	/* ktime, TSC, counting */

static __always_inline void lock_step(enum mmp_step step, enum mmp_way way,
				      int kind, const void *lock, bool write,
				      bool success, bool contended)
{
	bool tsc = way == MMP_tsc;

	if (step == MMP_start && way == MMP_count)
		count_start(kind, lock, write, tsc, success, contended);
	else if (step == MMP_start)
		timed_start(kind, lock, write, tsc, success, contended);
	else if (step == MMP_acquired && way == MMP_count)
		count_acquired(kind, lock, write, tsc, success, contended);
	else if (step == MMP_acquired)
		timed_acquired(kind, lock, write, tsc, success, contended);
	else if (way == MMP_count)
		count_released(kind, lock, write, tsc, success, contended);
	else
		timed_released(kind, lock, write, tsc, success, contended);
}

/* write as a constant too: each branch inlines the body, offsets fixed */
static __always_inline void lock_event(enum mmp_step step, enum mmp_way way,
				       int kind, const void *lock, bool write,
				       bool success, bool contended)
{
	if (write)
		lock_step(step, way, kind, lock, true, success, contended);
	else
		lock_step(step, way, kind, lock, false, success, contended);
}

/*
 * Each lock event has three probes, and the load registers one of them
 * (mmp_probes_attach()): count_<event> in counting mode, else
 * tsc_<event> when the TSC is the clock and probe_<event> when ktime is,
 * so that no probe tests the mode or the clock. As mm/mmap_lock.c does,
 * one macro writes them all, from the tracepoints' arguments below.
 */
#define anon_vma_params(...)					\
	(void *data, struct anon_vma *av, struct anon_vma *root,	\
	 bool write, ##__VA_ARGS__)
#define anon_vma_kind	MMP_ANON_VMA
#define anon_vma_lock	root
#define i_mmap_params(...)						\
	(void *data, struct address_space *mapping, unsigned long ino,	\
	 dev_t dev, bool write, ##__VA_ARGS__)
#define i_mmap_kind	MMP_I_MMAP
#define i_mmap_lock	mapping
/* fn(..., success, contended): what the acquired event says */
#define start_call(fn, ...)	fn(__VA_ARGS__, true, false)
#define acquired_call(fn, ...)	fn(__VA_ARGS__, success, contended)
#define released_call(fn, ...)	fn(__VA_ARGS__, true, false)

/* way: probe, tsc or count; sys: anon_vma or i_mmap; the rest: extras */
#define MMP_LOCK_PROBE(way, sys, step, ...)				\
	static notrace void way##_##sys##_lock_##step			\
		sys##_params(__VA_ARGS__)				\
	{								\
		step##_call(lock_event, MMP_##step, MMP_##way,		\
			    sys##_kind, sys##_lock, write);		\
	}

MMP_LOCK_PROBE(probe, anon_vma, start)
MMP_LOCK_PROBE(tsc, anon_vma, start)
MMP_LOCK_PROBE(count, anon_vma, start)
MMP_LOCK_PROBE(probe, anon_vma, acquired, bool success, bool contended)
MMP_LOCK_PROBE(tsc, anon_vma, acquired, bool success, bool contended)
MMP_LOCK_PROBE(count, anon_vma, acquired, bool success, bool contended)
MMP_LOCK_PROBE(probe, anon_vma, released)
MMP_LOCK_PROBE(tsc, anon_vma, released)
MMP_LOCK_PROBE(count, anon_vma, released)
MMP_LOCK_PROBE(probe, i_mmap, start)
MMP_LOCK_PROBE(tsc, i_mmap, start)
MMP_LOCK_PROBE(count, i_mmap, start)
MMP_LOCK_PROBE(probe, i_mmap, acquired, bool success, bool contended)
MMP_LOCK_PROBE(tsc, i_mmap, acquired, bool success, bool contended)
MMP_LOCK_PROBE(count, i_mmap, acquired, bool success, bool contended)
MMP_LOCK_PROBE(probe, i_mmap, released)
MMP_LOCK_PROBE(tsc, i_mmap, released)
MMP_LOCK_PROBE(count, i_mmap, released)

/* Born as its own root; anon_vma_attach says when fork puts it elsewhere. */
static notrace void probe_anon_vma_alloc(void *data, struct anon_vma *av)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_anon_vma_alloc]++;
	if (static_branch_likely(&mmp_top_on))
		mmp_top_born(av);
}

static notrace void probe_anon_vma_attach(void *data, struct anon_vma *av,
					  struct anon_vma *root, struct anon_vma *parent)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_anon_vma_attach]++;
	if (static_branch_likely(&mmp_top_on))
		mmp_top_attached(p, av, root);
}

static notrace void probe_anon_vma_get(void *data, struct anon_vma *av,
				       struct anon_vma *root, int refcount)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_get]++;
}

static notrace void probe_anon_vma_get_failed(void *data, struct anon_vma *av,
					      struct anon_vma *root)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_get_failed]++;
}

static notrace void probe_anon_vma_put(void *data, struct anon_vma *av,
				       struct anon_vma *root, int refcount)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_put]++;
}

static notrace void probe_anon_vma_free(void *data, struct anon_vma *av,
					struct anon_vma *root, int refcount)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_anon_vma_free]++;
	if (av == root && static_branch_likely(&mmp_top_on))
		mmp_top_died(av);
}

static notrace void probe_anon_vma_reuse(void *data, struct anon_vma *av,
					 struct anon_vma *root,
					 unsigned long num_children)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_reuse]++;
}

/* The gather probes test the clock: one probe per event serves both. */
#define tsc_mmu_gather_start probe_mmu_gather_start
#define tsc_mmu_gather_finish probe_mmu_gather_finish

static notrace void probe_mmu_gather_start(void *data, struct mmu_gather *tlb,
					   struct mm_struct *mm, bool fullmm)
{
	struct mmp_stat *p = mmp_this_stat();
	struct mmp_flight *f;

	p->ev[MMP_EV_mmu_gather_start]++;
	if (fullmm)
		p->gathers_fullmm++;
	f = mmp_flight_begin(key_of(tlb, MMP_GATHER, false));
	if (!f) {
		p->untracked_table_full++;
		return;
	}
	f->t0 = mmp_now();
}

static notrace void probe_mmu_gather_finish(void *data, struct mmu_gather *tlb,
					    struct mm_struct *mm, bool fullmm,
					    bool nested)
{
	struct mmp_stat *p = mmp_this_stat();
	struct mmp_flight *f;
	u64 now, ns;

	p->ev[MMP_EV_mmu_gather_finish]++;
	if (nested)
		p->gathers_nested++;
	now = mmp_now();
	f = mmp_flight_find(key_of(tlb, MMP_GATHER, false));
	if (!f) {
		p->untracked_no_start++;
		return;
	}
	ns = mmp_elapsed(p, f->t0, now);
	mmp_flight_end(f);
	mmp_hist_ns(p->hist[MMP_H_GATHER_NS], ns);
	if (ns > p->gather_ns_max)
		p->gather_ns_max = ns;
}

static notrace void probe_mmu_gather_flush(void *data, struct mmu_gather *tlb,
					   struct mm_struct *mm, unsigned long pages,
					   unsigned int batches)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_flush]++;
	p->pages += pages;
	mmp_hist_add(p->hist[MMP_H_FLUSH_PAGES], pages);
}

static notrace void probe_mmu_gather_batch_alloc(void *data, struct mmu_gather *tlb,
						 struct mm_struct *mm,
						 unsigned int batch_count, bool success)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_batch_alloc]++;
	if (success)
		p->batch_alloc_ok++;
	else
		p->batch_alloc_failed++;
}

static notrace void probe_mmu_gather_resched(void *data, struct mmu_gather *tlb,
					     struct mm_struct *mm, unsigned int pages,
					     bool resched_pending)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_resched]++;
	mmp_hist_add(p->hist[MMP_H_RESCHED_PAGES], pages);
	if (resched_pending)
		p->resched_pending++;
}

static notrace void probe_mm_take_all_locks_start(void *data, struct mm_struct *mm)
{
	mmp_this_stat()->ev[MMP_EV_mm_take_all_locks_start]++;
}

static notrace void probe_mm_take_all_locks_acquired(void *data, struct mm_struct *mm,
						     unsigned int roots,
						     unsigned int mappings, int ret)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mm_take_all_locks_acquired]++;
	p->alllocks_roots += roots;
	p->alllocks_mappings += mappings;
	mmp_alllocks_record(current->pid, roots, mappings, ret);
}

static notrace void probe_mm_drop_all_locks(void *data, struct mm_struct *mm,
					    unsigned int roots, unsigned int mappings)
{
	mmp_this_stat()->ev[MMP_EV_mm_drop_all_locks]++;
}

/* mode=counting: the gather events' twins (the lock events' are above) */
static notrace void count_mmu_gather_start(void *data, struct mmu_gather *tlb,
					   struct mm_struct *mm, bool fullmm)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_start]++;
	p->gathers_fullmm += fullmm;
}

static notrace void count_mmu_gather_finish(void *data, struct mmu_gather *tlb,
					    struct mm_struct *mm, bool fullmm,
					    bool nested)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_finish]++;
	p->gathers_nested += nested;
}

/*
 * register_trace_<event>() and unregister_trace_<event>() for each event;
 * an event with a counting twin registers the probe of the load's mode.
 */
#define MMP_REG(name, probe)						\
	static int reg_##name(bool on)					\
	{								\
		typeof(probe_##name) *fn = (probe);			\
									\
		if (on)							\
			return register_trace_##name(fn, NULL);		\
		unregister_trace_##name(fn, NULL);			\
		return 0;						\
	}
#define MMP_EVENT(name) MMP_REG(name, probe_##name)
#define MMP_TIMED_EVENT(name)						\
	MMP_REG(name, !static_key_enabled(&mmp_timed) ? count_##name :	\
		      static_key_enabled(&mmp_clock_tsc) ? tsc_##name :	\
		      probe_##name)
#include "mmp_events.h"
#undef MMP_TIMED_EVENT
#undef MMP_EVENT

static int (*const regs[])(bool) = {
#define MMP_EVENT(name) reg_##name,
#include "mmp_events.h"
#undef MMP_EVENT
};

/*
 * Consumers first: mmp_events.h lists each family's events in the order
 * they happen (start, acquired, released; a gather's start, its finish;
 * alloc, attach, free), and they are attached from the last to the first.
 * So no wait, hold, gather or top entry can begin while the event that
 * ends it is not yet attached: it would keep its slot for good, and a
 * later task_struct at the same address could match it and read a hold
 * of seconds. An end whose beginning came before the attach is counted
 * untracked instead. Detaching goes producers first, for the same reason.
 */
int mmp_probes_attach(void)
{
	int i, ret;

	for (i = ARRAY_SIZE(regs) - 1; i >= 0; i--) {
		ret = regs[i](true);
		if (ret) {
			while (++i < (int)ARRAY_SIZE(regs))
				regs[i](false);
			tracepoint_synchronize_unregister();
			return ret;
		}
	}
	return 0;
}

/* Producers first; returns once no probe can still be running. */
void mmp_probes_detach(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(regs); i++)
		regs[i](false);
	tracepoint_synchronize_unregister();
}
