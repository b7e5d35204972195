/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksmd's settings in /sys/kernel/mm/ksm, read and written or the run dies
 * naming the file: shared by ksm (a merge for the tracers) and mmops (the
 * merge and unmerge paths timed).
 */
#ifndef MMPREEMPT_KSM_CTL_H
#define MMPREEMPT_KSM_CTL_H

#include "common.h"

#define KSM "/sys/kernel/mm/ksm/"

static inline long ksm_read(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), KSM "%s", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &v) != 1)
		die("ksm: cannot read %s\n", path);
	fclose(f);
	return v;
}

static inline void ksm_write(const char *name, long v)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), KSM "%s", name);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%ld\n", v) < 0 || fclose(f))
		die("ksm: cannot write %ld to %s\n", v, path);
}

#endif
