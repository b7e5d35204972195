#!/bin/sh
# summary.sh: the tables of every benchmark that has run, into one markdown
# file and one JSON file (results/bench/summary.md, summary.json), each
# table with the lines its benchmark printed about it (rounds, units), and
# into bench/RESULTS.md, the figures file kept in the repository: the same
# tables under one provenance line (date, commit, machine, and per
# benchmark its QEMU mode and guest kernel, from the NAME.stamp files that
# bench/stamp.sh wrote beside the results) and a line naming the
# benchmarks that have no results there.
#
# Usage: summary.sh [RESULTS_DIR [RESULTS_MD]]
#   RESULTS_DIR defaults to results/bench; RESULTS_MD to bench/RESULTS.md
#   when RESULTS_DIR is the default, else to RESULTS_DIR/RESULTS.md (so a
#   scratch folder never rewrites the repository's file).
#   `make bench` runs it last; run alone, it rewrites RESULTS.md from
#   whatever results/bench holds (e.g. after one benchmark ran again).
# MEASURES: nothing; reads results/bench/*.txt as the bench scripts wrote
#   them: a header row whose first word is configuration, path, model,
#   tool, workload or setup, then one row per line, the last N fields the columns (N = the
#   header's fields less one), the name the rest; "#" lines inside it go
#   below it; the table ends at the first other line whose last two fields
#   are not numbers, spans or "-".
# NEEDS: awk. OVERHEAD: none.
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "summary.sh [RESULTS_DIR [RESULTS_MD]]" 2 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=${1:-$TOP/results/bench}
if [ $# -ge 2 ]; then
	out=$2
elif [ $# -ge 1 ]; then
	out=$res/RESULTS.md
else
	out=$TOP/bench/RESULTS.md
fi
md=$res/summary.md json=$res/summary.json
benches="off-cost module-cost root-contention workload-cost preempt-latency setup-cost"

# The provenance: one line for the whole file, and one segment per
# benchmark ("seg NAME TEXT") for its JSON entry. The first stamped
# benchmark's date, commit and machine head the line; a benchmark measured
# on another day, commit or machine says so in its own segment.
prov=$(for b in $benches; do
	[ -f "$res/$b.txt" ] || continue
	echo "bench $b"
	if [ -f "$res/$b.stamp" ]; then cat "$res/$b.stamp"; else echo nostamp; fi
done | awk '
	function add(list, x) { return index(" | " list " | ", " | " x " | ") ? list : list (list == "" ? "" : " | ") x }
	function join(list) { gsub(/ \| /, " and ", list); return list }
	$1 == "bench" { b = $2; order[++n] = b; next }
	$1 == "nostamp" { ns[b] = 1; next }
	$1 == "date" || $1 == "commit" { v[b, $1] = $2; next }
	$1 == "machine" { sub(/^machine /, ""); v[b, "machine"] = $0; next }
	$1 == "boot" {
		for (i = 2; i <= NF; i++) { k = $i; sub(/=.*/, "", k); x = $i; sub(/^[^=]*=/, "", x); f[k] = x }
		mode = f["accel"] ~ /^kvm/ ? "KVM" : f["icount"] == 1 ? "TCG+icount" : f["accel"] ~ /thread=multi/ ? "TCG multi-threaded" : "TCG"
		mode = mode ", " f["smp"] " vCPU" (f["smp"] == 1 ? "" : "s")
		modes[b] = add(modes[b], mode); kernels[b] = add(kernels[b], f["kernel"])
		next
	}
	END {
		for (i = 1; i <= n && ref == ""; i++) if (!(order[i] in ns)) ref = order[i]
		if (ref == "")
			line = "Provenance: no results stamped by bench/stamp.sh: date, commit, machine, QEMU mode and kernel unknown"
		else
			line = "Provenance: measured " v[ref, "date"] " at " v[ref, "commit"] " on " v[ref, "machine"]
		for (i = 1; i <= n; i++) {
			b = order[i]
			if (b in ns) {
				seg = "not stamped: date, commit, QEMU mode and kernel unknown"
			} else {
				other = ""
				split("date commit machine", keys, " ")
				for (j = 1; j <= 3; j++)
					if (v[b, keys[j]] != v[ref, keys[j]]) other = other (other == "" ? "" : ", ") v[b, keys[j]]
				seg = (other == "" ? "" : "(" other ") ") join(modes[b]) ", guest kernel " join(kernels[b])
			}
			line = line "; " b ": " seg
			print "seg", b, seg
		}
		print "line", line
	}')
line=$(printf '%s\n' "$prov" | sed -n 's/^line //p')
missing=
printf '%s\n\n' "${line:-Provenance: no benchmark has results here}" >"$md"
printf '[' >"$json"
first=1
for b in $benches; do
	f=$res/$b.txt
	[ -f "$f" ] || { echo "summary: $b: not run (no $f)" >&2; missing="$missing $b"; continue; }
	awk -v bench="$b" -v md="$md" -v first="$first" -v prov="$(printf '%s\n' "$prov" | sed -n "s/^seg $b //p")" '
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
		# kept as printed: its columns aligned, its "#" lines not headings
		if (after) printf "\n```\n%s\n```\n", after >> md
		printf "\n" >> md
		printf "%s\n  {\"bench\": \"%s\", \"provenance\": \"%s\", \"notes\": \"%s\", \"columns\": [", (first ? "" : ","), bench, esc(prov), esc(notes)
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
{
	echo "# Benchmark results"
	echo
	echo "Written by \`bench/summary.sh\` from \`results/bench/\` (the last step of \`make bench\`;"
	echo "run alone, it rewrites this file from the results there). What each benchmark"
	echo "measures and how to read its table: [README.md](README.md); how the figures came"
	echo "to be what they are: [NOTES.md](NOTES.md)."
	echo
	[ -z "$missing" ] || { echo "Not in this file (no results):$(echo "$missing" | sed 's/ /, /g; s/^,//')."; echo; }
	cat "$md"
} >"$out"
echo "summary: $md, $json, $out"
