/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmpreempt.ko: counters, histograms and hold tracking for the anon_vma,
 * i_mmap, mmu_gather and mm_all_locks trace events.
 */
#ifndef MMPREEMPT_H
#define MMPREEMPT_H

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>

/* Every event the module attaches to, counted raw (list: mmp_events.h) */
enum mmp_event {
#define MMP_EVENT(name) MMP_EV_##name,
#include "mmp_events.h"
#undef MMP_EVENT
	MMP_NR_EVENTS
};

/* log2 buckets: slot i counts values in [2^(i-1), 2^i), slot 0 counts 0 */
#define MMP_HIST_SLOTS 64

enum mmp_lock_kind { MMP_ANON_VMA, MMP_I_MMAP, MMP_NR_KINDS };

struct mmp_lockstat {
	u64 started, acquired, trylock_failed, contended, released;
	u64 wait_ns, hold_ns, waits, holds;
	u64 wait_hist[MMP_HIST_SLOTS], hold_hist[MMP_HIST_SLOTS];
};

/* A maximum since the last reset: entries of an older epoch are void. */
struct mmp_max {
	u64 val;
	unsigned long epoch;
};

enum mmp_hist_id { MMP_H_FLUSH_PAGES, MMP_H_RESCHED_PAGES, MMP_H_GATHER_NS,
		   MMP_NR_HISTS };

/* Everything counted, one copy per CPU; readers sum the copies. */
struct mmp_pcpu {
	u64 ev[MMP_NR_EVENTS];
	struct mmp_lockstat lock[MMP_NR_KINDS][2];	/* [kind][write] */
	u64 gathers_fullmm, gathers_nested, pages;
	u64 batch_alloc_ok, batch_alloc_failed, resched_pending;
	u64 alllocks_roots, alllocks_mappings;
	u64 untracked_table_full, untracked_no_start, untracked_no_hold;
	u64 hist[MMP_NR_HISTS][MMP_HIST_SLOTS];
	struct mmp_max wait_max[MMP_NR_KINDS][2], hold_max[MMP_NR_KINDS][2];
	struct mmp_max gather_ns_max;
};

extern struct mmp_pcpu __percpu *mmp_pcpu;
extern unsigned long mmp_epoch;

/* stats.c */
int mmp_stats_init(void);
void mmp_stats_exit(void);
void mmp_hist_add(u64 *hist, u64 v);
void mmp_max_update(struct mmp_max *m, u64 v);
void mmp_stats_reset(void);
struct dentry;
void mmp_stats_debugfs(struct dentry *dir);

/* holds.c: waits and holds in flight, keyed by (task, object, kind) */
enum mmp_hold_kind { MMP_HOLD_ANON_VMA, MMP_HOLD_I_MMAP, MMP_HOLD_GATHER };
int mmp_holds_init(unsigned int slots);
void mmp_holds_exit(void);
void mmp_holds_clear(void);
bool mmp_hold_begin(const void *task, const void *obj, int kind, bool write,
		    u64 now);
bool mmp_hold_end(const void *task, const void *obj, int kind, bool write,
		  u64 *t0);
unsigned int mmp_holds_in_flight(void);

/* top.c: per root anon_vma totals, with ids that are never pointers */
int mmp_top_init(unsigned int slots);
void mmp_top_exit(void);
void mmp_top_clear(void);
void mmp_top_born(const void *anon_vma, const void *root);
void mmp_top_attached(const void *anon_vma, const void *root);
void mmp_top_died(const void *anon_vma);
void mmp_top_account(const void *root, u64 wait_ns, u64 hold_ns);
void mmp_top_debugfs(struct dentry *dir, unsigned int n);

/* probes.c */
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

/* hold and top tables: buckets of eight, at least two, a power of two */
#define MMP_TABLE_SLOTS_MIN 16U
#define MMP_TABLE_SLOTS_MAX 1048576U	/* 2^20 */

#endif
