// SPDX-License-Identifier: GPL-2.0
/*
 * Plots with gnuplot, each as SVG and PNG: hold-time histograms (log2
 * buckets, as the module and the bpftrace tools bin them) and a timeline
 * of gathers with their stretches between preemption points. The data
 * files and the .gp script stay beside the pictures, to re-plot by hand.
 */
#include <errno.h>
#include <stdlib.h>

#include "report.h"

/* returns the number of data rows written, -1 on error */
static int write_holds(const char *dir)
{
	static const char *const cols[4] = {
		"anon_vma read", "anon_vma write", "i_mmap read", "i_mmap write",
	};
	char path[4096];
	FILE *f;
	int rows = 0;

	snprintf(path, sizeof(path), "%s/holds.dat", dir);
	f = fopen(path, "w");
	if (!f) {
		report_err(errno, path, "cannot write the plot data");
		return -1;
	}
	fprintf(f, "bucket_lo_ns");
	for (int c = 0; c < 4; c++)
		fprintf(f, " \"%s\"", cols[c]);
	fputc('\n', f);
	for (int b = 1; b < DIST_BUCKETS - 1; b++) {
		u64 row[4], any = 0;

		for (int c = 0; c < 4; c++)
			any |= row[c] = locks_hold(c / 2, c % 2)->hist[b];
		if (any && ++rows)
			fprintf(f, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				(u64)1 << (b - 1), row[0], row[1], row[2], row[3]);
	}
	fclose(f);
	return rows;
}

/* %s: the holds plot command, %s: the gathers plot command */
static const char script[] =
	"# mmreport plots: gnuplot plots.gp (in this folder)\n"
	"set datafile commentschars '#'\n"
	"set termoption noenhanced\n"
	"do for [fmt in 'svg png'] {\n"
	"  if (fmt eq 'svg') { set terminal svg size 900,500 dynamic background rgb 'white' }\n"
	"  else { set terminal png size 900,500 background rgb 'white' }\n"
	"  set termoption noenhanced\n"
	"  set output 'holds.'.fmt\n"
	"  set title 'Lock hold times (log2 buckets)'\n"
	"  set xlabel 'hold time, ns (bucket lower bound)'\n"
	"  set ylabel 'holds'\n"
	"  set logscale xy 2\n"
	"  set format x '%%.0b%%B'\n"
	"  set key top right\n"
	"  set style data linespoints\n"
	"  %s\n"
	"  unset logscale\n"
	"  set format x '%%g'\n"
	"  set output 'gathers.'.fmt\n"
	"  set title 'mmu_gather timeline: gathers (grey), runs between preemption "
	"points (blue), switch-outs (red)'\n"
	"  set xlabel 'time since the first event, s'\n"
	"  set ylabel 'task (one row per gathering task)'\n"
	"  set key off\n"
	"  set yrange [-1:*]\n"
	"  %s\n"
	"  set yrange [*:*]\n"
	"}\n";

int plots_write(const char *dir, u64 t0)
{
	static const char none[] =
		"unset logscale; set label 1 'no %s in this trace' at graph 0.5,0.5 center; "
		"plot [0:1][0:1] NaN notitle; unset label 1";
	char path[4096], cmd[8192], holds[512], gathers[512];
	int nh = write_holds(dir), ng = gather_plot_data(dir, t0), bad;
	FILE *f;

	if (nh < 0 || ng < 0)
		return -1;	/* said by the writer that failed */
	if (nh)
		snprintf(holds, sizeof(holds), "plot for [c=2:5] 'holds.dat' using 1:"
			 "(column(c) > 0 ? column(c) : NaN) title columnheader(c)");
	else
		snprintf(holds, sizeof(holds), none, "lock holds");
	if (ng)
		snprintf(gathers, sizeof(gathers), "plot 'gathers.dat' using 1:3:($2-$1):(0) "
			 "with vectors nohead lw 8 lc rgb '#c0c0c0', 'stretches.dat' using "
			 "1:3:2:(0) with vectors nohead lw 3 lc rgb '#1f77b4', 'stretches.dat' "
			 "using ($1+$2):(strcol(4) eq 'switch' ? $3 : NaN) with points pt 7 "
			 "ps 0.6 lc rgb '#d62728'");
	else
		snprintf(gathers, sizeof(gathers), none, "finished mmu_gather");
	snprintf(path, sizeof(path), "%s/plots.gp", dir);
	f = fopen(path, "w");
	if (!f) {
		report_err(errno, path, "cannot write the plot script");
		return -1;
	}
	errno = 0;
	bad = fprintf(f, script, holds, gathers) < 0;
	if (fclose(f) || bad) {
		report_err(errno, path, "cannot write the plot script");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot plots.gp", dir);
	if (system(cmd)) {
		report_err(0, path, "gnuplot failed on it (is gnuplot-nox installed?)");
		return -1;
	}
	return 0;
}
