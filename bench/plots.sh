#!/bin/sh
# plots.sh: a bar chart (PNG and SVG, gnuplot) of every bench table that
# has run, beside it in results/bench/: off-cost (the series' cost per path
# with events off, %), module-cost (instructions per event, log scale),
# workload-cost (each tool's cost per workload, %), setup-cost (seconds
# against the goals); preempt-latency plots itself (bench/preempt-latency.gp).
# MEASURES: nothing; reads results/bench/*.txt. NEEDS: awk, gnuplot.
# OVERHEAD: a second.
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "plots.sh [RESULTS_DIR]" 1 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=${1:-$TOP/results/bench}
plot() {	# plot NAME TITLE YLABEL LOGY: NAME.dat exists
	(cd "$res" && gnuplot -e "in='$1.dat'; out='$1'; ttl='$2'; ylab='$3'; logy=$4" "$TOP/bench/bars.gp") ||
		{ echo "plots: gnuplot failed on $res/$1.dat" >&2; exit 1; }
	echo "plot: $res/$1.png (and .svg)"
}
if [ -f "$res/off-cost.txt" ]; then
	awk 'BEGIN { print "path patched_vs_stock_%" }
	     $1 != "path" && $NF ~ /%$/ { v = $NF; sub(/%$/, "", v); print $1, v }' \
		"$res/off-cost.txt" >"$res/off-cost.dat"
	plot off-cost "The series with every event off against stock 6.1 (icount; goal: at most 0.1 %)" \
		"cost, % of the operation" 0
fi
if [ -f "$res/module-cost.txt" ]; then
	awk 'BEGIN { print "configuration instructions_per_event" }
	     $1 == "configuration" { t = 1; next }
	     t && NF >= 4 && $(NF - 2) ~ /^[0-9.]+$/ {
		name = $1; for (i = 2; i <= NF - 3; i++) name = name "_" $i
		print name, $(NF - 2) }' "$res/module-cost.txt" >"$res/module-cost.dat"
	plot module-cost "One anon_vma lock event, per tracer (icount: instructions per event)" \
		"instructions per event (log scale)" 1
fi
if [ -f "$res/workload-cost.txt" ]; then
	# two charts: the tracers (costs of a few %), and LOCK_STAT beside the
	# module (tens of %), which would flatten the first
	pivot() {	# pivot WANT: rows whose tool matches the regex WANT
		awk -v want="$1" '$1 == "workload" && $2 == "tool" { t = 1; next }
		     t && NF == 5 && $2 ~ want { w[$1] = 1; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
			v = $5; sub(/%$/, "", v); c[$2, $1] = v }
		     END { nw = split("forktree unmap mix", ws, " "); printf "tool"
			for (j = 1; j <= nw; j++) if (ws[j] in w) printf " %s", ws[j]; print ""
			for (i = 1; i <= n; i++) { printf "%s", order[i]
				for (j = 1; j <= nw; j++) if (ws[j] in w) printf " %s", ((order[i], ws[j]) in c ? c[order[i], ws[j]] : "-")
				print "" } }' "$res/workload-cost.txt"
	}
	pivot '^(timed|counting|ringbuf|hist|perflock|bt:.*)$' >"$res/workload-cost.dat"
	plot workload-cost "What each tracer costs the workload it watches (icount, medians of 6 runs)" \
		"cost, % of the workload without it" 0
	if grep -q '^[a-z]* *lock_stat=1 ' "$res/workload-cost.txt"; then
		pivot '^(timed|lockstat-kernel|lock_stat=1|lock_stat=1-vs-normal)$' >"$res/workload-cost-lockstat.dat"
		plot workload-cost-lockstat "LOCK_STAT against mmpreempt.ko timed (icount, medians)" \
			"cost, % (rows: see workload-cost.txt)" 0
	fi
fi
if [ -f "$res/setup-cost.txt" ]; then
	awk 'BEGIN { print "step measured_s goal_s" }
	     $1 == "setup" { t = 1; next }
	     t && NF == 3 && $2 ~ /^[0-9.]+$/ { print $1, $2, $3 }' "$res/setup-cost.txt" >"$res/setup-cost.dat"
	plot setup-cost "From a clean clone to a first trace, and again (seconds)" "seconds" 1
fi
