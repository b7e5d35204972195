// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters and log2 histograms, summed on read. Each CPU has two
 * copies: probes write the live one. A reset makes the other (zeroed) copy
 * live, waits until no probe can still be writing the old one, and zeroes
 * it; so a reset is one instant for every counter, histogram and maximum,
 * and the fast path has no atomic and no epoch to check.
 */
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stringify.h>

#include "mmpreempt.h"

static struct mmp_stat __percpu *copies[2];
struct mmp_stat __percpu *mmp_live;
static struct mmp_stat *mmp_sum;	/* scratch for readers */
static DEFINE_MUTEX(mmp_read_lock);	/* readers vs. reset */

static const char * const mmp_event_names[] = {
#define MMP_EVENT(name) __stringify(name),
#include "mmp_events.h"
#undef MMP_EVENT
};

static const char * const kind_names[] = { "anon_vma", "i_mmap" };
static const char * const mode_names[] = { "read", "write" };

#define SUM_WORDS (offsetof(struct mmp_stat, wait_max) / sizeof(u64))
#define ALL_WORDS (offsetof(struct mmp_stat, top_sums) / sizeof(u64))

/* The live copies of every CPU into @mmp_sum: sums, then maxima. */
static void snapshot(void)
{
	struct mmp_stat __percpu *live = mmp_live;
	u64 *o = (u64 *)mmp_sum;
	int cpu;

	memset(mmp_sum, 0, sizeof(*mmp_sum));
	for_each_possible_cpu(cpu) {
		u64 *c = (u64 *)per_cpu_ptr(live, cpu);
		size_t i;

		for (i = 0; i < SUM_WORDS; i++)
			o[i] += READ_ONCE(c[i]);
		for (; i < ALL_WORDS; i++)
			o[i] = max(o[i], READ_ONCE(c[i]));
	}
}

/* Called under mmp_control_lock, which also serialises resets. */
void mmp_stats_reset(void)
{
	struct mmp_stat __percpu *old = mmp_live;
	int cpu;

	mutex_lock(&mmp_read_lock);
	/*
	 * top's dead roots go first, with their sums in the copy this zeroes,
	 * and under the readers' lock: a root released and freed during the
	 * grace period below has its holds in the new copy and keeps its
	 * entry (a row, or the lost line once evicted), as the stats keep
	 * them; and no reader sees the stats of a copy without the rows that
	 * add up to them.
	 */
	mmp_top_clear();
	WRITE_ONCE(mmp_live, old == copies[0] ? copies[1] : copies[0]);
	/* probes run with preemption disabled: an RCU grace period ends them */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		memset(per_cpu_ptr(old, cpu), 0,
		       offsetof(struct mmp_stat, top_sums));
		mmp_top_zero_sums(per_cpu_ptr(old, cpu));
	}
	mutex_unlock(&mmp_read_lock);
}

struct mmp_stat *mmp_stat_copy(unsigned int copy, unsigned int cpu)
{
	return per_cpu_ptr(copies[copy], cpu);
}

/* The live copies, which no reset replaces until mmp_stats_read_end(). */
struct mmp_stat __percpu *mmp_stats_read_begin(void)
{
	mutex_lock(&mmp_read_lock);
	return mmp_live;
}

void mmp_stats_read_end(void)
{
	mutex_unlock(&mmp_read_lock);
}

static u64 hist_sum(const u64 *hist)
{
	u64 n = 0;
	int i;

	for (i = 0; i < MMP_HIST_SLOTS; i++)
		n += hist[i];
	return n;
}

/* What the timed probes count in the histograms only (mmpreempt.h) */
static void derive_lock_counts(struct mmp_stat *s)
{
	int k, w;

	for (k = 0; k < MMP_NR_LOCK_KINDS; k++) {
		for (w = 0; w < 2; w++) {
			struct mmp_lockstat *l = &s->lock[k][w];

			l->contended += hist_sum(l->wait_hist);
			l->released += hist_sum(l->hold_hist) +
				       l->released_untracked;
		}
	}
}

/* The lock events' raw counts, from the counters their probes keep. */
static void derive_lock_events(struct mmp_stat *s)
{
	static const int ev[MMP_NR_LOCK_KINDS][3] = {
		[MMP_ANON_VMA] = { MMP_EV_anon_vma_lock_start,
				   MMP_EV_anon_vma_lock_acquired,
				   MMP_EV_anon_vma_lock_released },
		[MMP_I_MMAP] = { MMP_EV_i_mmap_lock_start,
				 MMP_EV_i_mmap_lock_acquired,
				 MMP_EV_i_mmap_lock_released },
	};
	int k, w;

	for (k = 0; k < MMP_NR_LOCK_KINDS; k++) {
		for (w = 0; w < 2; w++) {
			struct mmp_lockstat *l = &s->lock[k][w];

			s->ev[ev[k][0]] += l->started;
			s->ev[ev[k][1]] += l->acquired + l->trylock_failed;
			s->ev[ev[k][2]] += l->released;
		}
	}
}

static int stats_show(struct seq_file *m, void *v)
{
	struct mmp_stat *s = mmp_sum;
	int i, k, w;

	mutex_lock(&mmp_read_lock);
	snapshot();
	derive_lock_counts(s);
	derive_lock_events(s);
	for (i = 0; i < MMP_NR_EVENTS; i++)
		seq_printf(m, "events.%s %llu\n", mmp_event_names[i], s->ev[i]);
	for (k = 0; k < MMP_NR_LOCK_KINDS; k++) {
		for (w = 0; w < 2; w++) {
			struct mmp_lockstat *l = &s->lock[k][w];
			const char *kn = kind_names[k], *mn = mode_names[w];

			seq_printf(m, "%s.lock.%s.started %llu\n", kn, mn, l->started);
			seq_printf(m, "%s.lock.%s.acquired %llu\n", kn, mn, l->acquired);
			seq_printf(m, "%s.lock.%s.trylock_failed %llu\n", kn, mn,
				   l->trylock_failed);
			seq_printf(m, "%s.lock.%s.contended %llu\n", kn, mn, l->contended);
			seq_printf(m, "%s.lock.%s.released %llu\n", kn, mn, l->released);
			seq_printf(m, "%s.lock.%s.wait_ns_total %llu\n", kn, mn, l->wait_ns);
			seq_printf(m, "%s.lock.%s.wait_ns_max %llu\n", kn, mn,
				   s->wait_max[k][w]);
			seq_printf(m, "%s.lock.%s.hold_ns_total %llu\n", kn, mn, l->hold_ns);
			seq_printf(m, "%s.lock.%s.hold_ns_max %llu\n", kn, mn,
				   s->hold_max[k][w]);
			seq_printf(m, "%s.lock.%s.holds_timed %llu\n", kn, mn,
				   hist_sum(l->hold_hist));
		}
	}
	seq_printf(m, "anon_vma.alloc %llu\n", s->ev[MMP_EV_anon_vma_alloc]);
	seq_printf(m, "anon_vma.attach %llu\n", s->ev[MMP_EV_anon_vma_attach]);
	seq_printf(m, "anon_vma.get %llu\n", s->ev[MMP_EV_anon_vma_get]);
	seq_printf(m, "anon_vma.get_failed %llu\n", s->ev[MMP_EV_anon_vma_get_failed]);
	seq_printf(m, "anon_vma.put %llu\n", s->ev[MMP_EV_anon_vma_put]);
	seq_printf(m, "anon_vma.free %llu\n", s->ev[MMP_EV_anon_vma_free]);
	seq_printf(m, "anon_vma.reuse %llu\n", s->ev[MMP_EV_anon_vma_reuse]);
	seq_printf(m, "mmu_gather.gathers %llu\n", s->ev[MMP_EV_mmu_gather_start]);
	seq_printf(m, "mmu_gather.gathers_fullmm %llu\n", s->gathers_fullmm);
	seq_printf(m, "mmu_gather.gathers_nested %llu\n", s->gathers_nested);
	seq_printf(m, "mmu_gather.flushes %llu\n", s->ev[MMP_EV_mmu_gather_flush]);
	seq_printf(m, "mmu_gather.pages %llu\n", s->pages);
	seq_printf(m, "mmu_gather.batch_alloc %llu\n", s->batch_alloc_ok);
	seq_printf(m, "mmu_gather.batch_alloc_failed %llu\n", s->batch_alloc_failed);
	seq_printf(m, "mmu_gather.preemption_points %llu\n",
		   s->ev[MMP_EV_mmu_gather_resched]);
	seq_printf(m, "mmu_gather.preemption_points_pending %llu\n",
		   s->resched_pending);
	seq_printf(m, "mmu_gather.gather_ns_max %llu\n", s->gather_ns_max);
	seq_printf(m, "mm_all_locks.calls %llu\n",
		   s->ev[MMP_EV_mm_take_all_locks_start]);
	seq_printf(m, "mm_all_locks.anon_vma_roots %llu\n", s->alllocks_roots);
	seq_printf(m, "mm_all_locks.mappings %llu\n", s->alllocks_mappings);
	seq_printf(m, "holds.untracked.table_full %llu\n", s->untracked_table_full);
	seq_printf(m, "holds.untracked.no_start %llu\n", s->untracked_no_start);
	seq_printf(m, "holds.untracked.no_hold %llu\n",
		   s->lock[MMP_ANON_VMA][0].released_untracked +
		   s->lock[MMP_ANON_VMA][1].released_untracked +
		   s->lock[MMP_I_MMAP][0].released_untracked +
		   s->lock[MMP_I_MMAP][1].released_untracked);
	seq_printf(m, "holds.in_flight %u\n", mmp_flight_count());
	seq_printf(m, "mode.timed %d\n", static_key_enabled(&mmp_timed));
	seq_printf(m, "clock.tsc %d\n", static_key_enabled(&mmp_clock_tsc));
	seq_printf(m, "clock.tsc_unstable %d\n", mmp_clock_tsc_unstable());
	seq_printf(m, "clock.backwards %llu\n", s->clock_backwards);
	mutex_unlock(&mmp_read_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* A histogram file: which u64[MMP_HIST_SLOTS] in struct mmp_stat, its name */
struct mmp_hist_file {
	size_t off;
	const char *name;
};

static void hist_label(char *buf, size_t len, u64 v)
{
	static const char suffix[] = " KMGTPE";
	int i = 0;

	while (v >= 1024 && !(v & 1023) && i < 6) {
		v >>= 10;
		i++;
	}
	if (i)
		snprintf(buf, len, "%llu%c", v, suffix[i]);
	else
		snprintf(buf, len, "%llu", v);
}

/* The layout of bpftrace's hist(), so the two can be compared by eye. */
static int hist_show(struct seq_file *m, void *v)
{
	const struct mmp_hist_file *hf = m->private;
	u64 *h, top = 0;
	int i, lo = -1, hi = -1;

	mutex_lock(&mmp_read_lock);
	snapshot();
	h = (void *)mmp_sum + hf->off;
	for (i = 0; i < MMP_HIST_SLOTS; i++) {
		if (!h[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		top = max(top, h[i]);
	}
	seq_printf(m, "@%s:\n", hf->name);
	for (i = lo; lo >= 0 && i <= hi; i++) {
		char a[16], b[16], label[40];
		int bar = top ? div64_u64(h[i] * 52, top) : 0;

		if (i == 0) {
			snprintf(label, sizeof(label), "[0]");
		} else if (i == 1) {
			snprintf(label, sizeof(label), "[1]");
		} else {
			hist_label(a, sizeof(a), 1ULL << (i - 1));
			hist_label(b, sizeof(b), 1ULL << i);
			snprintf(label, sizeof(label), "[%s, %s)", a, b);
		}
		seq_printf(m, "%-16s%8llu |%-52.*s|\n", label, h[i], bar,
			   "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	}
	mutex_unlock(&mmp_read_lock);
	return 0;
}

static int hist_open(struct inode *inode, struct file *file)
{
	return single_open(file, hist_show, inode->i_private);
}

static const struct file_operations hist_fops = {
	.owner = THIS_MODULE,
	.open = hist_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

#define LOCK_HIST(k, w, which, name)					\
	{ offsetof(struct mmp_stat, lock[k][w].which), name }

static const struct mmp_hist_file hist_files[] = {
	LOCK_HIST(MMP_ANON_VMA, 0, wait_hist, "anon_vma_read_wait_ns"),
	LOCK_HIST(MMP_ANON_VMA, 0, hold_hist, "anon_vma_read_hold_ns"),
	LOCK_HIST(MMP_ANON_VMA, 1, wait_hist, "anon_vma_write_wait_ns"),
	LOCK_HIST(MMP_ANON_VMA, 1, hold_hist, "anon_vma_write_hold_ns"),
	LOCK_HIST(MMP_I_MMAP, 0, wait_hist, "i_mmap_read_wait_ns"),
	LOCK_HIST(MMP_I_MMAP, 0, hold_hist, "i_mmap_read_hold_ns"),
	LOCK_HIST(MMP_I_MMAP, 1, wait_hist, "i_mmap_write_wait_ns"),
	LOCK_HIST(MMP_I_MMAP, 1, hold_hist, "i_mmap_write_hold_ns"),
	{ offsetof(struct mmp_stat, hist[MMP_H_FLUSH_PAGES]), "mmu_gather_flush_pages" },
	{ offsetof(struct mmp_stat, hist[MMP_H_RESCHED_PAGES]), "mmu_gather_resched_pages" },
	{ offsetof(struct mmp_stat, hist[MMP_H_GATHER_NS]), "mmu_gather_gather_ns" },
};

void mmp_stats_debugfs(struct dentry *dir)
{
	struct dentry *hdir = mmp_debugfs_dir("hist", dir);
	int i;

	mmp_debugfs_file("stats", 0400, dir, NULL, &stats_fops);
	for (i = 0; i < ARRAY_SIZE(hist_files); i++)
		mmp_debugfs_file(hist_files[i].name, 0400, hdir,
				 (void *)&hist_files[i], &hist_fops);
}

int mmp_stats_init(void)
{
	int cpu;

	copies[0] = alloc_percpu(struct mmp_stat);
	copies[1] = alloc_percpu(struct mmp_stat);
	mmp_sum = kzalloc(sizeof(*mmp_sum), GFP_KERNEL);
	mmp_live = copies[0];
	if (!copies[0] || !copies[1] || !mmp_sum) {
		mmp_stats_exit();
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		int k;

		for (k = 0; k < 2; k++) {
			struct mmp_stat *c = per_cpu_ptr(copies[k], cpu);

			c->last_flight = &mmp_flight_none;
			c->copy = copies[k];
		}
	}
	return 0;
}

void mmp_stats_exit(void)
{
	free_percpu(copies[0]);
	free_percpu(copies[1]);
	kfree(mmp_sum);
	copies[0] = NULL;
	copies[1] = NULL;
	mmp_live = NULL;
	mmp_sum = NULL;
}
