// SPDX-License-Identifier: GPL-2.0
/*
 * Waits, holds and gathers in flight. The locks traced here are sleeping locks: a
 * holder may be preempted, sleep and migrate between acquire and release,
 * so an interval is keyed by (task, lock, kind, mode), not by CPU.
 *
 * The table is open-addressed and lock-free (its fast path is inline, in
 * mmpreempt.h): a key may live in any of MMP_FLIGHT_PROBE slots from its
 * hash. A task claims a free slot with one cmpxchg on its task field; from
 * then on only that task reads or writes the slot, so the wait slot becomes
 * the hold slot in place and the release is one store. Other tasks only
 * ever read a claimed slot's task field. A task is never in two probes at
 * once (probes run with preemption disabled), so a task's own slots need no
 * further ordering. When all those slots are taken the caller counts the
 * interval untracked: never dropped silently. An interval whose end event
 * never came would stay claimed: holds.in_flight, read when nothing runs,
 * shows it (the paired events make it impossible short of a bug).
 */
#include <linux/vmalloc.h>

#include "mmpreempt.h"

struct mmp_flight_table mmp_ft __read_mostly;
struct mmp_flight mmp_flight_none;
static unsigned int nr_slots;

static struct mmp_flight *slot_at(unsigned long key, unsigned int i)
{
	return &mmp_ft.slot[(mmp_flight_home(key) - mmp_ft.slot + i) &
			    (nr_slots - 1)];
}

/* mmp_flight_begin() past a taken home slot */
struct mmp_flight *mmp_flight_begin_probing(unsigned long key)
{
	unsigned int i;

	for (i = 1; i < MMP_FLIGHT_PROBE; i++) {
		struct mmp_flight *f = slot_at(key, i);

		if (mmp_flight_claim(f, key))
			return f;
	}
	return NULL;
}

/* mmp_flight_find() past a home slot that is not the interval's */
struct mmp_flight *mmp_flight_find_probing(unsigned long key)
{
	unsigned int i;

	for (i = 1; i < MMP_FLIGHT_PROBE; i++) {
		struct mmp_flight *f = slot_at(key, i);

		if (mmp_flight_is(f, key))
			return f;
	}
	return NULL;
}

/* A count for the stats file: the fast path keeps none. */
unsigned int mmp_flight_count(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr_slots; i++)
		n += !!READ_ONCE(mmp_ft.slot[i].task);
	return n;
}

/* Forgets every interval; only while no probe is attached. */
void mmp_flight_clear(void)
{
	if (mmp_ft.slot)	/* none in counting mode */
		memset(mmp_ft.slot, 0, array_size(nr_slots, sizeof(*mmp_ft.slot)));
}

u64 mmp_flight_bytes(unsigned int nr)
{
	return (u64)nr * sizeof(*mmp_ft.slot);
}

int mmp_flight_init(unsigned int nr)
{
	/* nr is validated at load: a power of two */
	nr_slots = nr;
	mmp_ft.offset_mask = (nr - 1UL) << MMP_FLIGHT_SHIFT;
	mmp_ft.slot = vzalloc(array_size(nr, sizeof(*mmp_ft.slot)));
	return mmp_ft.slot ? 0 : -ENOMEM;
}

void mmp_flight_exit(void)
{
	vfree(mmp_ft.slot);
	mmp_ft.slot = NULL;
	nr_slots = 0;
}
