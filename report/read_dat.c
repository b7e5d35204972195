// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat through libtracecmd: records in timestamp order across CPUs
 * (tracecmd_iterate_events), decoded with libtraceevent from the formats
 * the file carries, so the reader follows the kernel's fields by name.
 */
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#include "event.h"

struct desc {
	bool init;
	enum ev_type type;
	const char *name;
	struct tep_format_field *fld[F_NR];
	struct tep_format_field *buf;	/* ftrace:print */
};

struct dat_ctx {
	struct tep_handle *tep;
	struct desc *descs;
	int ndescs;
	ev_sink sink;
	void *data;
	struct read_result *r;
};

static const char *const our_systems[] = {
	"anon_vma", "i_mmap", "mmu_gather", "mm_all_locks", "sched", "ftrace",
};

static struct desc *desc_of(struct dat_ctx *c, struct tep_event *ev)
{
	struct desc *d;

	if (ev->id >= c->ndescs) {
		int n = ev->id + 64;

		c->descs = xrealloc(c->descs, n * sizeof(*c->descs));
		memset(c->descs + c->ndescs, 0, (n - c->ndescs) * sizeof(*c->descs));
		c->ndescs = n;
	}
	d = &c->descs[ev->id];
	if (d->init)
		return d;
	d->init = true;
	d->name = ev->name;
	d->type = EV_OTHER;
	for (size_t i = 0; i < sizeof(our_systems) / sizeof(our_systems[0]); i++)
		if (!strcmp(ev->system, our_systems[i]))
			d->type = ev_type_of(ev->name);
	if (d->type == EV_MARKER)
		d->buf = tep_find_field(ev, "buf");
	for (int f = 0; f < F_NR; f++)
		d->fld[f] = tep_find_field(ev, field_names[f]);
	return d;
}

static int64_t field_value(struct tep_format_field *fld, void *data)
{
	unsigned long long v = 0;

	tep_read_number_field(fld, data, &v);
	if (!(fld->flags & TEP_FIELD_IS_SIGNED))
		return (int64_t)v;
	switch (fld->size) {
	case 1: return (int8_t)v;
	case 2: return (int16_t)v;
	case 4: return (int32_t)v;
	default: return (int64_t)v;
	}
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *arg)
{
	struct dat_ctx *c = arg;
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);
	struct mm_event e = { 0 };
	struct desc *d;
	const char *comm;

	(void)h;
	if (rec->missed_events)
		c->r->lost += rec->missed_events > 0 ? rec->missed_events : 1;
	if (!ev)
		return 0;
	d = desc_of(c, ev);
	e.ts = rec->ts;
	e.cpu = cpu;
	e.pid = tep_data_pid(c->tep, rec);
	comm = tep_data_comm_from_pid(c->tep, e.pid);
	snprintf(e.comm, sizeof(e.comm), "%s", comm ? comm : "<...>");
	for (char *p = e.comm; *p; p++)
		if (*p == ' ')
			*p = '_';
	e.type = d->type;
	e.name = d->name;
	if (d->type != EV_OTHER)
		for (int f = 0; f < F_NR; f++)
			if (d->fld[f]) {
				e.has |= 1u << f;
				e.f[f] = field_value(d->fld[f], rec->data);
			}
	if (d->type == EV_MARKER && d->buf) {
		int n = 0;
		const char *s = (const char *)rec->data + d->buf->offset;
		int max = rec->size - d->buf->offset;

		while (n < max && n < (int)sizeof(e.marker) - 1 && s[n] && s[n] != '\n') {
			e.marker[n] = s[n] == ' ' ? '_' : s[n];
			n++;
		}
	}
	if (!c->r->events)
		c->r->first_ts = e.ts;
	c->r->last_ts = e.ts;
	e.seq = ++c->r->events;
	c->sink(&e, c->data);
	return 0;
}

int read_dat(const char *path, ev_sink sink, void *data, struct read_result *r)
{
	struct tracecmd_input *h;
	struct dat_ctx c = { .sink = sink, .data = data, .r = r };

	tracecmd_set_loglevel(TEP_LOG_ERROR);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		report_err(0, path, "libtracecmd cannot open it as a trace.dat");
		return -1;
	}
	c.tep = tracecmd_get_tep(h);
	r->cpus = tep_get_cpus(c.tep);
	/* an event is recorded when the file carries its format */
	for (int t = 1; t < EV_NR; t++)
		if (tep_find_event_by_name(c.tep, ev_system(t), ev_names[t]))
			r->recorded |= 1u << t;
	if (tracecmd_iterate_events(h, NULL, 0, on_record, &c) < 0) {
		report_err(0, path, "reading the events failed");
		tracecmd_close(h);
		free(c.descs);
		return -1;
	}
	tracecmd_close(h);
	free(c.descs);
	return 0;
}
