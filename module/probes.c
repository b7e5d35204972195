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
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include <trace/events/anon_vma.h>
#include <trace/events/i_mmap.h>
#include <trace/events/mm_all_locks.h>
#include <trace/events/mmu_gather.h>

#include "mmpreempt.h"

DEFINE_STATIC_KEY_TRUE(mmp_timed);	/* read at registration only */

static __always_inline unsigned int km_of(int kind, bool write)
{
	return kind << 1 | write;
}

/*
 * A start event comes only from an acquisition that found the lock taken,
 * so every wait timed here is one the lock imposed. The clock is read
 * after the slot is claimed, and first thing in the events that end an
 * interval, so that an interval excludes the probe's own work.
 */
static __always_inline void on_lock_start(struct mmp_stat *p, int kind,
					  const void *lock, bool write)
{
	struct mmp_flight *f;

	p->lock[kind][write].started++;
	f = mmp_flight_begin(lock, km_of(kind, write));
	if (!f) {
		p->untracked_table_full++;
		return;
	}
	f->t0 = mmp_now();
}

/* The wait slot becomes the hold slot in place: no second claim. */
static __always_inline void on_lock_acquired(struct mmp_stat *p, int kind,
					     const void *lock, bool write,
					     bool success, bool contended)
{
	struct mmp_lockstat *l = &p->lock[kind][write];
	struct mmp_flight *f = NULL;
	u64 now = mmp_now(), wait = 0;

	if (contended) {
		l->contended++;
		f = mmp_flight_find(lock, km_of(kind, write));
		if (f) {
			wait = mmp_elapsed(p, f->t0, now);
			l->wait_ns += wait;
			l->waits++;
			mmp_hist_add(l->wait_hist, wait);
			if (wait > p->wait_max[kind][write])
				p->wait_max[kind][write] = wait;
		} else {
			p->untracked_no_start++;
		}
	}
	if (!success) {
		l->trylock_failed++;
		if (f)
			mmp_flight_end(f);
		return;
	}
	l->acquired++;
	if (!f)
		f = mmp_flight_begin(lock, km_of(kind, write));
	if (!f) {
		p->untracked_table_full++;
		return;
	}
	f->t0 = now;
	f->wait_ns = wait;
}

static __always_inline void on_lock_released(struct mmp_stat *p, int kind,
					     const void *lock, bool write)
{
	struct mmp_lockstat *l = &p->lock[kind][write];
	struct mmp_flight *f;
	u64 now, hold, wait;

	l->released++;
	now = mmp_now();
	f = mmp_flight_find(lock, km_of(kind, write));
	if (!f) {
		p->untracked_no_hold++;
		return;
	}
	hold = mmp_elapsed(p, f->t0, now);
	wait = f->wait_ns;
	mmp_flight_end(f);
	l->hold_ns += hold;
	l->holds++;
	mmp_hist_add(l->hold_hist, hold);
	if (hold > p->hold_max[kind][write])
		p->hold_max[kind][write] = hold;
	/* once per acquisition: its wait and its hold together */
	if (kind == MMP_ANON_VMA && static_branch_likely(&mmp_top_on))
		mmp_top_account(p, lock, wait, hold);
}

static void probe_anon_vma_lock_start(void *data, struct anon_vma *av,
				      struct anon_vma *root, bool write)
{
	struct mmp_stat *p = mmp_this_stat();

	on_lock_start(p, MMP_ANON_VMA, root, write);
}

static void probe_anon_vma_lock_acquired(void *data, struct anon_vma *av,
					 struct anon_vma *root, bool write,
					 bool success, bool contended)
{
	struct mmp_stat *p = mmp_this_stat();

	on_lock_acquired(p, MMP_ANON_VMA, root, write, success, contended);
}

static void probe_anon_vma_lock_released(void *data, struct anon_vma *av,
					 struct anon_vma *root, bool write)
{
	struct mmp_stat *p = mmp_this_stat();

	on_lock_released(p, MMP_ANON_VMA, root, write);
}

/* Born as its own root; anon_vma_attach says when fork puts it elsewhere. */
static void probe_anon_vma_alloc(void *data, struct anon_vma *av)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_alloc]++;
	if (static_branch_likely(&mmp_top_on))
		mmp_top_born(av, av);
}

static void probe_anon_vma_attach(void *data, struct anon_vma *av,
				  struct anon_vma *root, struct anon_vma *parent)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_attach]++;
	if (static_branch_likely(&mmp_top_on))
		mmp_top_attached(av, root);
}

static void probe_anon_vma_get(void *data, struct anon_vma *av,
			       struct anon_vma *root, int refcount)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_get]++;
}

static void probe_anon_vma_get_failed(void *data, struct anon_vma *av,
				      struct anon_vma *root)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_get_failed]++;
}

static void probe_anon_vma_put(void *data, struct anon_vma *av,
			       struct anon_vma *root, int refcount)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_put]++;
}

static void probe_anon_vma_free(void *data, struct anon_vma *av,
				struct anon_vma *root, int refcount)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_free]++;
	if (av == root && static_branch_likely(&mmp_top_on))
		mmp_top_died(av);
}

static void probe_anon_vma_reuse(void *data, struct anon_vma *av,
				 struct anon_vma *root,
				 unsigned long num_children)
{
	mmp_this_stat()->ev[MMP_EV_anon_vma_reuse]++;
}

static void probe_i_mmap_lock_start(void *data, struct address_space *mapping,
				    unsigned long ino, dev_t dev, bool write)
{
	struct mmp_stat *p = mmp_this_stat();

	on_lock_start(p, MMP_I_MMAP, mapping, write);
}

static void probe_i_mmap_lock_acquired(void *data,
				       struct address_space *mapping,
				       unsigned long ino, dev_t dev, bool write,
				       bool success, bool contended)
{
	struct mmp_stat *p = mmp_this_stat();

	on_lock_acquired(p, MMP_I_MMAP, mapping, write, success, contended);
}

static void probe_i_mmap_lock_released(void *data,
				       struct address_space *mapping,
				       unsigned long ino, dev_t dev, bool write)
{
	struct mmp_stat *p = mmp_this_stat();

	on_lock_released(p, MMP_I_MMAP, mapping, write);
}

static void probe_mmu_gather_start(void *data, struct mmu_gather *tlb,
				   struct mm_struct *mm, bool fullmm)
{
	struct mmp_stat *p = mmp_this_stat();
	struct mmp_flight *f;

	p->ev[MMP_EV_mmu_gather_start]++;
	if (fullmm)
		p->gathers_fullmm++;
	f = mmp_flight_begin(tlb, km_of(MMP_HOLD_GATHER, 0));
	if (!f) {
		p->untracked_table_full++;
		return;
	}
	f->t0 = mmp_now();
}

static void probe_mmu_gather_finish(void *data, struct mmu_gather *tlb,
				    struct mm_struct *mm, bool fullmm,
				    bool nested, unsigned long pages,
				    unsigned int flushes)
{
	struct mmp_stat *p = mmp_this_stat();
	struct mmp_flight *f;
	u64 now, ns;

	p->ev[MMP_EV_mmu_gather_finish]++;
	if (nested)
		p->gathers_nested++;
	now = mmp_now();
	f = mmp_flight_find(tlb, km_of(MMP_HOLD_GATHER, 0));
	if (!f) {
		p->untracked_no_start++;
		return;
	}
	ns = mmp_elapsed(p, f->t0, now);
	mmp_flight_end(f);
	mmp_hist_add(p->hist[MMP_H_GATHER_NS], ns);
	if (ns > p->gather_ns_max)
		p->gather_ns_max = ns;
}

static void probe_mmu_gather_flush(void *data, struct mmu_gather *tlb,
				   struct mm_struct *mm, unsigned long pages,
				   unsigned int batches)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_flush]++;
	p->pages += pages;
	mmp_hist_add(p->hist[MMP_H_FLUSH_PAGES], pages);
}

static void probe_mmu_gather_batch_alloc(void *data, struct mmu_gather *tlb,
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

static void probe_mmu_gather_resched(void *data, struct mmu_gather *tlb,
				     struct mm_struct *mm, unsigned int pages,
				     bool need_resched)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_resched]++;
	mmp_hist_add(p->hist[MMP_H_RESCHED_PAGES], pages);
	if (need_resched)
		p->resched_pending++;
}

static void probe_mm_take_all_locks_start(void *data, struct mm_struct *mm)
{
	mmp_this_stat()->ev[MMP_EV_mm_take_all_locks_start]++;
}

static void probe_mm_take_all_locks_acquired(void *data, struct mm_struct *mm,
					     unsigned int roots,
					     unsigned int mappings, int ret)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mm_take_all_locks_acquired]++;
	p->alllocks_roots += roots;
	p->alllocks_mappings += mappings;
	mmp_alllocks_record(current->pid, roots, mappings, ret);
}

static void probe_mm_drop_all_locks(void *data, struct mm_struct *mm,
				    unsigned int roots, unsigned int mappings)
{
	mmp_this_stat()->ev[MMP_EV_mm_drop_all_locks]++;
}

/*
 * mode=counting: the twins of the timed probes. No clock, no table; the
 * lock events' counters are the ones the timed probes keep, so the stats
 * file reads the same in both modes (with no waits or holds timed).
 */
static void count_anon_vma_lock_start(void *data, struct anon_vma *av,
				      struct anon_vma *root, bool write)
{
	mmp_this_stat()->lock[MMP_ANON_VMA][write].started++;
}

static __always_inline void count_acquired(int kind, bool write, bool success,
					   bool contended)
{
	struct mmp_lockstat *l = &mmp_this_stat()->lock[kind][write];

	l->contended += contended;
	if (success)
		l->acquired++;
	else
		l->trylock_failed++;
}

static void count_anon_vma_lock_acquired(void *data, struct anon_vma *av,
					 struct anon_vma *root, bool write,
					 bool success, bool contended)
{
	count_acquired(MMP_ANON_VMA, write, success, contended);
}

static void count_anon_vma_lock_released(void *data, struct anon_vma *av,
					 struct anon_vma *root, bool write)
{
	mmp_this_stat()->lock[MMP_ANON_VMA][write].released++;
}

static void count_i_mmap_lock_start(void *data, struct address_space *mapping,
				    unsigned long ino, dev_t dev, bool write)
{
	mmp_this_stat()->lock[MMP_I_MMAP][write].started++;
}

static void count_i_mmap_lock_acquired(void *data,
				       struct address_space *mapping,
				       unsigned long ino, dev_t dev, bool write,
				       bool success, bool contended)
{
	count_acquired(MMP_I_MMAP, write, success, contended);
}

static void count_i_mmap_lock_released(void *data,
				       struct address_space *mapping,
				       unsigned long ino, dev_t dev, bool write)
{
	mmp_this_stat()->lock[MMP_I_MMAP][write].released++;
}

static void count_mmu_gather_start(void *data, struct mmu_gather *tlb,
				   struct mm_struct *mm, bool fullmm)
{
	struct mmp_stat *p = mmp_this_stat();

	p->ev[MMP_EV_mmu_gather_start]++;
	p->gathers_fullmm += fullmm;
}

static void count_mmu_gather_finish(void *data, struct mmu_gather *tlb,
				    struct mm_struct *mm, bool fullmm,
				    bool nested, unsigned long pages,
				    unsigned int flushes)
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
	MMP_REG(name, static_key_enabled(&mmp_timed) ? probe_##name :	\
						       count_##name)
#include "mmp_events.h"
#undef MMP_TIMED_EVENT
#undef MMP_EVENT

static int (*const regs[])(bool) = {
#define MMP_EVENT(name) reg_##name,
#include "mmp_events.h"
#undef MMP_EVENT
};

int mmp_probes_attach(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		ret = regs[i](true);
		if (ret) {
			while (--i >= 0)
				regs[i](false);
			tracepoint_synchronize_unregister();
			return ret;
		}
	}
	return 0;
}

/* Returns once no probe can still be running. */
void mmp_probes_detach(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(regs); i++)
		regs[i](false);
	tracepoint_synchronize_unregister();
}
