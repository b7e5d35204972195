/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmpreempt.ko: counters, histograms and hold tracking for the anon_vma,
 * i_mmap, mmu_gather and mm_all_locks trace events.
 */
#ifndef MMPREEMPT_H
#define MMPREEMPT_H

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#ifdef CONFIG_X86
#include <asm/msr.h>
#endif

/* Every event the module attaches to, counted raw (list: mmp_events.h) */
enum mmp_event {
#define MMP_EVENT(name) MMP_EV_##name,
#include "mmp_events.h"
#undef MMP_EVENT
	MMP_NR_EVENTS
};

/* log2 buckets: slot i counts values in [2^(i-1), 2^i), slot 0 counts 0 */
#define MMP_HIST_SLOTS 64

static inline void mmp_hist_add(u64 *hist, u64 v)
{
	hist[min_t(unsigned int, fls64(v), MMP_HIST_SLOTS - 1)]++;
}

enum mmp_lock_kind { MMP_ANON_VMA, MMP_I_MMAP, MMP_NR_KINDS };

struct mmp_lockstat {
	u64 started, acquired, trylock_failed, contended, released;
	u64 wait_ns, hold_ns, waits, holds;
	u64 wait_hist[MMP_HIST_SLOTS], hold_hist[MMP_HIST_SLOTS];
};

enum mmp_hist_id { MMP_H_FLUSH_PAGES, MMP_H_RESCHED_PAGES, MMP_H_GATHER_NS,
		   MMP_NR_HISTS };

/*
 * Everything counted, one copy per CPU and two per CPU: probes write the
 * live one only, so a reset swaps in the other (zeroed) copy and is
 * consistent without any atomic on the fast path. Every field up to
 * wait_max is a sum over CPUs; the rest are maxima.
 */
struct mmp_stat {
	u64 ev[MMP_NR_EVENTS];
	struct mmp_lockstat lock[MMP_NR_KINDS][2];	/* [kind][write] */
	u64 gathers_fullmm, gathers_nested, pages;
	u64 batch_alloc_ok, batch_alloc_failed, resched_pending;
	u64 alllocks_roots, alllocks_mappings;
	u64 untracked_table_full, untracked_no_start, untracked_no_hold;
	u64 clock_backwards;
	/* top.c: roots that found no entry; freed roots' entries reused */
	u64 top_untracked, top_evicted;
	/* holds, hold_ns, wait_ns of those, in no row of top */
	u64 top_lost[3];
	u64 hist[MMP_NR_HISTS][MMP_HIST_SLOTS];
	/* maxima from here on */
	u64 wait_max[MMP_NR_KINDS][2], hold_max[MMP_NR_KINDS][2];
	u64 gather_ns_max;
	/* not a counter, kept by a reset: this copy's top sums (top.c) */
	struct mmp_root_sum *top_sums;
};

extern struct mmp_stat __percpu *mmp_live;	/* the copy probes write */

/* The live copy of this CPU; the caller has preemption disabled. */
static __always_inline struct mmp_stat *mmp_this_stat(void)
{
	return this_cpu_ptr(READ_ONCE(mmp_live));
}

/* stats.c */
int mmp_stats_init(void);
void mmp_stats_exit(void);
void mmp_stats_reset(void);
struct mmp_stat *mmp_stat_copy(unsigned int copy, unsigned int cpu);
struct mmp_stat __percpu *mmp_stats_read_begin(void);
void mmp_stats_read_end(void);
struct dentry;
void mmp_stats_debugfs(struct dentry *dir);

/*
 * clock.c: one clock read per event. The TSC where it is reliable (raw
 * cycles, converted to ns only when an interval ends), else the NMI-safe
 * ktime_get_mono_fast_ns(); local_clock() is not comparable between CPUs.
 */
DECLARE_STATIC_KEY_FALSE(mmp_clock_tsc);
extern u32 mmp_tsc_mult, mmp_tsc_shift;

static __always_inline u64 mmp_now(void)
{
#ifdef CONFIG_X86
	if (static_branch_likely(&mmp_clock_tsc))
		return rdtsc();
#endif
	return ktime_get_mono_fast_ns();
}

/*
 * The ns between two mmp_now() readings. An end before its start (clocks
 * of two CPUs a little apart) reads 0 and is counted, never wrapped.
 */
static __always_inline u64 mmp_elapsed(struct mmp_stat *p, u64 t0, u64 t1)
{
	if (unlikely((s64)(t1 - t0) < 0)) {
		p->clock_backwards++;
		return 0;
	}
	if (static_branch_likely(&mmp_clock_tsc))
		return mul_u64_u32_shr(t1 - t0, mmp_tsc_mult, mmp_tsc_shift);
	return t1 - t0;
}

void mmp_clock_init(void);
bool mmp_clock_tsc_unstable(void);

/*
 * holds.c: waits and holds in flight, keyed by (task, object, kind, mode).
 * A slot is claimed with one cmpxchg; from then on only its task touches
 * it, until mmp_flight_end() gives it back.
 */
enum mmp_hold_kind { MMP_HOLD_ANON_VMA, MMP_HOLD_I_MMAP, MMP_HOLD_GATHER };

struct mmp_flight {
	const void *task;	/* the owner; NULL while free */
	const void *obj;
	unsigned int km;	/* kind << 1 | write */
	u64 t0;			/* mmp_now() when the wait or hold began */
	u64 wait_ns;		/* the wait that preceded this hold */
};

int mmp_holds_init(unsigned int slots);
void mmp_holds_exit(void);
void mmp_holds_clear(void);

#define MMP_FLIGHT_PROBE 8	/* slots a key may take from its home */
extern struct mmp_flight *mmp_flights;
extern unsigned int mmp_flight_bits;
struct mmp_flight *mmp_flight_begin_probing(unsigned int home,
					    const void *obj, unsigned int km);
struct mmp_flight *mmp_flight_find_probing(unsigned int home,
					   const void *obj, unsigned int km);

static __always_inline unsigned int mmp_flight_home(const void *obj,
						    unsigned int km)
{
	return hash_long((unsigned long)current ^ (unsigned long)obj ^ km,
			 mmp_flight_bits);
}

static __always_inline bool mmp_flight_claim(struct mmp_flight *f,
					     const void *obj, unsigned int km)
{
	if (READ_ONCE(f->task) || cmpxchg(&f->task, NULL, current))
		return false;
	f->obj = obj;
	f->km = km;
	return true;
}

/*
 * Claims a slot for a new interval of current's; NULL when none is free.
 * The home slot inline, the rest of the probe sequence out of line.
 */
static __always_inline struct mmp_flight *mmp_flight_begin(const void *obj,
							   unsigned int km)
{
	unsigned int home = mmp_flight_home(obj, km);
	struct mmp_flight *f = &mmp_flights[home];

	if (likely(mmp_flight_claim(f, obj, km)))
		return f;
	return mmp_flight_begin_probing(home, obj, km);
}

static __always_inline bool mmp_flight_is(const struct mmp_flight *f,
					  const void *obj, unsigned int km)
{
	return READ_ONCE(f->task) == current && f->obj == obj && f->km == km;
}

/* current's open interval on (@obj, @km), or NULL. */
static __always_inline struct mmp_flight *mmp_flight_find(const void *obj,
							  unsigned int km)
{
	unsigned int home = mmp_flight_home(obj, km);
	struct mmp_flight *f = &mmp_flights[home];

	if (likely(mmp_flight_is(f, obj, km)))
		return f;
	return mmp_flight_find_probing(home, obj, km);
}

static inline void mmp_flight_end(struct mmp_flight *f)
{
	/* our reads of the slot are done before another task can claim it */
	smp_store_release(&f->task, NULL);
}

unsigned int mmp_holds_in_flight(void);

/* top.c: per root anon_vma totals, with ids that are never pointers */
DECLARE_STATIC_KEY_TRUE(mmp_top_on);
int mmp_top_init(unsigned int slots);
void mmp_top_exit(void);
void mmp_top_clear(void);
void mmp_top_born(const void *anon_vma, const void *root);
void mmp_top_attached(const void *anon_vma, const void *root);
void mmp_top_died(const void *anon_vma);
void mmp_top_account(struct mmp_stat *p, const void *root, u64 wait_ns,
		     u64 hold_ns);
void mmp_top_zero_sums(struct mmp_stat *copy);
void mmp_top_debugfs(struct dentry *dir, unsigned int n);

/* probes.c: timed (waits, holds, histograms) or counting only */
DECLARE_STATIC_KEY_TRUE(mmp_timed);
int mmp_probes_attach(void);
void mmp_probes_detach(void);

/* alllocks.c */
void mmp_alllocks_debugfs(struct dentry *dir);
void mmp_alllocks_record(int pid, unsigned int roots, unsigned int mappings,
			 int ret);

/* testhook.c */
void mmp_testhook_debugfs(struct dentry *dir);

/* main.c: debugfs entries whose failure fails the load */
struct dentry *mmp_debugfs_dir(const char *name, struct dentry *parent);
void mmp_debugfs_file(const char *name, umode_t mode, struct dentry *parent,
		      void *data, const struct file_operations *fops);

/* main.c: what is written to a debugfs file, parsed strictly */
int mmp_parse_uint(const char __user *ubuf, size_t count, unsigned int max,
		   unsigned int *val);
extern struct mutex mmp_control_lock;

/* hold and top tables: at least 16 slots, a power of two */
#define MMP_TABLE_SLOTS_MIN 16U
#define MMP_TABLE_SLOTS_MAX 1048576U	/* 2^20 */

#endif
