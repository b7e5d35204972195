// SPDX-License-Identifier: GPL-2.0
/*
 * mmreport: read a trace.dat recorded with the mmpreempt event systems (or
 * its text event stream) and report lock waits and holds, anon_vma trees
 * and lifecycles, mmu_gather batching, the stretches between preemption
 * points inside gathers and mm_take_all_locks; check the lifecycle and
 * locking invariants; optionally plot and compare with mmpreempt.ko's
 * stats of the same run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h"

struct run {
	bool dump;
	FILE *out;
	u64 seen[EV_NR];
	const struct read_result *res;	/* what the trace records */
};

/* Which of the kit's events (and sched_switch) the trace has none of. */
static void print_missing(const struct run *r)
{
	int n = 0;

	for (int t = EV_AV_LOCK_START; t <= EV_SCHED_SWITCH; t++)
		if (!r->seen[t])
			printf("%s %s", n++ ? "," : "no events in this trace:", ev_names[t]);
	if (n)
		printf("\n");
	if (!r->seen[EV_SCHED_SWITCH])
		printf("(without sched_switch no switch-out is seen: a stretch in a gather "
		       "includes any time off CPU)\n");
	printf("\n");
}

static void usage(FILE *f)
{
	fprintf(f,
		"mmreport reports on a trace.dat of the mmpreempt events and checks their\n"
		"invariants.\n"
		"usage: mmreport [--top N] [--brief|--summary] [--plots DIR] [--stats FILE]\n"
		"                [--require T] TRACE\n"
		"       mmreport --check [--require T] TRACE\n"
		"       mmreport --dump TRACE > events.txt\n"
		"       mmreport --timeline DIR [--top N] TRACE\n"
		"  TRACE         a trace.dat, or a text event stream as --dump writes it\n"
		"                (\"ts cpu pid comm event key=value...\", '#' comments)\n"
		"  --top N       length of the top-N lists (default 5)\n"
		"  --brief       cut each histogram to its 6 fullest buckets\n"
		"  --summary     the short form: top 3 lists, 4 buckets a histogram\n"
		"  --plots DIR   gnuplot data, plots.gp and SVG + PNG plots into DIR\n"
		"  --stats FILE  compare the counts with mmpreempt.ko's stats of the same run\n"
		"                (a counter 0 on both sides, or not recorded, is n/a)\n"
		"  --require T   fail unless each invariant in T (tags, comma-separated:\n"
		"                refcount,free,root,reuse,lock,wait; or all) checked at least\n"
		"                one event: an invariant that checked nothing reads n/a\n"
		"  --check       print only the invariant verdict\n"
		"  --dump        print the events as a text stream (edit it to craft a trace)\n"
		"  --timeline DIR\n"
		"                only the timeline's data into DIR, for report/timeline.sh:\n"
		"                the holds, waits, switch-outs holding a lock, gather\n"
		"                stretches and preemption points of the N tasks (--top,\n"
		"                default 12) with the longest hold or stretch, every hold\n"
		"                as a heat map, and summary.txt, also printed\n"
		"Exit status: 0 all good; else the sum of one bit per kind of failure, each\n"
		"but 2 told by its verdict lines on stdout (starting as in parentheses):\n"
		"   1  an invariant violated (VIOLATION)\n"
		"   2  bad usage, an unreadable trace or stats file, plots or timeline not\n"
		"      written: told on stderr as \"mmreport: WHAT: WHY\"\n"
		"   4  the stats disagree with the trace (MISMATCH) or compare nothing (0 of 0)\n"
		"   8  the ring buffer lost events (LOST)\n"
		"  16  a --require'd invariant checked nothing (NOT EXERCISED)\n"
		"Examples:\n"
		"  mmreport results/demo/trace.dat\n"
		"  mmreport --plots results/demo --stats results/demo/module/stats \\\n"
		"           results/demo/trace.dat\n"
		"  mmreport --check --require refcount,free,root,lock trace.dat\n"
		"  mmreport --dump trace.dat | sed 's/refcount=1$/refcount=-1/' > bad.txt;"
		" mmreport --check bad.txt\n"
		"  mmreport --timeline results/demo/timeline results/demo/trace.dat\n");
}

static void sink(const struct mm_event *e, void *data)
{
	struct run *r = data;

	if (r->dump) {
		ev_print(r->out, e);
		return;
	}
	r->seen[e->type]++;
	timeline_event(e);
	locks_event(e);
	life_event(e, r->res->recorded);
	gather_event(e);
	alllocks_event(e);
	window_event(e);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		{ "brief", no_argument, NULL, 'b' },
		{ "summary", no_argument, NULL, 'S' },
		{ "plots", required_argument, NULL, 'p' },
		{ "stats", required_argument, NULL, 's' },
		{ "require", required_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'c' },
		{ "dump", no_argument, NULL, 'd' },
		{ "timeline", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct report_opts o = { .top = 5 };
	struct read_result res = { 0 };
	struct run run = { .out = stdout, .res = &res };
	const char *plots = NULL, *stats = NULL, *timeline = NULL;
	int c, at, check_only = 0, status = 0, require = 0, rows = 0;
	char *end;

	opterr = 0;	/* getopt's own messages name argv[0], not "mmreport" */
	/* at: where getopt was, to tell whether it is inside a cluster of short options */
	while ((at = optind, c = getopt_long(argc, argv, ":t:bSp:s:r:cdT:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			o.top = (int)strtol(optarg, &end, 10);
			if (*end || o.top < 1 || o.top > 1000) {
				report_err(0, "--top", "wants 1..1000, not '%s'", optarg);
				return ST_TROUBLE;
			}
			rows = o.top;	/* the timeline's, when told */
			break;
		case 'b':
			o.brief = 6;
			break;
		case 'S':
			o.summary = 1;
			o.brief = 4;
			o.top = 3;
			break;
		case 'p':
			plots = optarg;
			break;
		case 's':
			stats = optarg;
			break;
		case 'r':
			require = inv_parse(optarg);
			if (require < 0) {
				report_err(0, "--require", "wants invariant tags (refcount,free,"
					   "root,reuse,lock,wait) or all, not '%s'", optarg);
				return ST_TROUBLE;
			}
			break;
		case 'c':
			check_only = 1;
			break;
		case 'd':
			run.dump = true;
			break;
		case 'T':
			timeline = optarg;
			timeline_start();
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			report_err(0, argv[optind - 1], "wants an argument");
			usage(stderr);
			return ST_TROUBLE;
		default:
			/*
			 * optopt is 0 for an unknown long option, argv[optind - 1];
			 * else its letter: a short option, maybe inside a cluster
			 * (where optind stays), or a long one given an argument it
			 * takes none of.
			 */
			if (!optopt) {
				report_err(0, argv[optind - 1], "unknown option");
			} else if (optind > at && !strncmp(argv[optind - 1], "--", 2)) {
				report_err(0, argv[optind - 1], "takes no argument");
			} else {
				char name[3] = { '-', (char)optopt };

				report_err(0, name, "unknown option");
			}
			usage(stderr);
			return ST_TROUBLE;
		}
	}
	if (optind != argc - 1) {
		report_err(0, "TRACE", "wants one trace file, not %d", argc - optind);
		usage(stderr);
		return ST_TROUBLE;
	}
	if (read_events(argv[optind], sink, &run, &res))
		return ST_TROUBLE;
	if (run.dump)
		return 0;
	if (timeline) {
		if (mkdir(timeline, 0755) && errno != EEXIST) {
			report_err(errno, timeline, "cannot make the timeline folder");
			return ST_TROUBLE;
		}
		return timeline_write(stdout, timeline, &res, rows) ? ST_TROUBLE : 0;
	}
	life_finish();
	if (!check_only) {
		char span[FMT_NS_LEN];

		printf("mmreport: %s: %" PRIu64 " events on %d CPUs over %s, %" PRIu64
		       " lost\n", argv[optind], res.events, res.cpus,
		       fmt_ns(res.events ? res.last_ts - res.first_ts : 0, span, sizeof(span)),
		       res.lost);
		print_missing(&run);
		locks_report(stdout, &o);
		life_report(stdout, &o);
		gather_report(stdout, &o);
		alllocks_report(stdout, &o);
		if (stats)
			status |= window_compare(stdout, stats, res.recorded);
	}
	if (inv_report(stdout))
		status |= ST_VIOLATION;
	if (inv_unexercised(stdout, require))
		status |= ST_UNEXERCISED;
	if (res.lost) {
		printf("LOST: the ring buffer dropped %" PRIu64 " events: counts and invariants "
		       "cannot be trusted\n", res.lost);
		status |= ST_LOST;
	}
	if (plots) {
		/* the verdict stands: plots that failed add their own bit */
		if (mkdir(plots, 0755) && errno != EEXIST) {
			report_err(errno, plots, "cannot make the plots folder");
			return status | ST_TROUBLE;
		}
		if (plots_write(plots, res.first_ts))
			return status | ST_TROUBLE;
		printf("plots: %s/holds.{svg,png} %s/gathers.{svg,png}\n", plots, plots);
	}
	return status;
}
