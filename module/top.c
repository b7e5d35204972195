// SPDX-License-Identifier: GPL-2.0
/*
 * Per root anon_vma totals for the "top" file. A root is known by its
 * address only while it lives: the slab reuses addresses, so each life gets
 * its own id (printed instead of any pointer), and a freed root's entry is
 * kept, marked dead, until its slot is needed.
 *
 * Two halves. The entries (which root, which life, alive or not) change
 * under a bucket lock, and only where that is rare: an entry is made at a
 * root's first use (its first release, or a first attach under it), and
 * ended at the free of a root that has one. A birth or an attach of an
 * anon_vma that never had an entry (fork's, every time) looks for one
 * without the lock and finds none. The sums (wait, hold, holds, anon_vmas
 * attached) are per CPU, one per entry slot, and belong to the statistics
 * copies (stats.c), so a reset zeroes them in the same instant as every
 * counter: the release probe finds its root's entry without a lock and
 * adds to this CPU's live sum, and writes no shared line (but the entry's
 * "summed" flag, once per CPU and life). Each sum carries
 * the generation of the entry's life it was added for; a sum of an older
 * life is ignored by readers and zeroed by its CPU on next use. Ids come
 * from per-CPU counters. Nothing counted is dropped: a root's sums in no
 * row (evicted, forgotten, or without an entry for want of room) are in
 * the lost line. A wait goes in when it ends, a hold at its release, each
 * into the copy the stats take it in; what an entry's sums hold goes to
 * the lost line of the copy readers will take (top_lose()). A release
 * racing with the eviction of its root's (dead) entry may add to a stale
 * sum after the entry's sums were counted as lost with it, and so may a
 * stale reader's release racing with an attach that ends the entry it
 * created for a freed root (folio_lock_anon_vma_read()'s trylock): only
 * those adds are missing from top's totals (rows plus lost) against stats.
 * Such an entry, made for a root already freed, ends when its address is
 * born again. top is exact against the stats read while nothing runs.
 * The whole table sits behind a static key: load with top=0 (or
 * mode=counting) and no probe touches it.
 */
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/percpu.h>
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
	u64 gen;		/* the life the sums belong to: never wraps */
	u64 id;
	u64 died;		/* the bucket's death count at its death */
	unsigned int slot;	/* the index of its sums */
	bool used, alive;
	bool summed;		/* a sum was started for this life (top_lose()) */
};

struct bucket {
	raw_spinlock_t lock;
	u64 deaths;
	struct root_entry e[BUCKET_SLOTS];
};

static struct bucket *buckets;
static unsigned int bucket_bits;
static u64 __percpu *next_id;	/* this CPU's ids: n * nr_cpu_ids + cpu */
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
		r->attached += READ_ONCE(s->attached);
	}
}

/*
 * What @e's sums hold goes to the lost line of the live copy, read from
 * that copy: the one readers will take. A probe that began before a reset
 * still writes the old copy, which the reset zeroes once that probe ends;
 * the sums other CPUs added to @e since the reset are in the live copy
 * only, and would go with the slot. Out of line: evictions and forgetting
 * are rare, and the probe bodies stay small (tests/modules/mmp_inject.ko
 * also counts its calls by this name).
 */
static noinline void top_lose(const struct root_entry *e)
{
	struct mmp_stat __percpu *live = READ_ONCE(mmp_live);
	struct mmp_stat *p = this_cpu_ptr(live);
	struct mmp_root_sum r;

	/* an entry no CPU ever added to: no scan of CPUs */
	if (!READ_ONCE(e->summed))
		return;
	sum_of(e, live, &r);
	p->top_lost[0] += r.holds;
	p->top_lost[1] += r.hold_ns;
	p->top_lost[2] += r.wait_ns;
}

/* find(): an entry of the key exists, but is changing */
#define CHANGING ((struct root_entry *)1)

/*
 * @root's live entry, found without the lock, with its seqcount's value
 * in *@seqv and its life in *@gen; NULL when it has none, CHANGING while
 * one is being changed.
 */
static struct root_entry *find(struct bucket *b, const void *root,
			       unsigned int *seqv, u64 *gen)
{
	int i;

	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];
		unsigned int seq;

		if (READ_ONCE(e->key) != root)
			continue;
		seq = raw_seqcount_begin(&e->seq);
		*gen = READ_ONCE(e->gen);
		if (READ_ONCE(e->key) != root ||
		    read_seqcount_retry(&e->seq, seq))
			return CHANGING;
		*seqv = seq;
		return e;
	}
	return NULL;
}

/* No slot @root could take, as read without the lock: eight live roots */
static bool bucket_full(const struct bucket *b)
{
	int i;

	for (i = 0; i < BUCKET_SLOTS; i++)
		if (!READ_ONCE(b->e[i].key))
			return false;
	return true;
}

/*
 * Under the bucket lock: the live entry of @root, or a new one; NULL when
 * the bucket is full of live roots. A new one takes a free slot, else the
 * dead entry no CPU added to, else the one dead longest; what an evicted
 * entry's sums held goes to the lost line (top_lose()).
 */
static struct root_entry *lookup(struct bucket *b, const void *root)
{
	struct root_entry *victim = NULL;
	int i;

	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->used && e->alive && e->key == root)
			return e;
		if (!e->used && !victim)
			victim = e;
	}
	for (i = 0; !victim && i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->alive)
			continue;
		if (!e->summed) {
			victim = e;
			break;
		}
	}
	for (i = 0; !victim && i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (!e->alive && (!victim || e->died < victim->died))
			victim = e;
	}
	if (!victim)
		return NULL;
	if (victim->used) {
		this_cpu_ptr(READ_ONCE(mmp_live))->top_evicted++;
		top_lose(victim);
	}
	/* under a raw spinlock: preemption is off */
	victim->id = this_cpu_inc_return(*next_id) * nr_cpu_ids +
		     smp_processor_id();
	victim->used = true;
	victim->alive = true;
	victim->summed = false;
	entry_set(victim, root, false);
	return victim;
}

/*
 * @anon_vma's live entry as a root, if it has one: marked dead, or
 * forgotten outright with what its sums hold counted in the lost line.
 * Without the lock when there is none, which is the rule for an anon_vma
 * at its birth or attach, and for a root never used.
 */
static void end_root(const void *anon_vma, bool forget)
{
	struct bucket *b = bucket_of(anon_vma);
	unsigned int seqv;
	u64 gen;
	int i;

	if (!find(b, anon_vma, &seqv, &gen))
		return;
	raw_spin_lock(&b->lock);
	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->used && e->alive && e->key == anon_vma) {
			if (forget)
				top_lose(e);
			e->alive = false;
			e->used = !forget;
			e->died = ++b->deaths;
			entry_set(e, NULL, !forget);
		}
	}
	raw_spin_unlock(&b->lock);
}

/*
 * A birth: an entry still live at this address is an earlier life whose
 * free was not seen (the probes were detached): it ends, as dead.
 */
void mmp_top_born(const void *anon_vma)
{
	end_root(anon_vma, false);
}

void mmp_top_died(const void *anon_vma)
{
	end_root(anon_vma, false);
}

static void add_sum(struct mmp_stat *p, struct root_entry *e,
		    u64 gen, u64 wait_ns, u64 hold_ns, u64 holds,
		    u64 attached)
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
		WRITE_ONCE(s->attached, 0);
		smp_wmb();	/* the zeroes before the gen: see sum_of() */
		WRITE_ONCE(s->gen, gen);
	}
	WRITE_ONCE(s->wait_ns, s->wait_ns + wait_ns);
	WRITE_ONCE(s->hold_ns, s->hold_ns + hold_ns);
	WRITE_ONCE(s->holds, s->holds + holds);
	WRITE_ONCE(s->attached, s->attached + attached);
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

/* What cannot go to an entry: counted in @p's lost line, never dropped */
static void lost(struct mmp_stat *p, u64 wait_ns, u64 hold_ns, u64 holds)
{
	p->top_full_holds += holds;
	p->top_lost[0] += holds;
	p->top_lost[1] += hold_ns;
	p->top_lost[2] += wait_ns;
}

/*
 * A hold (@holds 1), a wait, or an attach under @root (@attached 1) for
 * @root's entry: found without the lock, else made under it; with the
 * bucket full of live roots, a hold or a wait is lost without the lock too
 * (an attach is only a count of the tree: it is not in the stats).
 */
static void account(struct mmp_stat *p, const void *root, u64 wait_ns,
		    u64 hold_ns, u64 holds, u64 attached)
{
	struct bucket *b = bucket_of(root);
	struct root_entry *e;
	unsigned int seqv;
	u64 gen;

	e = find(b, root, &seqv, &gen);
	if (e && e != CHANGING) {
		add_sum(p, e, gen, wait_ns, hold_ns, holds, attached);
		cache_fill(p, root, e, seqv);
		return;
	}
	if (!e && bucket_full(b)) {
		lost(p, wait_ns, hold_ns, holds);
		return;
	}
	raw_spin_lock(&b->lock);
	e = lookup(b, root);
	if (e) {
		add_sum(p, e, e->gen, wait_ns, hold_ns, holds, attached);
		/* writers of the entry hold the lock: its seqcount is even */
		cache_fill(p, root, e, raw_read_seqcount(&e->seq));
	} else {
		lost(p, wait_ns, hold_ns, holds);
	}
	raw_spin_unlock(&b->lock);
}

/*
 * anon_vma_fork() placed @anon_vma, born as a root of its own, under @root:
 * an entry of its own (only a stale one of an earlier life at this address
 * can exist: nothing locked it yet) goes, its sums counted lost; @root
 * counts it.
 */
void mmp_top_attached(struct mmp_stat *p, const void *anon_vma,
		      const void *root)
{
	end_root(anon_vma, true);
	account(p, root, 0, 0, 0, 1);
}

/* mmp_top_account() for a root other than this CPU's last, or changed */
void mmp_top_account_slow(struct mmp_stat *p, const void *root, u64 hold_ns)
{
	account(p, root, 0, hold_ns, 1, 0);
}

/*
 * A contended acquisition's wait, when it ended: where the stats take it,
 * in the same copy (at the release it could land in another, across a
 * reset, or in none, across a detach).
 */
void mmp_top_wait(struct mmp_stat *p, const void *root, u64 wait_ns)
{
	account(p, root, wait_ns, 0, 0, 0);
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
	u64 full_holds = 0, evicted = 0, lost[3] = {};
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
			r->alive = e->alive;
			sum_of(e, live, &r->sum);
			/* the root, and those attached under it since */
			r->anon_vmas = 1 + r->sum.attached;
			if (r->sum.holds)
				used++;
		}
		raw_spin_unlock(&buckets[i].lock);
	}
	for_each_possible_cpu(cpu) {
		const struct mmp_stat *c = per_cpu_ptr(live, cpu);

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
	next_id = alloc_percpu(u64);
	if (!buckets || !next_id) {
		mmp_top_exit();
		return -ENOMEM;
	}
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
	free_percpu(next_id);
	next_id = NULL;
}
