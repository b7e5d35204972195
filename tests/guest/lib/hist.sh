# Sourced by guest tests that compare mmpreempt.ko's histograms with a
# trace. POSIX sh.
#
# hist_rows NAME FILE: the non-empty slots of histogram NAME in FILE (the
# module's hist/ files, one after another) as "LOW COUNT", LOW the slot's
# low edge (0, 1, then powers of two)
hist_rows() {
	awk -v name="@$1:" '$1 == name { on = 1; next } /^@/ { on = 0 }
		on && match($0, /^\[[^])]*[])]/) {
			lo = substr($0, 2, RLENGTH - 2); sub(/,.*/, "", lo)
			split(substr($0, RLENGTH + 1), rest, " ")
			if (rest[1] + 0 == 0) next
			m = 1; u = substr(lo, length(lo))
			if (u ~ /[KMGTPE]/) { m = 2 ^ (10 * index("KMGTPE", u)); lo = substr(lo, 1, length(lo) - 1) }
			print lo * m, rest[1] }' "$2"
}

# slot_rows: values on stdin, one a line, as the "LOW COUNT" rows of their
# log2 slots (the module's: 0, 1, then [2^(i-1), 2^i)), sorted by LOW
slot_rows() {
	awk '{ v = $1 + 0; lo = 0; if (v >= 1) for (lo = 1; lo * 2 <= v; lo *= 2); n[lo]++ }
		END { for (l in n) print l, n[l] }' | sort -n
}

# hist_vs_intervals WHAT ROWS VALUES EPS: a histogram of timed intervals
# (ROWS: hist_rows output) against the trace's intervals (VALUES: ns, one a
# line), where each may be EPS off: an interval further than EPS from a
# slot edge must be in its slot, the others in either neighbour (each slot
# between the intervals certainly in it and those possibly in it), and the
# counts must sum to the trace's. Prints one "ok:" line, or fails.
hist_vs_intervals() {
	awk -v eps="$4" 'function slot(v,  lo) { if (v < 1) return 0; for (lo = 1; lo * 2 <= v; lo *= 2); return lo }
		NR == FNR { m[$1] = $2; mt += $2; next }
		{ a = slot($1 - eps); b = slot($1 + eps)
		  if (a == b) { sure[a]++; nsure++ }
		  for (s = a; ; s = s ? s * 2 : 1) { can[s]++; if (s >= b) break }
		  n++ }
		END {
			for (s in m) if (m[s] > can[s] + 0) { printf "FAIL: slot %s holds %d, the trace allows at most %d\n", s, m[s], can[s]; bad = 1 }
			for (s in sure) if (m[s] + 0 < sure[s]) { printf "FAIL: slot %s holds %d, the trace puts %d there for sure\n", s, m[s], sure[s]; bad = 1 }
			if (mt != n) { printf "FAIL: the histogram counts %d, the trace %d\n", mt, n; bad = 1 }
			printf "%d intervals, %d of them placed exactly\n", n, nsure
			exit bad }' "$2" "$3" >"$3.vs" || { cat "$3.vs"; fail "$1 against the trace"; }
	echo "ok: $1 against the trace: $(cat "$3.vs")"
}
