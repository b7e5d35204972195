/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyses: each takes every event in order (*_event) and prints its
 * section at the end (*_report). They share nothing but the event stream
 * and the violation reporter.
 */
#ifndef MMREPORT_REPORT_H
#define MMREPORT_REPORT_H

#include "dist.h"
#include "event.h"

struct report_opts {
	int top;		/* N in the top-N lists */
	int brief;		/* histograms cut to their `brief` fullest buckets */
	int summary;		/* the short form: empty sections left out */
};

enum invariant {
	INV_REFCOUNT,		/* never below zero; each life a walk from 1 to 0 by value */
	INV_FREE,		/* freed once, at 0, with one put to 0 in its life */
	INV_ROOT,		/* a root freed after all its children */
	INV_REUSE,		/* reuse only with num_children < 2 */
	INV_LOCK,		/* released by the task that acquired it */
	INV_WAIT,		/* a lock_start ends in its contended acquisition */
	INV_NR
};

/* Report one broken invariant, with the event that broke it. */
void violation(enum invariant inv, const struct mm_event *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void inv_count(enum invariant inv);	/* one more event checked */
/* A comma-separated list of tags (or "all") as a bit per invariant; -1 if bad. */
int inv_parse(const char *list);

void locks_event(const struct mm_event *e);
void locks_report(FILE *f, const struct report_opts *o);
struct dist *locks_hold(int kind, int write);	/* kind 0 anon_vma, 1 i_mmap */

void gather_event(const struct mm_event *e);
void gather_report(FILE *f, const struct report_opts *o);
int gather_plot_data(const char *dir, u64 t0);

void alllocks_event(const struct mm_event *e);
void alllocks_report(FILE *f, const struct report_opts *o);

/* recorded: bit per ev_type the trace records (has a format for, or has) */
void life_event(const struct mm_event *e, uint32_t recorded);
void life_finish(void);
void life_report(FILE *f, const struct report_opts *o);

int inv_report(FILE *f);	/* returns the number of violations */
/* Names each invariant of the mask that checked nothing: how many. */
int inv_unexercised(FILE *f, int mask);

void window_event(const struct mm_event *e);
/*
 * Compares the window's counts with the module's stats file: 0 if they
 * agree, else ST_MISMATCH, or ST_TROUBLE when the file cannot be read.
 */
int window_compare(FILE *f, const char *stats_path, uint32_t recorded);
/* 0 before the first MMPREEMPT-WINDOW marker (or with none), 1 inside, 2 after */
int window_state(void);

int plots_write(const char *dir, u64 t0);

/*
 * The timeline's data (timeline.c): locks.c and gather.c hand over each
 * mark as they pair it, so that it shows what the report counts. lock:
 * kind * 2 + write, kind 0 anon_vma, 1 i_mmap.
 */
enum tl_mark {
	TL_HOLD,	/* acquired to released */
	TL_NESTED,	/* the release of a read lock taken again: ends no hold */
	TL_WAIT,	/* lock_start to its contended acquisition */
	TL_SWITCH,	/* switched out holding a lock, at `to` */
	TL_STRETCH,	/* a gather's run with no preemption point */
	TL_POINT,	/* a preemption point taken inside a gather, at `to` */
	TL_NR
};
void timeline_start(void);	/* --timeline: keep the marks */
void timeline_event(const struct mm_event *e);
void timeline_add(enum tl_mark what, int pid, int lock, u64 from, u64 to);
/* The files into dir, the summary also on out: 0, or -1 told by report_err(). */
int timeline_write(FILE *out, const char *dir, const struct read_result *r, int rows);

#endif
