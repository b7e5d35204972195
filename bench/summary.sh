#!/bin/sh
# summary.sh: the tables of every benchmark that has run, into one markdown
# file and one JSON file (results/bench/summary.md, summary.json), each
# table with the lines its benchmark printed about it (rounds, units).
#
# MEASURES: nothing; reads results/bench/*.txt as the bench scripts wrote
#   them: a header row whose first word is configuration, path, model,
#   tool, workload or setup, then one row per line, the last N fields the columns (N = the
#   header's fields less one), the name the rest; "#" lines inside it go
#   below it; the table ends at the first other line whose last two fields
#   are not numbers, spans or "-".
# NEEDS: awk. OVERHEAD: none.
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "summary.sh [RESULTS_DIR]" 1 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=${1:-$TOP/results/bench}
md=$res/summary.md json=$res/summary.json
: >"$md"
printf '[' >"$json"
first=1
for b in off-cost module-cost root-contention workload-cost preempt-latency setup-cost; do
	f=$res/$b.txt
	[ -f "$f" ] || { echo "summary: $b: not run (no $f)" >&2; continue; }
	awk -v bench="$b" -v md="$md" -v first="$first" '
	function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); return s }
	function num(v) { return v ~ /^[-+]?[0-9.]+(-[0-9.]+)?%?$/ || v == "-" || v ~ /^>[0-9]+$/ }
	!hdr && $1 ~ /^(configuration|path|model|tool|workload|setup)$/ {
		hdr = 1; nc = NF
		for (i = 1; i <= NF; i++) h[i] = $i
		next
	}
	!hdr { notes = notes (notes ? "\n" : "") $0; next }
	hdr && !done && /^#/ { after = after (after ? "\n" : "") $0; next }
	hdr && NF >= nc && !done && num($NF) && num($(NF - 1)) {
		r++
		name = $1; for (i = 2; i <= NF - nc + 1; i++) name = name " " $i
		row[r, 1] = name
		for (i = 2; i <= nc; i++) row[r, i] = $(NF - nc + i)
		next
	}
	hdr { done = 1; after = after (after ? "\n" : "") $0 }
	END {
		if (!r) { print "summary: " bench ": no table found" > "/dev/stderr"; exit 1 }
		printf "## %s\n\n%s\n\n|", bench, notes >> md
		for (i = 1; i <= nc; i++) printf " %s |", h[i] >> md
		printf "\n|" >> md
		for (i = 1; i <= nc; i++) printf "---|" >> md
		printf "\n" >> md
		for (j = 1; j <= r; j++) {
			printf "|" >> md
			for (i = 1; i <= nc; i++) printf " %s |", row[j, i] >> md
			printf "\n" >> md
		}
		if (after) printf "\n%s\n", after >> md
		printf "\n" >> md
		printf "%s\n  {\"bench\": \"%s\", \"notes\": \"%s\", \"columns\": [", (first ? "" : ","), bench, esc(notes)
		for (i = 1; i <= nc; i++) printf "%s\"%s\"", (i > 1 ? ", " : ""), esc(h[i])
		printf "], \"rows\": ["
		for (j = 1; j <= r; j++) {
			printf "%s\n    [", (j > 1 ? "," : "")
			for (i = 1; i <= nc; i++) {
				v = row[j, i]
				if (i > 1 && v ~ /^[-+]?[0-9]+(\.[0-9]+)?$/) printf "%s%s", (i > 1 ? ", " : ""), v + 0
				else printf "%s\"%s\"", (i > 1 ? ", " : ""), esc(v)
			}
			printf "]"
		}
		printf "]}"
	}' "$f" >>"$json"
	first=0
done
printf '\n]\n' >>"$json"
echo "summary: $md, $json"
