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
#include <linux/seqlock.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#ifdef CONFIG_X86
#include <asm/msr.h>
#endif

/* hold and top tables: at least 16 slots, a power of two */
#define MMP_TABLE_SLOTS_MIN 16U
#define MMP_TABLE_SLOTS_MAX 1048576U	/* 2^20 */

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

/*
 * What an interval is of: the two lock kinds index the lock statistics;
 * with the gather, they key the in-flight table (flight.c).
 */
enum mmp_kind { MMP_ANON_VMA, MMP_I_MMAP, MMP_NR_LOCK_KINDS,
		MMP_GATHER = MMP_NR_LOCK_KINDS };

/*
 * The timed probes count no wait or hold twice: a wait timed is in
 * wait_hist only, a hold timed in hold_hist only. So contended and
 * released count the rest (the counting probes: all) and readers add the
 * histograms' sums (stats.c); released_untracked is the releases of holds
 * never seen acquired.
 */
struct mmp_lockstat {
	u64 started, acquired, trylock_failed, contended, released;
	u64 released_untracked;
	u64 wait_ns, hold_ns;
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
	struct mmp_lockstat lock[MMP_NR_LOCK_KINDS][2];	/* [kind][write] */
	u64 gathers_fullmm, gathers_nested, pages;
	u64 batch_alloc_ok, batch_alloc_failed, resched_pending;
	u64 alllocks_roots, alllocks_mappings;
	u64 untracked_table_full, untracked_no_start;
	u64 clock_backwards;
	/* top.c: holds whose root had no entry and no room; entries reused */
	u64 top_full_holds, top_evicted;
	/* holds, hold_ns, wait_ns of those, in no row of top */
	u64 top_lost[3];
	u64 hist[MMP_NR_HISTS][MMP_HIST_SLOTS];
	/* maxima from here on */
	u64 wait_max[MMP_NR_LOCK_KINDS][2], hold_max[MMP_NR_LOCK_KINDS][2];
	u64 gather_ns_max;
	/* not a counter, kept by a reset: this copy's top sums (top.c) */
	struct mmp_root_sum *top_sums;
	/* the copy this is one CPU's part of: top.c's evictions sum over it */
	struct mmp_stat __percpu *copy;
	/* top.c: the root this CPU accounted last, cleared by a reset */
	struct mmp_top_cache {
		const void *root;
		const seqcount_t *seq;	/* its entry's, and the value it had */
		unsigned int seqv;
		struct mmp_root_sum *sum;
	} top_cache;
	/*
	 * probes.c: the in-flight slot of this CPU's last lock event, tried
	 * before the hash: an acquisition and its release usually follow
	 * their start with no other lock between. Never NULL, kept by a reset.
	 */
	struct mmp_flight *last_flight;
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

/*
 * ns = ticks * mult >> 32, in 64 bits for any ticks <= fast_max: a fixed
 * shift, so that the fast path loads one factor (a shift of 32 is also
 * finer than the kernel's clocksource scales).
 */
struct mmp_clock {
	u64 fast_max;
	u64 mult;
	u64 hi_max;	/* the slow path's: ticks >> 32 whose ns pass S64_MAX */
};

extern struct mmp_clock mmp_clock __read_mostly;

/* The clock's reading; @tsc: the TSC is the clock (a constant, per body) */
static __always_inline u64 mmp_read_clock(bool tsc)
{
#ifdef CONFIG_X86
	if (tsc)
		return rdtsc();
#endif
	return ktime_get_mono_fast_ns();
}

static __always_inline u64 mmp_now(void)
{
	return mmp_read_clock(static_branch_likely(&mmp_clock_tsc));
}

u64 mmp_elapsed_slow(struct mmp_stat *p, u64 ticks);

/* ticks, at most fast_max of them, in ns */
static __always_inline u64 mmp_fast_ns(u64 ticks)
{
	return ticks * mmp_clock.mult >> 32;
}

/*
 * The ns between two clock readings, below 2^63. An end before its start
 * (clocks of two CPUs a little apart) reads 0 and is counted, never
 * wrapped; it and intervals past fast_max (seconds) take the out-of-line
 * path, whose 128-bit product would make every probe realign its stack.
 */
static __always_inline u64 mmp_elapsed(struct mmp_stat *p, u64 t0, u64 t1)
{
	u64 d = t1 - t0;

	if (likely(d <= mmp_clock.fast_max))
		return mmp_fast_ns(d);
	return mmp_elapsed_slow(p, d);
}

enum mmp_clock_want { MMP_CLOCK_AUTO, MMP_CLOCK_TSC, MMP_CLOCK_KTIME };
int mmp_clock_init(enum mmp_clock_want want);
bool mmp_clock_tsc_unstable(void);

/*
 * The log2 slot of an mmp_elapsed() value, which is below 2^63: fls64(ns)
 * is the last set bit of 2 * ns + 1, which is never 0.
 */
static __always_inline void mmp_hist_ns(u64 *hist, u64 ns)
{
	hist[__fls(2 * ns + 1)]++;
}

/*
 * flight.c: waits, holds and gathers in flight, keyed by (task, object,
 * kind, mode): the key packs the object's address, 8-byte aligned
 * (probes.c checks the types), with kind << 1 | write. A slot is claimed with one cmpxchg;
 * from then on only its task touches it, until mmp_flight_end() gives it
 * back.
 */
struct mmp_flight {
	const void *task;	/* the owner; NULL while free */
	unsigned long key;
	u64 t0;			/* mmp_now() when the wait or hold began */
	u64 reserved;		/* 32 bytes a slot: mmp_flight_home() shifts */
};

struct mmp_flight_table {
	struct mmp_flight *slot;
	unsigned long offset_mask;	/* (slots - 1) * sizeof(*slot) */
};

extern struct mmp_flight_table mmp_ft __read_mostly;

static __always_inline unsigned long mmp_key(const void *obj, unsigned int km)
{
	return (unsigned long)obj | km;
}

int mmp_flight_init(unsigned int slots);
u64 mmp_flight_bytes(unsigned int slots);
extern struct mmp_flight mmp_flight_none;	/* a slot no task owns */
void mmp_flight_exit(void);
void mmp_flight_clear(void);

#define MMP_FLIGHT_PROBE 8	/* slots a key may take from its home */

/*
 * The first slot the key may take: the hash's top 20 bits (the largest
 * table's), masked to the table's size, already scaled to the slot size.
 * Constant shifts keep %cl out of the probes.
 */
#define MMP_FLIGHT_SHIFT 5	/* log2(sizeof(struct mmp_flight)) */
static __always_inline struct mmp_flight *mmp_flight_home(unsigned long key)
{
	unsigned long h = ((unsigned long)current ^ key) * GOLDEN_RATIO_64;

	BUILD_BUG_ON(sizeof(struct mmp_flight) != 1 << MMP_FLIGHT_SHIFT ||
		     MMP_TABLE_SLOTS_MAX != 1U << 20);
	return (void *)mmp_ft.slot +
	       ((h >> (64 - 20 - MMP_FLIGHT_SHIFT)) & mmp_ft.offset_mask);
}

static __always_inline bool mmp_flight_claim(struct mmp_flight *f,
					     unsigned long key)
{
	if (READ_ONCE(f->task) || cmpxchg(&f->task, NULL, current))
		return false;
	f->key = key;
	return true;
}

static __always_inline bool mmp_flight_is(const struct mmp_flight *f,
					  unsigned long key)
{
	return READ_ONCE(f->task) == current && f->key == key;
}

/* Past a home slot that is taken, or not the key's: the other slots. */
struct mmp_flight *mmp_flight_begin_probing(unsigned long key);
struct mmp_flight *mmp_flight_find_probing(unsigned long key);

/* Claims a slot for a new interval of current's; NULL when none is free. */
static __always_inline struct mmp_flight *mmp_flight_begin(unsigned long key)
{
	struct mmp_flight *f = mmp_flight_home(key);

	if (likely(mmp_flight_claim(f, key)))
		return f;
	return mmp_flight_begin_probing(key);
}

/* current's open interval on @key, or NULL. */
static __always_inline struct mmp_flight *mmp_flight_find(unsigned long key)
{
	struct mmp_flight *f = mmp_flight_home(key);

	if (likely(mmp_flight_is(f, key)))
		return f;
	return mmp_flight_find_probing(key);
}

static inline void mmp_flight_end(struct mmp_flight *f)
{
	/* our reads of the slot are done before another task can claim it */
	smp_store_release(&f->task, NULL);
}

unsigned int mmp_flight_count(void);

/* top.c: per root anon_vma totals, with ids that are never pointers */
DECLARE_STATIC_KEY_TRUE(mmp_top_on);
int mmp_top_init(unsigned int slots);
u64 mmp_top_bytes(unsigned int slots);
void mmp_top_exit(void);
void mmp_top_clear(void);
struct mmp_stat;
void mmp_top_born(const void *anon_vma);
void mmp_top_attached(struct mmp_stat *p, const void *anon_vma,
		      const void *root);
void mmp_top_died(const void *anon_vma);
void mmp_top_account_slow(struct mmp_stat *p, const void *root, u64 hold_ns);
void mmp_top_wait(struct mmp_stat *p, const void *root, u64 wait_ns);

/* One per entry slot, CPU and copy; written by that CPU's probes only. */
struct mmp_root_sum {
	u64 gen;
	u64 wait_ns, hold_ns, holds;
	u64 attached;	/* anon_vmas fork attached under the root */
};

/*
 * Once per acquisition of @root, at its release, into @p (this CPU's live
 * copy); preemption is off. The root of this CPU's last acquisition is
 * added to without a lookup while its entry is unchanged: every change of
 * an entry's key or life moves its seqcount. (A contended acquisition's
 * wait went in when the wait ended, mmp_top_wait(), as the stats take it.)
 */
static __always_inline void mmp_top_account(struct mmp_stat *p,
					    const void *root, u64 hold_ns)
{
	struct mmp_top_cache *c = &p->top_cache;
	struct mmp_root_sum *s = c->sum;

	if (unlikely(c->root != root || raw_read_seqcount(c->seq) != c->seqv)) {
		mmp_top_account_slow(p, root, hold_ns);
		return;
	}
	/* single read-modify-writes, as every counter's (stats.c) */
	s->hold_ns += hold_ns;
	s->holds++;
}

/* A contended acquisition's wait, when it ended: as the stats take it */
static __always_inline void mmp_top_add_wait(struct mmp_stat *p,
					     const void *root, u64 wait_ns)
{
	struct mmp_top_cache *c = &p->top_cache;

	if (unlikely(c->root != root || raw_read_seqcount(c->seq) != c->seqv)) {
		mmp_top_wait(p, root, wait_ns);
		return;
	}
	c->sum->wait_ns += wait_ns;
}

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

/* debugfs.c: entries whose failure fails the load, and the parser */
struct dentry *mmp_debugfs_dir(const char *name, struct dentry *parent);
void mmp_debugfs_file(const char *name, umode_t mode, struct dentry *parent,
		      void *data, const struct file_operations *fops);
int mmp_debugfs_error(const char **name);
int mmp_parse_uint(const char __user *ubuf, size_t count, unsigned int max,
		   unsigned int *val);

/* main.c: serialises enable, reset and unload */
extern struct mutex mmp_control_lock;

#endif
