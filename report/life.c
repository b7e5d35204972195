// SPDX-License-Identifier: GPL-2.0
/*
 * anon_vma lifecycles, replayed from alloc/attach/get/put/free, and the
 * four lifecycle invariants. A life runs from an alloc to the next alloc
 * at its address (an alloc is always traced after the previous life's
 * free); it is settled then, or at the end of the trace.
 *
 * Timestamps do not order one object's refcount transitions: each event
 * follows its atomic, so two CPUs' transitions may be traced in the other
 * order, and a put after the free it preceded. The
 * refcount value each transition produced does order them: a life is a
 * walk from 1 (alloc) to 0 by steps of one, so with G[v] the gets that
 * produced v and P[v] the puts that produced v, it is a valid walk iff
 * G[1] == 0, P[0] == 1, G[v] == P[v-1] for v >= 2 and G[v] > 0 implies
 * G[v-1] > 0 for v >= 3. Only a life born and freed in the trace can be
 * held to all of it; the others to what no cut of the trace can excuse.
 *
 * So a get or put traced after the free is no violation in itself: a put
 * may be the late event of the life's own step, and with
 * SLAB_TYPESAFE_BY_RCU a reader holding a stale folio->mapping may
 * inc-not-zero the object as soon as the next life's alloc has set its
 * refcount, before that alloc is traced; its step up and back down then
 * fits the dead life's walk as well. The values judge: on a freed object a
 * get can only make 1, which no walk has. What timestamps do order: a
 * second free, an attach or a reuse after the free; and a child's free
 * precedes its put of the root, hence the root's free. Lock events are no
 * sighting of a live object: the rmap walk may trylock a freed anon_vma
 * before it finds the folio gone.
 *
 * A trace that does not record some of these events (trace-cmd -e of a
 * few) is held only to what those it has can show: no free recorded, no
 * "allocated again without a free"; no gets or no puts, no walk.
 */
#include <stdlib.h>

#include "grow.h"
#include "hmap.h"
#include "report.h"

enum { SEEN = 1, LIVE, DEAD };	/* SEEN: born before the trace */

struct life {
	u64 addr, born, born_seq, free_seq;
	size_t root;		/* index + 1 of its root's life; 0: its own root */
	int state;
	u64 members;		/* as a root: members attached and not freed */
	int64_t peak;
	struct mm_event *free_ev;	/* its free, to show what a settled life broke */
	u64 *tr;		/* transitions: value << 1 | 1 for a put */
	size_t ntr, captr;
};

static struct hmap where;	/* (addr, 0) -> index + 1 of its current life */
static struct life *lives;
static size_t nlives, caplives;
static uint32_t recorded;	/* bit per ev_type the trace records */
static u64 born, freed, attached, late_gets, late_puts, failed_gets, raced_gets, reuses;
static struct dist lifetime, peak, tree;

static bool records(enum ev_type t)
{
	return recorded & (1u << t);
}

static size_t life_at(u64 addr)
{
	u64 *ix = hmap_get(&where, addr, 0, false);

	return ix ? *ix : 0;
}

/* Index + 1 of the new life; any pointer into lives is stale after it. */
static size_t new_life(u64 addr, int state, const struct mm_event *e)
{
	grow(&lives, &caplives, nlives, sizeof(*lives));
	lives[nlives] = (struct life){ .addr = addr, .state = state, .peak = 1 };
	if (state == LIVE) {
		lives[nlives].born = e->ts;
		lives[nlives].born_seq = e->seq;
	}
	*hmap_get(&where, addr, 0, true) = ++nlives;
	return nlives;
}

/* Life ix joins the tree of root: the root cannot go before it does. */
static void join_root(size_t ix, u64 root, const struct mm_event *e)
{
	size_t r = life_at(root);

	if (!r)
		r = new_life(root, SEEN, e);
	if (lives[r - 1].state == DEAD)
		violation(INV_ROOT, e, "0x%" PRIx64 " joins the tree of 0x%" PRIx64
			  " after its free", lives[ix - 1].addr, root);
	else
		lives[r - 1].members++;
	lives[ix - 1].root = r;
}

static void leave_root(struct life *l)
{
	if (l->root && lives[l->root - 1].members)
		lives[l->root - 1].members--;
}

static void transition(struct life *l, int64_t v, int put)
{
	grow(&l->tr, &l->captr, l->ntr, sizeof(*l->tr));
	l->tr[l->ntr++] = (u64)v << 1 | put;
	if (v + put > l->peak)
		l->peak = v + put;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

struct level {
	int64_t v;
	u64 g, p;
};

static const struct level *level_of(const struct level *lv, size_t n, int64_t v)
{
	static const struct level none;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (lv[mid].v == v)
			return &lv[mid];
		if (lv[mid].v < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &none;
}

/* The first level at which the life's walk breaks, as a message; 0 if none. */
static int broken_walk(const struct level *lv, size_t n, char *msg, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		int64_t v = lv[i].v;
		const struct level *up = level_of(lv, n, v + 1), *down = level_of(lv, n, v - 1);

		if (v >= 1 && lv[i].p && up->g != lv[i].p) {
			snprintf(msg, len, "%" PRIu64 " puts made it %" PRId64 " but %" PRIu64
				 " gets made it %" PRId64, lv[i].p, v, up->g, v + 1);
			return 1;
		}
		if (v >= 2 && lv[i].g && down->p != lv[i].g) {
			snprintf(msg, len, "%" PRIu64 " gets made it %" PRId64 " but %" PRIu64
				 " puts made it %" PRId64, lv[i].g, v, down->p, v - 1);
			return 1;
		}
		if (v >= 3 && lv[i].g && !down->g) {
			snprintf(msg, len, "a get made it %" PRId64 " but none made it %" PRId64,
				 v, v - 1);
			return 1;
		}
	}
	return 0;
}

/*
 * The checks of a whole life, made when it ends (shown with its free, if
 * any, else with e); frees its transitions.
 */
static void settle(struct life *l, const struct mm_event *e)
{
	struct level *lv = NULL;
	size_t n = 0;
	char msg[160], when[64];

	if (l->free_ev)
		e = l->free_ev;
	if (l->ntr) {	/* l->tr is NULL until the first transition */
		qsort(l->tr, l->ntr, sizeof(*l->tr), cmp_u64);
		lv = xrealloc(NULL, l->ntr * sizeof(*lv));	/* each set before use */
	}
	for (size_t i = 0; i < l->ntr; i++) {
		int64_t v = (int64_t)(l->tr[i] >> 1);

		if (!n || lv[n - 1].v != v)
			lv[n++] = (struct level){ .v = v };
		if (l->tr[i] & 1)
			lv[n - 1].p++;
		else
			lv[n - 1].g++;
	}
	if (l->born)
		snprintf(when, sizeof(when), "born at event #%" PRIu64, l->born_seq);
	else
		snprintf(when, sizeof(when), "born before the trace");
	if (level_of(lv, n, 0)->p > 1)
		violation(INV_REFCOUNT, e, "the life of 0x%" PRIx64 " %s has %" PRIu64 " puts to 0",
			  l->addr, when, level_of(lv, n, 0)->p);
	if (l->state == DEAD && l->born && records(EV_AV_PUT)) {
		if (!level_of(lv, n, 0)->p)
			violation(INV_FREE, e, "0x%" PRIx64 " (%s) was freed at event #%" PRIu64
				  " with no put to 0 in its life", l->addr, when, l->free_seq);
		if (records(EV_AV_GET) && broken_walk(lv, n, msg, sizeof(msg)))
			violation(INV_REFCOUNT, e, "the life of 0x%" PRIx64 " (%s, freed at "
				  "event #%" PRIu64 ") is no walk from 1 to 0: %s", l->addr, when,
				  l->free_seq, msg);
	}
	free(lv);
	free(l->free_ev);
	l->free_ev = NULL;
	free(l->tr);
	l->tr = NULL;
	l->ntr = l->captr = 0;
}

static void on_free(size_t ix, const struct mm_event *e)
{
	struct life *l = &lives[ix - 1];

	inv_count(INV_FREE);
	inv_count(INV_ROOT);
	if (e->f[F_REFCOUNT] != 0)
		violation(INV_FREE, e, "freed with refcount %" PRId64, e->f[F_REFCOUNT]);
	if (l->root) {
		leave_root(l);
		if (lives[l->root - 1].state == DEAD)
			violation(INV_ROOT, e, "member freed after its root 0x%" PRIx64,
				  lives[l->root - 1].addr);
	} else if (l->members) {
		violation(INV_ROOT, e, "root freed with %" PRIu64 " members alive", l->members);
	}
	if (l->state == LIVE) {
		dist_add(&lifetime, e->ts - l->born);
		dist_add(&peak, l->peak);
	}
	l->state = DEAD;
	l->free_seq = e->seq;
	l->free_ev = xrealloc(NULL, sizeof(*l->free_ev));
	*l->free_ev = *e;
	l->free_ev->name = ev_names[EV_AV_FREE];	/* e->name lives as long as e */
	freed++;
}

void life_event(const struct mm_event *e, uint32_t rec)
{
	u64 x = fu(e, F_ANON_VMA);
	int64_t v = e->f[F_REFCOUNT];
	size_t ix;
	struct life *l;

	switch (e->type) {
	case EV_AV_ALLOC: case EV_AV_ATTACH: case EV_AV_GET: case EV_AV_GET_FAILED:
	case EV_AV_PUT: case EV_AV_FREE: case EV_AV_REUSE:
		break;
	default:
		return;
	}
	recorded = rec;
	ix = life_at(x);
	if (e->type == EV_AV_ALLOC) {
		/* born its own root; an attach event moves it under another */
		if (ix && lives[ix - 1].state != DEAD && records(EV_AV_FREE)) {
			violation(INV_FREE, e, "0x%" PRIx64 " allocated again with no free of its "
				  "previous life", x);
			leave_root(&lives[ix - 1]);
		}
		if (ix)
			settle(&lives[ix - 1], e);
		new_life(x, LIVE, e);
		born++;
		return;
	}
	if (has(e, F_REFCOUNT)) {
		inv_count(INV_REFCOUNT);
		if (v < 0)
			violation(INV_REFCOUNT, e, "refcount below zero");
	}
	if (!ix) {	/* born before the trace */
		ix = new_life(x, SEEN, e);
		if (has(e, F_ROOT) && fu(e, F_ROOT) != x && e->type != EV_AV_ATTACH)
			join_root(ix, fu(e, F_ROOT), e);
	}
	l = &lives[ix - 1];
	if (e->type == EV_AV_GET_FAILED) {
		/*
		 * The event no longer carries a refcount, 0 by construction (an
		 * inc-not-zero fails only there); a trace of an older kernel that
		 * still has the field is held to it.
		 */
		failed_gets++;
		if (has(e, F_REFCOUNT) && v != 0)
			violation(INV_REFCOUNT, e, "a failed get with refcount %" PRId64 ": "
				  "inc-not-zero fails only on 0", v);
		else if (l->state == DEAD)
			raced_gets++;
		return;
	}
	if (e->type == EV_AV_PUT) {
		if (l->state == DEAD)
			late_puts++;
		if (v >= 0)
			transition(l, v, 1);
		return;
	}
	if (e->type == EV_AV_GET) {
		if (l->state == DEAD)
			late_gets++;
		if (v >= 0 && v <= 1)
			violation(INV_REFCOUNT, e, "a get made the refcount %" PRId64 ": from %"
				  PRId64 ", where only an alloc may start a life", v, v - 1);
		else if (v > 1)
			transition(l, v, 0);
		return;
	}
	if (l->state == DEAD) {
		violation(INV_FREE, e, "%s after the free of 0x%" PRIx64, e->name, x);
		return;
	}
	switch (e->type) {
	case EV_AV_ATTACH:
		attached++;
		inv_count(INV_ROOT);
		if (l->root && lives[l->root - 1].addr != fu(e, F_ROOT))
			violation(INV_ROOT, e, "0x%" PRIx64 " attached under 0x%" PRIx64 ", but it "
				  "is in the tree of 0x%" PRIx64, x, fu(e, F_ROOT),
				  lives[l->root - 1].addr);
		else if (!l->root && fu(e, F_ROOT) != x)
			join_root(ix, fu(e, F_ROOT), e);
		break;
	case EV_AV_REUSE:
		/*
		 * Only num_children judges: the event's num_active_vmas, 0 by
		 * construction at a reuse, was dropped; in an older trace that
		 * carries it, it is read as any field no analysis needs, and left.
		 */
		reuses++;
		inv_count(INV_REUSE);
		if (e->f[F_NUM_CHILDREN] >= 2)
			violation(INV_REUSE, e, "reused with num_children=%" PRId64 " (wants < 2)",
				  e->f[F_NUM_CHILDREN]);
		break;
	case EV_AV_FREE:
		on_free(ix, e);
		break;
	default:
		break;
	}
}

void life_finish(void)
{
	for (size_t i = 0; i < nlives; i++)
		if (life_at(lives[i].addr) == i + 1) {
			settle(&lives[i], NULL);
			if (!lives[i].root && lives[i].state == LIVE)
				dist_add(&tree, lives[i].members + 1);
		}
}

void life_report(FILE *f, const struct report_opts *o)
{
	fprintf(f, "== anon_vma lifecycles\n");
	fprintf(f, "born %" PRIu64 " (%" PRIu64 " attached under another root), freed %" PRIu64
		" (%" PRIu64 " puts and %" PRIu64 " gets traced after their free), failed gets %"
		PRIu64 " (%" PRIu64 " on freed objects), reuses %" PRIu64 "\n", born, attached,
		freed, late_puts, late_gets, failed_gets, raced_gets, reuses);
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
