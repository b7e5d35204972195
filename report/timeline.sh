#!/bin/sh
# timeline.sh TRACE OUTDIR: the picture of a recording that answers "where
# did the long holds and the long non-preemptible stretches happen, and who
# waited": OUTDIR/timeline.png and .svg (report/timeline.gp), its data in
# OUTDIR/timeline/ (mmreport --timeline) and what it shows, in figures at the
# trace's own timestamps, in OUTDIR/timeline/summary.txt, printed at the end.
# NEEDS: build/host/mmreport (make report-tool), gnuplot. ROWS=12 tasks.
# OVERHEAD: one more pass of mmreport over the trace, then gnuplot.
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "timeline.sh TRACE OUTDIR" 2 "$@"
[ $# -eq 2 ] || { echo "usage: timeline.sh TRACE OUTDIR" >&2; exit 2; }
. "$(dirname "$0")/../guest/lib.sh"
trace=$1 out=$2
report=$TOP/build/host/mmreport
[ -x "$report" ] || die "no $report: run 'make report-tool'"
command -v gnuplot >/dev/null || die "no gnuplot: run 'make deps'"
d=$out/timeline
mkdir -p "$d"
"$report" --timeline "$d" --top "${ROWS:-12}" "$trace" >/dev/null ||
	die "mmreport --timeline $d $trace failed"
[ -s "$d/rows.txt" ] || die "no lock hold or gather in $trace: nothing to draw"
for ext in png svg; do
	gnuplot -e "dir='$d'; out='$out/timeline.$ext'" "$TOP/report/timeline.gp" 2>"$d/gnuplot.$ext.log" ||
		die "gnuplot failed on timeline.$ext: $(tail -n 3 "$d/gnuplot.$ext.log")"
done
cat "$d/summary.txt"
