#!/bin/sh
# workload-cost-table.sh: the table of bench/workload-cost.sh from its raw
# lines (each prefixed with the kernel variant: normal, lockstat), given as
# files or on stdin: per workload and tool the median ms, its min-max and
# the cost against none on the same kernel; for LOCK_STAT also against the
# normal kernel's none, and that cost as a multiple of mmpreempt.ko timed's.
# NEEDS: awk. OVERHEAD: none.
set -eu
[ $# -gt 0 ] || { t=$(mktemp); trap 'rm -f "$t"' EXIT; cat >"$t"; set -- "$t"; }
{
	awk '$2 == "runs_per_attach" { print "rounds " $5 " x " $3 " runs per workload and tool (kernel " $1 ")" }
	     $2 == "units:" { $1 = ""; sub(/^ +/, ""); print }' "$@" | sort -u
	awk '$2 == "workload" && !seen[$3]++ { $1 = $2 = ""; sub(/^ +/, ""); sub(/: /, " = "); w = w (w ? "; " : "") $0 }
	     END { if (w) print "workloads: " w }' "$@"
	awk '
	$1 == "normal" && $2 == "runs_per_attach" { for (i = 7; i <= NF; i++) tools[++nt] = $i }
	$2 == "run" { k = $1; t = $3; w = $4; c = ++n[k, t, w]; v[k, t, w, c] = $5; ws[w] = 1 }
	function med(k, t, w,   i, j, x, c, a) { c = n[k, t, w]
		for (i = 1; i <= c; i++) a[i] = v[k, t, w, i]
		for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		lo = a[1]; hi = a[c]
		return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2 }
	function row(w, name, k, t, base,   m) {
		if (!((k, t, w) in n))
			return
		m = med(k, t, w)
		printf "%-9s %-21s %10.3f %19s %9s\n", w, name, m / 1e6, sprintf("%.3f-%.3f", lo / 1e6, hi / 1e6),
			base ? sprintf("%+.2f%%", (m - base) * 100 / base) : "-"
		cost[w, name] = base ? (m - base) * 100 / base : 0
		if (cost[w, name] < 0 && -cost[w, name] > neg[w])
			neg[w] = -cost[w, name]
	}
	END {
		printf "%-9s %-21s %10s %19s %9s\n", "workload", "tool", "median_ms", "min-max_ms", "cost"
		nw = split("forktree unmap mix", order, " ")
		for (i = 1; i <= nw; i++) {
			w = order[i]
			if (!(w in ws))
				continue
			base = ("normal", "none", w) in n ? med("normal", "none", w) : 0
			for (j = 1; j <= nt; j++)
				row(w, tools[j], "normal", tools[j], tools[j] == "none" ? 0 : base)
			lbase = ("lockstat", "none", w) in n ? med("lockstat", "none", w) : 0
			row(w, "lockstat-kernel", "lockstat", "none", base)
			row(w, "lock_stat=1", "lockstat", "lockstat", lbase)
			row(w, "lock_stat=1-vs-normal", "lockstat", "lockstat", base)
		}
		# A multiple of the cost of the module only where it stands out of
		# the noise: the spread of the runs without a tool, or the largest
		# negative cost (no tool can make a workload faster: a negative
		# figure is the state the runs left behind); else a lower bound.
		for (i = 1; i <= nw; i++) {
			w = order[i]
			if (!((w, "timed") in cost) || !((w, "lock_stat=1-vs-normal") in cost))
				continue
			m = med("normal", "none", w); sp = (hi - lo) * 100 / m
			if (neg[w] > sp)
				sp = neg[w]
			ls = cost[w, "lock_stat=1-vs-normal"]; t = cost[w, "timed"]
			if (t > sp)
				printf "# %s: LOCK_STAT (its kernel and lock_stat=1) costs %+.2f%%, mmpreempt.ko timed %+.2f%%: %.0fx as much\n", w, ls, t, ls / t
			else
				printf "# %s: LOCK_STAT (its kernel and lock_stat=1) costs %+.2f%%; mmpreempt.ko timed %+.2f%% is within the noise (%.2f%%): at least %.0fx as much\n", w, ls, t, sp, ls / sp
		}
	}' "$@"
	awk '$2 == "tool" { $2 = ""; sub(/^ +/, ""); print "# saw: " $0 }
	     $2 == "skip" { $1 = ""; sub(/^ +/, ""); print "# " $0 }' "$@" | sort -u
}
