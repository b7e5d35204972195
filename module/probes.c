// SPDX-License-Identifier: GPL-2.0
/*
 * The probes. They run inside the tracepoints, with preemption disabled:
 * per-CPU counters only, no allocation; the hold table and the top table
 * take a bucket lock, shared only by colliding keys.
 */
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include <trace/events/anon_vma.h>
#include <trace/events/i_mmap.h>
#include <trace/events/mm_all_locks.h>
#include <trace/events/mmu_gather.h>

#include "mmpreempt.h"

static void count(enum mmp_event ev)
{
	this_cpu_inc(mmp_pcpu->ev[ev]);
}

/*
 * Every probe reads the clock first, so that a wait or hold excludes the
 * probe's own work as far as it can. A start event comes only from an
 * acquisition that found the lock taken, so every wait timed here is one
 * the lock imposed.
 */
static void on_lock_start(int kind, const void *lock, bool write)
{
	u64 now = ktime_get_ns();

	this_cpu_inc(mmp_pcpu->lock[kind][write].started);
	if (!mmp_hold_begin(current, lock, kind, write, now))
		this_cpu_inc(mmp_pcpu->untracked_table_full);
}

static void on_lock_acquired(int kind, const void *lock, bool write,
			     bool success, bool contended)
{
	u64 now = ktime_get_ns(), t0, wait;
	struct mmp_pcpu *p = this_cpu_ptr(mmp_pcpu);
	struct mmp_lockstat *l = &p->lock[kind][write];

	if (contended) {
		l->contended++;
		if (mmp_hold_end(current, lock, kind, write, &t0)) {
			wait = now - t0;
			l->wait_ns += wait;
			l->waits++;
			mmp_hist_add(l->wait_hist, wait);
			mmp_max_update(&p->wait_max[kind][write], wait);
			if (kind == MMP_ANON_VMA)
				mmp_top_account(lock, wait, 0);
		} else {
			p->untracked_no_start++;
		}
	}
	if (!success) {
		l->trylock_failed++;
		return;
	}
	l->acquired++;
	if (!mmp_hold_begin(current, lock, kind, write, now))
		p->untracked_table_full++;
}

static void on_lock_released(int kind, const void *lock, bool write)
{
	u64 now = ktime_get_ns(), t0, hold;
	struct mmp_pcpu *p = this_cpu_ptr(mmp_pcpu);
	struct mmp_lockstat *l = &p->lock[kind][write];

	l->released++;
	if (!mmp_hold_end(current, lock, kind, write, &t0)) {
		p->untracked_no_hold++;
		return;
	}
	hold = now - t0;
	l->hold_ns += hold;
	l->holds++;
	mmp_hist_add(l->hold_hist, hold);
	mmp_max_update(&p->hold_max[kind][write], hold);
	if (kind == MMP_ANON_VMA)
		mmp_top_account(lock, 0, hold);
}

static void probe_anon_vma_lock_start(void *data, struct anon_vma *av,
				      struct anon_vma *root, bool write)
{
	count(MMP_EV_anon_vma_lock_start);
	on_lock_start(MMP_ANON_VMA, root, write);
}

static void probe_anon_vma_lock_acquired(void *data, struct anon_vma *av,
					 struct anon_vma *root, bool write,
					 bool success, bool contended)
{
	count(MMP_EV_anon_vma_lock_acquired);
	on_lock_acquired(MMP_ANON_VMA, root, write, success, contended);
}

static void probe_anon_vma_lock_released(void *data, struct anon_vma *av,
					 struct anon_vma *root, bool write)
{
	count(MMP_EV_anon_vma_lock_released);
	on_lock_released(MMP_ANON_VMA, root, write);
}

/* Born as its own root; anon_vma_attach says when fork puts it elsewhere. */
static void probe_anon_vma_alloc(void *data, struct anon_vma *av)
{
	count(MMP_EV_anon_vma_alloc);
	mmp_top_born(av, av);
}

static void probe_anon_vma_attach(void *data, struct anon_vma *av,
				  struct anon_vma *root, struct anon_vma *parent)
{
	count(MMP_EV_anon_vma_attach);
	mmp_top_attached(av, root);
}

static void probe_anon_vma_get(void *data, struct anon_vma *av,
			       struct anon_vma *root, int refcount)
{
	count(MMP_EV_anon_vma_get);
}

static void probe_anon_vma_get_failed(void *data, struct anon_vma *av,
				      struct anon_vma *root, int refcount)
{
	count(MMP_EV_anon_vma_get_failed);
}

static void probe_anon_vma_put(void *data, struct anon_vma *av,
			       struct anon_vma *root, int refcount)
{
	count(MMP_EV_anon_vma_put);
}

static void probe_anon_vma_free(void *data, struct anon_vma *av,
				struct anon_vma *root, int refcount)
{
	count(MMP_EV_anon_vma_free);
	if (av == root)
		mmp_top_died(av);
}

static void probe_anon_vma_reuse(void *data, struct anon_vma *av,
				 struct anon_vma *root,
				 unsigned long num_children,
				 unsigned long num_active_vmas)
{
	count(MMP_EV_anon_vma_reuse);
}

static void probe_i_mmap_lock_start(void *data, struct address_space *mapping,
				    unsigned long ino, dev_t dev, bool write)
{
	count(MMP_EV_i_mmap_lock_start);
	on_lock_start(MMP_I_MMAP, mapping, write);
}

static void probe_i_mmap_lock_acquired(void *data,
				       struct address_space *mapping,
				       unsigned long ino, dev_t dev, bool write,
				       bool success, bool contended)
{
	count(MMP_EV_i_mmap_lock_acquired);
	on_lock_acquired(MMP_I_MMAP, mapping, write, success, contended);
}

static void probe_i_mmap_lock_released(void *data,
				       struct address_space *mapping,
				       unsigned long ino, dev_t dev, bool write)
{
	count(MMP_EV_i_mmap_lock_released);
	on_lock_released(MMP_I_MMAP, mapping, write);
}

static void probe_mmu_gather_start(void *data, struct mmu_gather *tlb,
				   struct mm_struct *mm, bool fullmm)
{
	u64 now = ktime_get_ns();

	count(MMP_EV_mmu_gather_start);
	if (fullmm)
		this_cpu_inc(mmp_pcpu->gathers_fullmm);
	if (!mmp_hold_begin(current, tlb, MMP_HOLD_GATHER, 0, now))
		this_cpu_inc(mmp_pcpu->untracked_table_full);
}

static void probe_mmu_gather_finish(void *data, struct mmu_gather *tlb,
				    struct mm_struct *mm, bool fullmm,
				    bool nested, unsigned long pages,
				    unsigned int flushes)
{
	u64 now = ktime_get_ns(), t0, ns;
	struct mmp_pcpu *p = this_cpu_ptr(mmp_pcpu);

	count(MMP_EV_mmu_gather_finish);
	if (nested)
		p->gathers_nested++;
	if (!mmp_hold_end(current, tlb, MMP_HOLD_GATHER, 0, &t0)) {
		p->untracked_no_start++;
		return;
	}
	ns = now - t0;
	mmp_hist_add(p->hist[MMP_H_GATHER_NS], ns);
	mmp_max_update(&p->gather_ns_max, ns);
}

static void probe_mmu_gather_flush(void *data, struct mmu_gather *tlb,
				   struct mm_struct *mm, unsigned long pages,
				   unsigned int batches)
{
	struct mmp_pcpu *p = this_cpu_ptr(mmp_pcpu);

	count(MMP_EV_mmu_gather_flush);
	p->pages += pages;
	mmp_hist_add(p->hist[MMP_H_FLUSH_PAGES], pages);
}

static void probe_mmu_gather_batch_alloc(void *data, struct mmu_gather *tlb,
					 struct mm_struct *mm,
					 unsigned int batch_count, bool success)
{
	count(MMP_EV_mmu_gather_batch_alloc);
	if (success)
		this_cpu_inc(mmp_pcpu->batch_alloc_ok);
	else
		this_cpu_inc(mmp_pcpu->batch_alloc_failed);
}

static void probe_mmu_gather_resched(void *data, struct mmu_gather *tlb,
				     struct mm_struct *mm, unsigned int pages,
				     bool need_resched)
{
	struct mmp_pcpu *p = this_cpu_ptr(mmp_pcpu);

	count(MMP_EV_mmu_gather_resched);
	mmp_hist_add(p->hist[MMP_H_RESCHED_PAGES], pages);
	if (need_resched)
		p->resched_pending++;
}

static void probe_mm_take_all_locks_start(void *data, struct mm_struct *mm)
{
	count(MMP_EV_mm_take_all_locks_start);
}

static void probe_mm_take_all_locks_acquired(void *data, struct mm_struct *mm,
					     unsigned int roots,
					     unsigned int mappings, int ret)
{
	struct mmp_pcpu *p = this_cpu_ptr(mmp_pcpu);

	count(MMP_EV_mm_take_all_locks_acquired);
	p->alllocks_roots += roots;
	p->alllocks_mappings += mappings;
	mmp_alllocks_record(current->pid, roots, mappings, ret);
}

static void probe_mm_drop_all_locks(void *data, struct mm_struct *mm,
				    unsigned int roots, unsigned int mappings,
				    int ret)
{
	count(MMP_EV_mm_drop_all_locks);
}

/* register_trace_<event>() and unregister_trace_<event>() for each event */
#define MMP_REG(name)							\
	static int reg_##name(bool on)					\
	{								\
		if (on)							\
			return register_trace_##name(probe_##name, NULL); \
		unregister_trace_##name(probe_##name, NULL);		\
		return 0;						\
	}
#define MMP_EVENT(name) MMP_REG(name)
#include "mmp_events.h"
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
