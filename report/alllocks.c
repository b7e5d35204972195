// SPDX-License-Identifier: GPL-2.0
/* mm_take_all_locks: how long taking took, how long all were held, how many. */
#include "hmap.h"
#include "report.h"

static struct hmap began, taken;	/* (mm, pid) -> ts */
static struct dist take, held, roots, maps;
static u64 calls, failed;

void alllocks_event(const struct mm_event *e)
{
	u64 *t;

	switch (e->type) {
	case EV_AL_START:
		calls++;
		*hmap_get(&began, fu(e, F_MM), e->pid, true) = e->ts;
		break;
	case EV_AL_ACQUIRED:
		t = hmap_get(&began, fu(e, F_MM), e->pid, false);
		if (t) {
			dist_add(&take, e->ts - *t);
			hmap_del(&began, fu(e, F_MM), e->pid);
		}
		if (e->f[F_RET]) {	/* -EINTR: a signal cut the taking short */
			failed++;
			break;
		}
		dist_add(&roots, fu(e, F_ANON_VMA_ROOTS));
		dist_add(&maps, fu(e, F_MAPPINGS));
		*hmap_get(&taken, fu(e, F_MM), e->pid, true) = e->ts;
		break;
	case EV_AL_DROP:	/* it cannot fail: only its time is read */
		t = hmap_get(&taken, fu(e, F_MM), e->pid, false);
		if (t) {
			dist_add(&held, e->ts - *t);
			hmap_del(&taken, fu(e, F_MM), e->pid);
		}
		break;
	default:
		break;
	}
}

void alllocks_report(FILE *f, const struct report_opts *o)
{
	if (o->summary && !calls)
		return;
	fprintf(f, "== mm_take_all_locks\n");
	fprintf(f, "calls %" PRIu64 ", failed %" PRIu64 "\ntaking: ", calls, failed);
	dist_line(f, &take, "ns");
	fprintf(f, "\nheld: ");
	dist_line(f, &held, "ns");
	fprintf(f, "\nanon_vma roots locked: ");
	dist_line(f, &roots, "roots");
	fprintf(f, "\nmappings locked: ");
	dist_line(f, &maps, "mappings");
	fprintf(f, "\n\n");
}
