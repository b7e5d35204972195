// SPDX-License-Identifier: GPL-2.0
/*
 * Per root anon_vma totals for the "top" file. A root is known by its
 * address only while it lives: the slab reuses addresses, so each life gets
 * its own sequence number as id (printed instead of any pointer), and a
 * freed root's entry is kept, marked dead, until its slot is needed.
 * Roots born before the probes were attached get an entry on first use.
 * Nothing counted is dropped: a root's sums in no row (evicted, forgotten
 * at an attach, or without an entry for want of room) are in the lost line.
 *
 * Two halves. The entries (which root, which life, alive or not) change
 * only in the lifecycle probes and on a root's first use, under a bucket
 * lock. The sums (wait, hold, holds) are per CPU, one per entry slot, and
 * belong to the statistics copies (stats.c), so a reset zeroes them in the
 * same instant as every counter: the release probe finds its root's entry
 * without a lock and adds to this CPU's live sum, and writes no shared
 * line. Each sum carries the generation of the entry's life it was added
 * for; a sum of an older life is ignored by readers and zeroed by its CPU
 * on next use. A release racing with the eviction of its root's (dead)
 * entry may add to such a stale sum after the entry's sums were counted
 * as lost with it; so may a reset racing with an eviction: only those
 * adds are missing from top's totals (rows plus lost) against stats.
 * The whole table sits behind a static key: load with top=0 (or
 * mode=counting) and no probe touches it.
 */
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/seqlock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "mmpreempt.h"

#define BUCKET_SLOTS 8

struct root_entry {
	const void *key;	/* the root while it lives, else NULL */
	seqcount_t seq;		/* around changes to key and gen */
	unsigned int gen;	/* the life, or reset, the sums belong to */
	u64 id;
	u64 anon_vmas;		/* anon_vmas of the tree seen born, itself included */
	unsigned int slot;	/* the index of its sums */
	bool used, alive;
	bool summed;		/* a sum was started for this life (lose()) */
};

struct bucket {
	raw_spinlock_t lock;
	struct root_entry e[BUCKET_SLOTS];
};

static struct bucket *buckets;
static unsigned int bucket_bits;
static atomic64_t next_id;
static unsigned int top_n;

DEFINE_STATIC_KEY_TRUE(mmp_top_on);

static struct bucket *bucket_of(const void *root)
{
	return &buckets[hash_ptr(root, bucket_bits)];
}

/*
 * Changes to what lock-free readers of an entry use, under its bucket
 * lock: @key, and a new generation unless @same_life.
 */
static void entry_set(struct root_entry *e, const void *key, bool same_life)
{
	raw_write_seqcount_begin(&e->seq);
	WRITE_ONCE(e->key, key);
	if (!same_life)
		WRITE_ONCE(e->gen, e->gen + 1);
	raw_write_seqcount_end(&e->seq);
}

/*
 * @e's sums over CPUs in the copies @stats, for the life @e is in now.
 * Under the bucket lock the result is exact up to probes still adding.
 */
static void sum_of(const struct root_entry *e, struct mmp_stat __percpu *stats,
		   struct mmp_root_sum *r)
{
	unsigned int cpu;

	*r = (struct mmp_root_sum){ .gen = e->gen };
	for_each_possible_cpu(cpu) {
		const struct mmp_root_sum *s =
			&per_cpu_ptr(stats, cpu)->top_sums[e->slot];

		if (READ_ONCE(s->gen) != e->gen)
			continue;
		smp_rmb();	/* the gen before the fields: see add_sum() */
		r->wait_ns += READ_ONCE(s->wait_ns);
		r->hold_ns += READ_ONCE(s->hold_ns);
		r->holds += READ_ONCE(s->holds);
	}
}

/* What @e's sums hold in @p's copy goes to @p's lost line. */
static void lose(struct mmp_stat *p, const struct root_entry *e)
{
	struct mmp_root_sum r;

	/* the usual case, a newborn's entry at its attach: no scan of CPUs */
	if (!READ_ONCE(e->summed))
		return;
	sum_of(e, p->copy, &r);
	p->top_lost[0] += r.holds;
	p->top_lost[1] += r.hold_ns;
	p->top_lost[2] += r.wait_ns;
}

/*
 * The live entry of @root, or a new one; NULL when the bucket is full.
 * @p is the copy the probe that asks writes (not the live one read again:
 * a reset may have replaced it since), and what an evicted entry's sums
 * held in that copy goes to its lost line.
 */
static struct root_entry *lookup(struct mmp_stat *p, struct bucket *b,
				 const void *root, bool born)
{
	struct root_entry *victim = NULL;
	struct mmp_root_sum lost = {};
	int i;

	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->used && e->alive && e->key == root) {
			if (!born)
				return e;
			/* a new life at this address */
			e->alive = false;
			entry_set(e, NULL, true);
		}
		if (!e->used && !victim)
			victim = e;
	}
	if (!victim) {
		/* evict the dead entry with the least hold time */
		for (i = 0; i < BUCKET_SLOTS; i++) {
			struct root_entry *e = &b->e[i];
			struct mmp_root_sum r;

			if (e->alive)
				continue;
			sum_of(e, p->copy, &r);
			if (!victim || r.hold_ns < lost.hold_ns) {
				victim = e;
				lost = r;
			}
		}
	}
	if (!victim) {
		if (born)
			p->top_full_born++;
		return NULL;
	}
	if (victim->used) {
		p->top_evicted++;
		p->top_lost[0] += lost.holds;
		p->top_lost[1] += lost.hold_ns;
		p->top_lost[2] += lost.wait_ns;
	}
	victim->id = atomic64_inc_return(&next_id);
	victim->used = true;
	victim->alive = true;
	victim->anon_vmas = 1;
	victim->summed = false;
	entry_set(victim, root, false);
	return victim;
}

void mmp_top_born(struct mmp_stat *p, const void *anon_vma, const void *root)
{
	struct bucket *b = bucket_of(root);
	struct root_entry *e;

	raw_spin_lock(&b->lock);
	e = lookup(p, b, root, anon_vma == root);
	if (e && anon_vma != root)
		e->anon_vmas++;
	raw_spin_unlock(&b->lock);
}

/*
 * @anon_vma's live entry as a root: marked dead, or forgotten outright,
 * what its sums hold then counted in @p's lost line
 */
static void end_root(struct mmp_stat *p, const void *anon_vma, bool forget)
{
	struct bucket *b = bucket_of(anon_vma);
	int i;

	raw_spin_lock(&b->lock);
	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->used && e->alive && e->key == anon_vma) {
			if (forget)
				lose(p, e);
			e->alive = false;
			e->used = !forget;
			entry_set(e, NULL, !forget);
		}
	}
	raw_spin_unlock(&b->lock);
}

/*
 * anon_vma_fork() placed @anon_vma, born as a root of its own, under @root:
 * its entry goes and @root counts it. Its own lock is not taken before the
 * attach, but the entry may be a stale one of an earlier life at the same
 * address whose free was not seen (freed while the probes were detached):
 * whatever its sums hold is counted lost, never dropped.
 */
void mmp_top_attached(struct mmp_stat *p, const void *anon_vma,
		      const void *root)
{
	end_root(p, anon_vma, true);
	mmp_top_born(p, anon_vma, root);
}

void mmp_top_died(struct mmp_stat *p, const void *anon_vma)
{
	end_root(p, anon_vma, false);
}

static void add_sum(struct mmp_stat *p, struct root_entry *e,
		    unsigned int gen, u64 wait_ns, u64 hold_ns)
{
	struct mmp_root_sum *s = &p->top_sums[e->slot];

	if (unlikely(s->gen != gen)) {
		/* once per CPU and life: the only write to the shared entry */
		if (!READ_ONCE(e->summed))
			WRITE_ONCE(e->summed, true);
		/* readers take a sum's fields only while its gen matches */
		WRITE_ONCE(s->wait_ns, 0);
		WRITE_ONCE(s->hold_ns, 0);
		WRITE_ONCE(s->holds, 0);
		smp_wmb();	/* the zeroes before the gen: see sum_of() */
		WRITE_ONCE(s->gen, gen);
	}
	WRITE_ONCE(s->wait_ns, s->wait_ns + wait_ns);
	WRITE_ONCE(s->hold_ns, s->hold_ns + hold_ns);
	WRITE_ONCE(s->holds, s->holds + 1);
}

/* The entry @root's sums go to from now on, at its seqcount's value @seqv */
static void cache_fill(struct mmp_stat *p, const void *root,
		       const struct root_entry *e, unsigned int seqv)
{
	struct mmp_top_cache *c = &p->top_cache;

	c->root = root;
	c->seq = &e->seq;
	c->seqv = seqv;
	c->sum = &p->top_sums[e->slot];
}

static noinline void account_locked(struct mmp_stat *p, struct bucket *b,
				    const void *root, u64 wait_ns, u64 hold_ns)
{
	struct root_entry *e;

	raw_spin_lock(&b->lock);
	e = lookup(p, b, root, false);
	if (e) {
		add_sum(p, e, e->gen, wait_ns, hold_ns);
		/* writers of the entry hold the lock: its seqcount is even */
		cache_fill(p, root, e, raw_read_seqcount(&e->seq));
	} else {
		p->top_full_holds++;
		p->top_lost[0]++;
		p->top_lost[1] += hold_ns;
		p->top_lost[2] += wait_ns;
	}
	raw_spin_unlock(&b->lock);
}

/* mmp_top_account() for a root other than this CPU's last, or changed */
void mmp_top_account_slow(struct mmp_stat *p, const void *root, u64 wait_ns,
			  u64 hold_ns)
{
	struct bucket *b = bucket_of(root);
	int i;

	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];
		unsigned int seq, gen;

		if (READ_ONCE(e->key) != root)
			continue;
		seq = raw_seqcount_begin(&e->seq);
		gen = READ_ONCE(e->gen);
		if (READ_ONCE(e->key) != root ||
		    read_seqcount_retry(&e->seq, seq))
			break;
		add_sum(p, e, gen, wait_ns, hold_ns);
		cache_fill(p, root, e, seq);
		return;
	}
	/* first use of a root born before the load, or an entry changing */
	account_locked(p, b, root, wait_ns, hold_ns);
}

struct top_row {
	u64 id, anon_vmas;
	struct mmp_root_sum sum;
	bool alive;
};

static int by_hold_desc(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	return x->sum.hold_ns < y->sum.hold_ns ? 1 :
	       x->sum.hold_ns > y->sum.hold_ns ? -1 : 0;
}

static int top_show(struct seq_file *m, void *v)
{
	size_t n = (size_t)BUCKET_SLOTS << bucket_bits, used = 0, i;
	u64 full_born = 0, full_holds = 0, evicted = 0, lost[3] = {};
	struct mmp_stat __percpu *live;
	unsigned int cpu;
	struct top_row *all;

	if (!static_key_enabled(&mmp_top_on)) {
		seq_puts(m, "# top is off: mmpreempt.ko was loaded with top=0 or mode=counting\n");
		return 0;
	}
	all = vmalloc(array_size(n, sizeof(*all)));
	if (!all)
		return -ENOMEM;
	live = mmp_stats_read_begin();
	for (i = 0; i < 1U << bucket_bits; i++) {
		int j;

		raw_spin_lock(&buckets[i].lock);
		for (j = 0; j < BUCKET_SLOTS; j++) {
			const struct root_entry *e = &buckets[i].e[j];
			struct top_row *r = &all[used];

			if (!e->used)
				continue;
			r->id = e->id;
			r->anon_vmas = e->anon_vmas;
			r->alive = e->alive;
			sum_of(e, live, &r->sum);
			if (r->sum.holds)
				used++;
		}
		raw_spin_unlock(&buckets[i].lock);
	}
	for_each_possible_cpu(cpu) {
		const struct mmp_stat *c = per_cpu_ptr(live, cpu);

		full_born += READ_ONCE(c->top_full_born);
		full_holds += READ_ONCE(c->top_full_holds);
		evicted += READ_ONCE(c->top_evicted);
		for (i = 0; i < ARRAY_SIZE(lost); i++)
			lost[i] += READ_ONCE(c->top_lost[i]);
	}
	mmp_stats_read_end();
	sort(all, used, sizeof(*all), by_hold_desc, NULL);
	seq_printf(m, "%-10s %14s %14s %10s %10s %s\n", "root_id", "hold_ns",
		   "wait_ns", "holds", "anon_vmas", "state");
	for (i = 0; i < used && i < top_n; i++)
		seq_printf(m, "%-10llu %14llu %14llu %10llu %10llu %s\n",
			   all[i].id, all[i].sum.hold_ns, all[i].sum.wait_ns,
			   all[i].sum.holds,
			   all[i].anon_vmas, all[i].alive ? "alive" : "freed");
	for (; i < used; i++) {
		lost[0] += all[i].sum.holds;
		lost[1] += all[i].sum.hold_ns;
		lost[2] += all[i].sum.wait_ns;
	}
	seq_printf(m, "# roots born into a full bucket (tracked only if a later hold found room): %llu\n",
		   full_born);
	seq_printf(m, "# holds whose root had no entry and found its bucket full: %llu\n",
		   full_holds);
	seq_printf(m, "# freed roots evicted to make room: %llu\n", evicted);
	seq_printf(m, "# in no row (those roots, and rows past top_n): holds %llu hold_ns %llu wait_ns %llu\n",
		   lost[0], lost[1], lost[2]);
	vfree(all);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(top);

void mmp_top_debugfs(struct dentry *dir, unsigned int n)
{
	top_n = n;
	mmp_debugfs_file("top", 0400, dir, NULL, &top_fops);
}

/*
 * Before a reset (which zeroes the sums with every counter): dead roots go,
 * and their slots' sums with them. Roots that die after this keep their
 * entry, with the sums the new copy gives them.
 */
void mmp_top_clear(void)
{
	unsigned int i;

	for (i = 0; buckets && i < 1U << bucket_bits; i++) {
		int j;

		/* live roots keep their ids: a reset starts no new life */
		raw_spin_lock(&buckets[i].lock);
		for (j = 0; j < BUCKET_SLOTS; j++) {
			struct root_entry *e = &buckets[i].e[j];

			if (e->used && !e->alive) {
				e->used = false;
				entry_set(e, NULL, false);
			}
		}
		raw_spin_unlock(&buckets[i].lock);
	}
}

/* @copy's sums of every entry, once no probe can write them */
void mmp_top_zero_sums(struct mmp_stat *copy)
{
	copy->top_cache = (struct mmp_top_cache){};
	if (copy->top_sums)
		memset(copy->top_sums, 0,
		       array_size(BUCKET_SLOTS << bucket_bits,
				  sizeof(*copy->top_sums)));
}

/* What mmp_top_init() allocates for @slots on this machine's possible CPUs */
u64 mmp_top_bytes(unsigned int slots)
{
	return (u64)slots / BUCKET_SLOTS * sizeof(struct bucket) +
	       2ULL * num_possible_cpus() * slots * sizeof(struct mmp_root_sum);
}

int mmp_top_init(unsigned int slots)
{
	unsigned int i, k, cpu;

	if (!static_key_enabled(&mmp_top_on))
		return 0;
	/* slots is validated at load: at least two buckets, a power of two */
	bucket_bits = ilog2(slots / BUCKET_SLOTS);
	buckets = vzalloc(array_size(1U << bucket_bits, sizeof(*buckets)));
	if (!buckets)
		return -ENOMEM;
	for (i = 0; i < 1U << bucket_bits; i++) {
		int j;

		raw_spin_lock_init(&buckets[i].lock);
		for (j = 0; j < BUCKET_SLOTS; j++) {
			seqcount_init(&buckets[i].e[j].seq);
			buckets[i].e[j].slot = i * BUCKET_SLOTS + j;
		}
	}
	for (k = 0; k < 2; k++) {
		for_each_possible_cpu(cpu) {
			struct mmp_stat *c = mmp_stat_copy(k, cpu);

			c->top_sums = vzalloc_node(array_size(slots,
							      sizeof(*c->top_sums)),
						   cpu_to_node(cpu));
			if (!c->top_sums) {
				mmp_top_exit();
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/* Before mmp_stats_exit(): the sums hang off its copies. */
void mmp_top_exit(void)
{
	unsigned int k, cpu;

	for (k = 0; buckets && k < 2; k++) {
		for_each_possible_cpu(cpu) {
			struct mmp_stat *c = mmp_stat_copy(k, cpu);

			vfree(c->top_sums);
			c->top_sums = NULL;
		}
	}
	vfree(buckets);
	buckets = NULL;
}
