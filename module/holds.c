// SPDX-License-Identifier: GPL-2.0
/*
 * Waits and holds in flight. The locks traced here are sleeping locks: a
 * holder may be preempted, sleep and migrate between acquire and release,
 * so a hold is keyed by (task, lock, kind, mode), not by CPU. The table is
 * allocated once at load (hold_slots entries) in buckets of eight, each with
 * its own lock, so two CPUs only meet on a bucket when their keys collide.
 * A full bucket is counted by the caller as untracked, never dropped
 * silently. Concurrent readers of one rwsem are distinct tasks: distinct
 * keys. The bucket locks leave interrupts on: every traced lock is a
 * sleeping lock and every gather runs in process context, so no probe can
 * run in an interrupt that lands inside a bucket's critical section.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "mmpreempt.h"

#define BUCKET_SLOTS 8

struct hold {
	const void *task;
	const void *obj;
	u64 t0;
	u8 kind;
	u8 write;
	u8 used;
};

struct bucket {
	raw_spinlock_t lock;
	struct hold slot[BUCKET_SLOTS];
};

static struct bucket *buckets;
static unsigned int nr_buckets;	/* a power of two */
static atomic_t in_flight;

static struct bucket *bucket_of(const void *task, const void *obj, int kind)
{
	unsigned long h = (unsigned long)task ^ ((unsigned long)obj * 31) ^ kind;

	return &buckets[hash_long(h, ilog2(nr_buckets))];
}

static bool match(const struct hold *s, const void *task, const void *obj,
		  int kind, bool write)
{
	return s->used && s->task == task && s->obj == obj && s->kind == kind &&
	       s->write == write;
}

/* Starts (or restarts) a timed interval; false when there is no room. */
bool mmp_hold_begin(const void *task, const void *obj, int kind, bool write,
		    u64 now)
{
	struct bucket *b = bucket_of(task, obj, kind);
	struct hold *free = NULL;
	int i;

	raw_spin_lock(&b->lock);
	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct hold *s = &b->slot[i];

		if (match(s, task, obj, kind, write)) {
			free = s;	/* a stale interval of ours: reuse it */
			break;
		}
		if (!s->used && !free)
			free = s;
	}
	if (free) {
		if (!free->used)
			atomic_inc(&in_flight);
		free->task = task;
		free->obj = obj;
		free->kind = kind;
		free->write = write;
		free->t0 = now;
		free->used = 1;
	}
	raw_spin_unlock(&b->lock);
	return free;
}

/* Ends an interval, giving its start in @t0; false when none was open. */
bool mmp_hold_end(const void *task, const void *obj, int kind, bool write,
		  u64 *t0)
{
	struct bucket *b = bucket_of(task, obj, kind);
	bool found = false;
	int i;

	raw_spin_lock(&b->lock);
	for (i = 0; i < BUCKET_SLOTS; i++) {
		struct hold *s = &b->slot[i];

		if (match(s, task, obj, kind, write)) {
			*t0 = s->t0;
			s->used = 0;
			atomic_dec(&in_flight);
			found = true;
			break;
		}
	}
	raw_spin_unlock(&b->lock);
	return found;
}

unsigned int mmp_holds_in_flight(void)
{
	return atomic_read(&in_flight);
}

/* Forgets every interval in flight (reset, or probes attached anew). */
void mmp_holds_clear(void)
{
	unsigned int i;

	for (i = 0; i < nr_buckets; i++) {
		raw_spin_lock(&buckets[i].lock);
		memset(buckets[i].slot, 0, sizeof(buckets[i].slot));
		raw_spin_unlock(&buckets[i].lock);
	}
	atomic_set(&in_flight, 0);
}

int mmp_holds_init(unsigned int slots)
{
	unsigned int i;

	/* slots is validated at load: at least two buckets, a power of two */
	nr_buckets = slots / BUCKET_SLOTS;
	buckets = vzalloc(array_size(nr_buckets, sizeof(*buckets)));
	if (!buckets)
		return -ENOMEM;
	for (i = 0; i < nr_buckets; i++)
		raw_spin_lock_init(&buckets[i].lock);
	return 0;
}

void mmp_holds_exit(void)
{
	vfree(buckets);
	buckets = NULL;
}
