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
