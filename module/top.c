// SPDX-License-Identifier: GPL-2.0
/*
 * Per root anon_vma totals for the "top" file. A root is known by its
 * address only while it lives: the slab reuses addresses, so each life gets
 * its own sequence number as id (printed instead of any pointer), and a
 * freed root's entry is kept, marked dead, until its slot is needed.
 * Roots born before the probes were attached get an entry on first use.
 * The table is the one lock the probes take (a bucket lock, shared only by
 * roots that hash together), once per release of an anon_vma lock, so it
 * sits behind a static key: load with top=0 (or mode=counting) and no
 * probe touches it.
 */
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "mmpreempt.h"

#define BUCKET_SLOTS 8

struct root_entry {
	const void *root;
	u64 id;
	u64 anon_vmas;		/* anon_vmas of the tree seen born, itself included */
	u64 wait_ns, hold_ns, holds;
	bool used, alive;
};

struct bucket {
	raw_spinlock_t lock;
	struct root_entry e[BUCKET_SLOTS];
};

static struct bucket *buckets;
static unsigned int nr_buckets;
static atomic64_t next_id;
static atomic64_t untracked;
static unsigned int top_n;

DEFINE_STATIC_KEY_TRUE(mmp_top_on);

static struct bucket *bucket_of(const void *root)
{
	return &buckets[hash_ptr(root, ilog2(nr_buckets))];
}

/* The live entry of @root, or a new one; NULL when the bucket is full. */
static struct root_entry *lookup(struct bucket *b, const void *root, bool born)
{
	struct root_entry *victim = NULL;
	int i;

	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->used && e->alive && e->root == root && !born)
			return e;
		if (e->used && e->alive && e->root == root)
			e->alive = false;	/* a new life at this address */
		if (!e->used && !victim)
			victim = e;
	}
	if (!victim) {
		/* evict the dead entry with the least hold time */
		for (i = 0; i < BUCKET_SLOTS; i++) {
			struct root_entry *e = &b->e[i];

			if (!e->alive && (!victim || e->hold_ns < victim->hold_ns))
				victim = e;
		}
	}
	if (!victim) {
		atomic64_inc(&untracked);
		return NULL;
	}
	memset(victim, 0, sizeof(*victim));
	victim->root = root;
	victim->id = atomic64_inc_return(&next_id);
	victim->used = true;
	victim->alive = true;
	victim->anon_vmas = 1;
	return victim;
}

void mmp_top_born(const void *anon_vma, const void *root)
{
	struct bucket *b = bucket_of(root);
	struct root_entry *e;

	raw_spin_lock(&b->lock);
	e = lookup(b, root, anon_vma == root);
	if (e && anon_vma != root)
		e->anon_vmas++;
	raw_spin_unlock(&b->lock);
}

/* @anon_vma's live entry as a root: marked dead, or forgotten outright */
static void end_root(const void *anon_vma, bool forget)
{
	struct bucket *b = bucket_of(anon_vma);
	int i;

	raw_spin_lock(&b->lock);
	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct root_entry *e = &b->e[i];

		if (e->used && e->alive && e->root == anon_vma) {
			if (forget)
				e->used = false;
			else
				e->alive = false;
		}
	}
	raw_spin_unlock(&b->lock);
}

/*
 * anon_vma_fork() placed @anon_vma, born as a root of its own, under @root:
 * its entry, which nothing can have locked yet, goes; @root counts it.
 */
void mmp_top_attached(const void *anon_vma, const void *root)
{
	end_root(anon_vma, true);
	mmp_top_born(anon_vma, root);
}

void mmp_top_died(const void *anon_vma)
{
	end_root(anon_vma, false);
}

void mmp_top_account(const void *root, u64 wait_ns, u64 hold_ns)
{
	struct bucket *b = bucket_of(root);
	struct root_entry *e;

	raw_spin_lock(&b->lock);
	e = lookup(b, root, false);
	if (e) {
		e->wait_ns += wait_ns;
		if (hold_ns) {
			e->hold_ns += hold_ns;
			e->holds++;
		}
	}
	raw_spin_unlock(&b->lock);
}

static int by_hold_desc(const void *a, const void *b)
{
	const struct root_entry *x = a, *y = b;

	return x->hold_ns < y->hold_ns ? 1 : x->hold_ns > y->hold_ns ? -1 : 0;
}

static int top_show(struct seq_file *m, void *v)
{
	size_t n = (size_t)nr_buckets * BUCKET_SLOTS, used = 0, i;
	struct root_entry *all;

	if (!static_key_enabled(&mmp_top_on)) {
		seq_puts(m, "# top is off: mmpreempt.ko was loaded with top=0 or mode=counting\n");
		return 0;
	}
	all = vmalloc(array_size(n, sizeof(*all)));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < nr_buckets; i++) {
		int j;

		raw_spin_lock(&buckets[i].lock);
		for (j = 0; j < BUCKET_SLOTS; j++)
			if (buckets[i].e[j].used && buckets[i].e[j].holds)
				all[used++] = buckets[i].e[j];
		raw_spin_unlock(&buckets[i].lock);
	}
	sort(all, used, sizeof(*all), by_hold_desc, NULL);
	seq_printf(m, "%-10s %14s %14s %10s %10s %s\n", "root_id", "hold_ns",
		   "wait_ns", "holds", "anon_vmas", "state");
	for (i = 0; i < used && i < top_n; i++)
		seq_printf(m, "%-10llu %14llu %14llu %10llu %10llu %s\n",
			   all[i].id, all[i].hold_ns, all[i].wait_ns, all[i].holds,
			   all[i].anon_vmas, all[i].alive ? "alive" : "freed");
	seq_printf(m, "# roots not tracked (table full): %lld\n",
		   (long long)atomic64_read(&untracked));
	vfree(all);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(top);

void mmp_top_debugfs(struct dentry *dir, unsigned int n)
{
	top_n = n;
	mmp_debugfs_file("top", 0400, dir, NULL, &top_fops);
}

void mmp_top_clear(void)
{
	unsigned int i;

	for (i = 0; buckets && i < nr_buckets; i++) {
		int j;

		/* live roots keep their ids: a reset starts no new life */
		raw_spin_lock(&buckets[i].lock);
		for (j = 0; j < BUCKET_SLOTS; j++) {
			struct root_entry *e = &buckets[i].e[j];

			if (!e->alive)
				e->used = false;
			e->wait_ns = 0;
			e->hold_ns = 0;
			e->holds = 0;
		}
		raw_spin_unlock(&buckets[i].lock);
	}
	atomic64_set(&untracked, 0);
}

int mmp_top_init(unsigned int slots)
{
	unsigned int i;

	if (!static_key_enabled(&mmp_top_on))
		return 0;
	/* slots is validated at load: at least two buckets, a power of two */
	nr_buckets = slots / BUCKET_SLOTS;
	buckets = vzalloc(array_size(nr_buckets, sizeof(*buckets)));
	if (!buckets)
		return -ENOMEM;
	for (i = 0; i < nr_buckets; i++)
		raw_spin_lock_init(&buckets[i].lock);
	return 0;
}

void mmp_top_exit(void)
{
	vfree(buckets);
	buckets = NULL;
}
