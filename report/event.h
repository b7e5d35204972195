/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One trace event as every analysis in mmreport sees it, whichever reader
 * produced it: trace.dat through libtracecmd, or a text event stream (the
 * format `mmreport --dump` writes, so that a real trace can be edited into
 * a crafted one for the invariant checker's tests); and what every file of
 * mmreport shares: its exit status bits and its one error form.
 */
#ifndef MMREPORT_EVENT_H
#define MMREPORT_EVENT_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t u64;

/*
 * mmreport's exit status: 0 when all is good, else the OR of one bit per
 * kind of failure, so that a script tells a broken invariant from a broken
 * recording or a bad command line without parsing the report. 2 keeps the
 * meaning it always had. Each bit but ST_TROUBLE has its verdict lines on
 * stdout (the tag in capitals); ST_TROUBLE has its messages on stderr.
 */
enum status_bits {
	ST_VIOLATION = 1,	/* an invariant violated: VIOLATION */
	ST_TROUBLE = 2,		/* bad usage, unreadable input, no plots, no memory */
	ST_MISMATCH = 4,	/* --stats disagrees (MISMATCH) or compares nothing */
	ST_LOST = 8,		/* the ring buffer dropped events: LOST */
	ST_UNEXERCISED = 16,	/* a --require'd invariant checked nothing */
};

/*
 * Every error message, in err(3)'s form: "mmreport: WHAT: WHY", WHAT the
 * object (a file, an option), and ": strerror(errnum)" after WHY when a
 * call failed with errnum (0: none). On stderr, apart from the report.
 */
void report_err(int errnum, const char *what, const char *why, ...)
	__attribute__((format(printf, 3, 4)));
/* realloc() that exits with ST_TROUBLE, saying so, when memory runs out */
void *xrealloc(void *p, size_t size);
/*
 * A trace timestamp in seconds as trace-cmd and kernelshark print it,
 * rounded to the microsecond ("38.640433"); FMT_TS_LEN holds any.
 */
#define FMT_TS_LEN 24
const char *fmt_ts(u64 ns, char *buf, size_t len);

enum ev_type {
	EV_OTHER,
	EV_AV_LOCK_START, EV_AV_LOCK_ACQUIRED, EV_AV_LOCK_RELEASED,
	EV_AV_ALLOC, EV_AV_ATTACH, EV_AV_GET, EV_AV_GET_FAILED, EV_AV_PUT, EV_AV_FREE,
	EV_AV_REUSE,
	EV_IM_LOCK_START, EV_IM_LOCK_ACQUIRED, EV_IM_LOCK_RELEASED,
	EV_G_START, EV_G_FLUSH, EV_G_BATCH_ALLOC, EV_G_RESCHED, EV_G_FINISH,
	EV_AL_START, EV_AL_ACQUIRED, EV_AL_DROP,
	EV_SCHED_SWITCH, EV_SCHED_WAKEUP,
	EV_MARKER,		/* ftrace:print, a trace_marker write */
	EV_NR
};

/* The fields the analyses read; an event carries the ones its format has. */
enum ev_field {
	F_ANON_VMA, F_ROOT, F_PARENT, F_REFCOUNT, F_NUM_CHILDREN,
	F_MAPPING, F_INO, F_TLB, F_MM, F_FULLMM, F_NESTED,
	F_PAGES, F_BATCHES, F_BATCH_COUNT, F_NEED_RESCHED,
	F_ANON_VMA_ROOTS, F_MAPPINGS, F_RET, F_WRITE, F_SUCCESS, F_CONTENDED,
	F_PREV_PID, F_PREV_STATE, F_NEXT_PID, F_PID,
	F_NR
};

/* Fields printed as 0x-prefixed hex, bools as true/false. */
#define F_POINTERS ((1u << F_ANON_VMA) | (1u << F_ROOT) | (1u << F_PARENT) | \
		    (1u << F_MAPPING) | (1u << F_TLB) | (1u << F_MM))
#define F_BOOLS ((1u << F_FULLMM) | (1u << F_NESTED) | (1u << F_NEED_RESCHED) | \
		 (1u << F_WRITE) | (1u << F_SUCCESS) | (1u << F_CONTENDED))

/* sched_switch prev_state: no sleep bit set means the task was still runnable */
#define TASK_STATE_PREEMPTED 0x100	/* 6.1's TASK_REPORT_MAX, shown "R+" */

struct mm_event {
	u64 ts;			/* ns */
	u64 seq;		/* position in the stream, from 1 */
	int cpu, pid;
	char comm[32];
	enum ev_type type;
	const char *name;	/* the event's own name, for EV_OTHER too */
	uint32_t has;		/* bit per enum ev_field present */
	int64_t f[F_NR];
	char marker[64];	/* EV_MARKER: the text, newline stripped */
};

extern const char *const ev_names[EV_NR];
extern const char *const field_names[F_NR];

static inline bool has(const struct mm_event *e, enum ev_field f)
{
	return e->has & (1u << f);
}

static inline u64 fu(const struct mm_event *e, enum ev_field f)
{
	return (u64)e->f[f];
}

/* Prev task was runnable when switched out (preempted or yielded). */
static inline bool switched_runnable(const struct mm_event *e)
{
	return (e->f[F_PREV_STATE] & 0xff) == 0;
}

enum ev_type ev_type_of(const char *name);
void ev_print(FILE *f, const struct mm_event *e);

typedef void (*ev_sink)(const struct mm_event *e, void *data);

struct read_result {
	u64 events;		/* delivered to the sink */
	u64 lost;		/* events the ring buffer dropped */
	int cpus;
	u64 first_ts, last_ts;
	uint32_t recorded;	/* bit per ev_type the trace could hold */
};

/* The trace system an event type belongs to. */
const char *ev_system(enum ev_type t);

/* 0 on success; -1 with a report_err() message. Detects the format itself. */
int read_events(const char *path, ev_sink sink, void *data, struct read_result *r);
int read_dat(const char *path, ev_sink sink, void *data, struct read_result *r);
int read_text(const char *path, ev_sink sink, void *data, struct read_result *r);

#endif
