// SPDX-License-Identifier: GPL-2.0
/*
 * The text event stream: one event a line, "ts cpu pid comm event k=v...",
 * as `mmreport --dump` writes it (and as the guest tests' events.txt is
 * laid out). Lines starting with '#' and blank lines are skipped; a line
 * that does not parse stops the read with its number, since a crafted
 * trace that silently lost a line would test nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"

static int parse_ts(const char *s, u64 *ns)
{
	char *end;
	u64 sec = strtoull(s, &end, 10), frac = 0;
	int digits = 0;

	if (end == s)
		return -1;
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++, digits++)
			if (digits < 9)
				frac = frac * 10 + (*end - '0');
	if (*end)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static int parse_value(int field, const char *v, int64_t *out)
{
	char *end;

	if (!strcmp(v, "true")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(v, "false")) {
		*out = 0;
		return 0;
	}
	if (field == F_PREV_STATE && (v[0] < '0' || v[0] > '9')) {
		static const char letters[] = "SDTtXZPI";
		const char *p = strchr(letters, v[0]);

		if (v[0] == 'R')
			*out = v[1] == '+' ? TASK_STATE_PREEMPTED : 0;
		else if (p && v[0])
			*out = 1 << (p - letters);
		else
			return -1;
		return 0;
	}
	*out = (int64_t)strtoull(v, &end, 0);
	if (v[0] == '-')
		*out = strtoll(v, &end, 0);
	return *end || end == v ? -1 : 0;
}

int read_text(const char *path, ev_sink sink, void *data, struct read_result *r)
{
	FILE *f = fopen(path, "r");
	char line[4096], name[64], where[4200];
	unsigned long lineno = 0;
	int maxcpu = -1;

	if (!f) {
		report_err(errno, path, "cannot open the trace");
		return -1;
	}
	/*
	 * What the stream records is every event type it has anywhere, known
	 * before the first event as a trace.dat's formats are: a check that
	 * needs an event the stream never has must not judge by it.
	 */
	while (fgets(line, sizeof(line), f)) {
		char *save, *tok = strtok_r(line, " \n", &save);

		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " \n", &save);
		if (tok && line[0] != '#')
			r->recorded |= 1u << ev_type_of(tok);
	}
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		struct mm_event e = { 0 };
		char *tok, *save, *nl = strchr(line, '\n');

		lineno++;
		if (nl)
			*nl = 0;
		if (!line[0] || line[0] == '#')
			continue;
		tok = strtok_r(line, " ", &save);
		if (!tok || parse_ts(tok, &e.ts))
			goto bad;
		tok = strtok_r(NULL, " ", &save);
		if (!tok)
			goto bad;
		e.cpu = atoi(tok);
		tok = strtok_r(NULL, " ", &save);
		if (!tok)
			goto bad;
		e.pid = atoi(tok);
		tok = strtok_r(NULL, " ", &save);
		if (!tok)
			goto bad;
		snprintf(e.comm, sizeof(e.comm), "%s", tok);
		tok = strtok_r(NULL, " ", &save);
		if (!tok)
			goto bad;
		snprintf(name, sizeof(name), "%s", tok);
		e.type = ev_type_of(name);
		e.name = name;
		while ((tok = strtok_r(NULL, " ", &save))) {
			char *eq = strchr(tok, '=');
			int fi;

			if (!eq)
				continue;	/* e.g. sched_switch's "==>" */
			*eq = 0;
			if (!strcmp(tok, "marker")) {
				snprintf(e.marker, sizeof(e.marker), "%s", eq + 1);
				continue;
			}
			for (fi = 0; fi < F_NR && strcmp(tok, field_names[fi]); fi++)
				;
			if (fi == F_NR)
				continue;	/* a field no analysis reads */
			if (parse_value(fi, eq + 1, &e.f[fi])) {
				snprintf(where, sizeof(where), "%s:%lu", path, lineno);
				report_err(0, where, "bad value %s=%s", tok, eq + 1);
				fclose(f);
				return -1;
			}
			e.has |= 1u << fi;
		}
		if (e.cpu > maxcpu)
			maxcpu = e.cpu;
		if (!r->events)
			r->first_ts = e.ts;
		r->last_ts = e.ts;
		e.seq = ++r->events;
		sink(&e, data);
		continue;
bad:
		snprintf(where, sizeof(where), "%s:%lu", path, lineno);
		report_err(0, where, "not an event line (want \"ts cpu pid comm event "
			   "key=value...\")");
		fclose(f);
		return -1;
	}
	fclose(f);
	r->cpus = maxcpu + 1;
	return 0;
}
