#!/bin/sh
# timeline.sh TRACE OUTDIR: the picture of a recording that answers "where
# did the long holds and the long non-preemptible stretches happen, and who
# waited": OUTDIR/timeline.png and .svg (report/timeline.gp), its data in
# OUTDIR/timeline/ and what it shows, in figures, in
# OUTDIR/timeline/summary.txt.
# NEEDS: build/host/mmreport (make report-tool), gnuplot. ROWS=12 tasks.
# OVERHEAD: a second pass over the trace (mmreport --dump) and awk over
# it: about 2 s for make demo's 0.5 M events.
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
"$report" --dump "$trace" >"$d/events.txt" || die "mmreport --dump $trace failed"
awk -v dir="$d" -v rows="${ROWS:-12}" -f "$TOP/report/timeline.awk" "$d/events.txt" ||
	die "timeline.awk failed on $d/events.txt"
rm -f "$d/events.txt"
[ -s "$d/rows.txt" ] || die "no lock hold or gather in $trace: nothing to draw"
for ext in png svg; do
	gnuplot -e "dir='$d'; out='$out/timeline.$ext'" "$TOP/report/timeline.gp" 2>"$d/gnuplot.$ext.log" ||
		die "gnuplot failed on timeline.$ext: $(tail -n 3 "$d/gnuplot.$ext.log")"
done
cat "$d/summary.txt"
