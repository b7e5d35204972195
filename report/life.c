// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma lifecycles, replayed from alloc/get/put/free, and the four
 * lifecycle invariants. A life is settled when the next life at its
 * address begins, or at the end: a put may be traced after the free it
 * preceded (the put's event follows its atomic decrement, and another CPU
 * may free the object in between), so a put that did not reach 0 still
 * belongs to the dead life. A failed get (inc-not-zero) on a dead life
 * with refcount 0 is the race folio_get_anon_vma() is built to lose.
 * Lock events are no sighting of a live object: the rmap walk may trylock
 * a freed anon_vma (SLAB_TYPESAFE_BY_RCU) before it finds the folio gone.
 */
#include "grow.h"
#include "hmap.h"
#include "report.h"

enum { SEEN = 1, LIVE, DEAD };	/* SEEN: born before the trace */

struct life {
	u64 addr, root, born;
	int state;
	u64 gets, puts, zero, members;
	int64_t peak;
};

static struct hmap where;	/* (addr, 0) -> index + 1 of its current life */
static struct life *lives;
static size_t nlives, caplives;
static u64 born, freed, late_puts, raced_gets, reuses;
static struct dist lifetime, peak, tree;

static struct life *life_at(u64 addr)
{
	u64 *ix = hmap_get(&where, addr, 0, false);

	return ix ? &lives[*ix - 1] : NULL;
}

static struct life *new_life(u64 addr, u64 root, int state, u64 ts)
{
	grow(&lives, &caplives, nlives, sizeof(*lives));
	lives[nlives] = (struct life){ .addr = addr, .root = root, .born = ts, .state = state };
	*hmap_get(&where, addr, 0, true) = ++nlives;
	return &lives[nlives - 1];
}

/* A member seen alive: its root cannot go before it does. */
static void join_root(struct life *l)
{
	struct life *r;

	if (l->root == l->addr)
		return;
	r = life_at(l->root);
	if (!r)
		r = new_life(l->root, l->root, SEEN, 0);
	r->members++;
}

static void settle(struct life *l, const struct mm_event *e)
{
	if (l->state == DEAD && l->born && 1 + l->gets != l->puts)
		violation(INV_REFCOUNT, e, "the previous life of 0x%llx had 1 + %llu gets "
			  "but %llu puts", (unsigned long long)l->addr,
			  (unsigned long long)l->gets, (unsigned long long)l->puts);
}

void life_event(const struct mm_event *e)
{
	u64 x = fu(e, F_ANON_VMA);
	int64_t v = e->f[F_REFCOUNT];
	struct life *l, *r;

	switch (e->type) {
	case EV_AV_ALLOC: case EV_AV_GET: case EV_AV_GET_FAILED: case EV_AV_PUT:
	case EV_AV_FREE: case EV_AV_REUSE:
		break;
	default:
		return;
	}
	l = life_at(x);
	if (e->type == EV_AV_ALLOC) {
		if (l && l->state != DEAD)
			violation(INV_FREE, e, "0x%llx allocated again with no free of its "
				  "previous life", (unsigned long long)x);
		if (l)
			settle(l, e);
		l = new_life(x, fu(e, F_ROOT), LIVE, e->ts);
		l->peak = v;
		join_root(l);
		born++;
		return;
	}
	if (has(e, F_REFCOUNT)) {
		inv_count(INV_REFCOUNT);
		if (v < 0)
			violation(INV_REFCOUNT, e, "refcount below zero");
	}
	if (!l) {	/* born before the trace */
		l = new_life(x, fu(e, F_ROOT), SEEN, 0);
		join_root(l);
	}
	if (l->state == DEAD) {
		if (e->type == EV_AV_PUT && v > 0) {
			l->puts++;
			late_puts++;
		} else if (e->type == EV_AV_GET_FAILED && v == 0) {
			raced_gets++;
		} else {
			violation(INV_FREE, e, "%s after the free of 0x%llx", e->name,
				  (unsigned long long)x);
		}
		return;
	}
	if (v > l->peak)
		l->peak = v;
	switch (e->type) {
	case EV_AV_GET:
		l->gets++;
		break;
	case EV_AV_PUT:
		l->puts++;
		if (v == 0)
			l->zero++;
		break;
	case EV_AV_REUSE:
		reuses++;
		inv_count(INV_REUSE);
		if (e->f[F_NUM_CHILDREN] >= 2 || e->f[F_NUM_ACTIVE_VMAS] != 0)
			violation(INV_REUSE, e, "reused with num_children=%lld num_active_vmas=%lld "
				  "(wants < 2 and 0)", (long long)e->f[F_NUM_CHILDREN],
				  (long long)e->f[F_NUM_ACTIVE_VMAS]);
		break;
	case EV_AV_FREE:
		inv_count(INV_FREE);
		inv_count(INV_ROOT);
		if (v != 0)
			violation(INV_FREE, e, "freed with refcount %lld", (long long)v);
		else if (l->state == LIVE && l->zero != 1)
			violation(INV_FREE, e, "freed after %llu puts to 0, not 1",
				  (unsigned long long)l->zero);
		if (l->root != x) {
			r = life_at(l->root);
			if (r && r->members)
				r->members--;
			if (r && r->state == DEAD)
				violation(INV_ROOT, e, "member freed after its root 0x%llx",
					  (unsigned long long)l->root);
		} else if (l->members) {
			violation(INV_ROOT, e, "root freed with %llu members alive",
				  (unsigned long long)l->members);
		}
		if (l->state == LIVE) {
			dist_add(&lifetime, e->ts - l->born);
			dist_add(&peak, l->peak);
		}
		l->state = DEAD;
		freed++;
		break;
	default:
		break;
	}
}

void life_finish(void)
{
	for (size_t i = 0; i < nlives; i++)
		if (hmap_get(&where, lives[i].addr, 0, false) &&
		    *hmap_get(&where, lives[i].addr, 0, false) == i + 1) {
			settle(&lives[i], NULL);
			if (lives[i].root == lives[i].addr && lives[i].state == LIVE)
				dist_add(&tree, lives[i].members + 1);
		}
}

void life_report(FILE *f, const struct report_opts *o)
{
	fprintf(f, "== anon_vma lifecycles\n");
	fprintf(f, "born %llu, freed %llu (%llu puts traced after their free, "
		"%llu failed gets on freed objects), reuses %llu\n",
		(unsigned long long)born, (unsigned long long)freed,
		(unsigned long long)late_puts, (unsigned long long)raced_gets,
		(unsigned long long)reuses);
	fprintf(f, "lifetime (born and freed in the trace): ");
	dist_line(f, &lifetime, "ns");
	fprintf(f, "\nrefcount peak per life: ");
	dist_line(f, &peak, "");
	fprintf(f, "\nanon_vmas per tree still alive at the end (born in the trace): ");
	dist_line(f, &tree, "");
	fprintf(f, "\n\n");
	if (!o->summary)
		dist_hist(f, &lifetime, "anon_vma_lifetime_ns", o->brief);
}
