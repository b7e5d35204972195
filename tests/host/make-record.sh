#!/bin/sh
# description: make record of mix: 0 violations, 38 counters agree, no loss, real plots
#   `make record WORKLOAD=mix` end to end, as `make demo` runs it:
#   a second guest boot records mix with trace-cmd, mmpreempt.ko and all
#   six bpftrace tools; the host writes meta.json, report.txt,
#   summary.txt and the plots. Checks each file for what it promises:
#   zero violations, 38 counters agreeing with the module, no lost events,
#   the QEMU mode in words, lock tables of counts and durations (each a
#   number with its unit, report-units checks the rule), a histogram in
#   every bpftrace output,
#   real PNG and SVG plots, and a timeline (report/timeline.sh) that draws
#   exactly the holds and contended waits the module timed, and mmreport's
#   longest hold and its gather stretches (their number and the longest)
# requires: gnuplot
# overhead: a second guest boot (~60 s under TCG)
. "$TOP/tests/guest/lib/common.sh"
out=$RES/make-record
rc=0
make -C "$TOP" --no-print-directory record WORKLOAD=mix NAME=make-record OUT="$out" \
	>"$RES/make-record.log" 2>&1 || rc=$?
grep -v '^\[' "$RES/make-record.log" | tail -n 40
[ $rc -eq 0 ] || fail "make record exited $rc"
for f in trace.dat meta.json report.txt summary.txt module/stats workload.log console.log \
	timeline.png timeline.svg holds.png holds.svg gathers.png gathers.svg plots.gp; do
	[ -s "$out/$f" ] || fail "no $f in $out"
done
for k in kernel_release config_sha256 preemption_model qemu_mode workload args \
	trace_cmd_lost_events workload_status; do
	grep -q "^  \"$k\": " "$out/meta.json" || fail "meta.json has no $k"
done
expect "meta.json workload" "$(sed -n 's/^  "workload": "\(.*\)",$/\1/p' "$out/meta.json")" mix
expect "meta.json lost events" "$(sed -n 's/^  "trace_cmd_lost_events": \(.*\),$/\1/p' "$out/meta.json")" 0
expect "meta.json kernel" "$(sed -n 's/^  "kernel_release": "\(.*\)",$/\1/p' "$out/meta.json")" \
	"$(cat "$TOP/build/kernel.release")"
grep -q '^verdict: 0 violations$' "$out/summary.txt" || fail "summary.txt has no clean verdict"
# the QEMU mode in words on the second line, the mode meta.json names
mode=$(sed -n 's/^  "qemu_mode": "\([a-z]*\).*",$/\1/p' "$out/meta.json" | tr "[:lower:]" "[:upper:]")
sed -n 2p "$out/summary.txt" | grep -q "^QEMU ${mode}[: ].*; times " ||
	fail "summary.txt's second line does not say QEMU $mode in words: $(sed -n 2p "$out/summary.txt")"
echo "ok: $(sed -n 2p "$out/summary.txt")"
# the workloads' own result lines, mix's and each child's
grep -q '^mix: round 1 forktree  *ok ' "$out/summary.txt" || fail "summary.txt lacks mix's result line for forktree"
grep -q '^forktree: [0-9]* processes' "$out/summary.txt" || fail "summary.txt lacks forktree's own result line"
grep -Eq '^([0-9]+) of \1 counters agree exactly, [0-9]+ n/a' "$out/summary.txt" || fail "summary.txt: trace and module disagree"
# mmreport's lock tables, perf lock's layout: a header row ("lock mode"
# and the columns), then a row per lock kind and mode to a blank line, a
# cell under each column, every cell after the two names a count, a
# duration with its unit, or "-" (nothing timed)
awk '$1 == "lock" && $2 == "mode" { t = NF; next }
	t && !NF { t = 0 }
	t { rows++; if (NF != t) bad = $0
		for (i = 3; i <= NF; i++) if ($i !~ /^([0-9]+|[0-9.]+(ns|us|ms|s)|-)$/) bad = $0 }
	END { if (bad != "") print "not a count or duration in: " bad; exit !(rows && bad == "") }' "$out/summary.txt" ||
	fail "summary.txt has no lock tables of counts and durations"
for p in holds gathers timeline; do
	[ "$(head -c 8 "$out/$p.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$p.png is not a PNG"
	grep -q '<svg' "$out/$p.svg" || fail "$p.svg is not an SVG"
done
echo "ok: plots holds, gathers and timeline, PNG and SVG"
# the timeline draws every hold and wait the module timed in the same window
# (a hold the module could not track would make the two differ for that
# reason, not the timeline's: none may be untracked)
for k in table_full no_start no_hold; do
	expect "module holds.untracked.$k" "$(awk -v k="holds.untracked.$k" '$1 == k { print $2 }' "$out/module/stats")" 0
done
tl=$out/timeline/summary.txt
[ -s "$tl" ] || fail "no $tl"
sum_of() { awk -v k="$1" '$1 ~ k { s += $2 } END { print s + 0 }' "$out/module/stats"; }
expect "timeline's holds in the window (module: sum of holds_timed)" \
	"$(sed -n 's/^in the MMPREEMPT window: \([0-9]*\) holds released, .*/\1/p' "$tl")" \
	"$(sum_of '^(anon_vma|i_mmap)\.lock\.(read|write)\.holds_timed$')"
expect "timeline's contended acquisitions in the window (module: sum of contended)" \
	"$(sed -n 's/^in the MMPREEMPT window: .*, \([0-9]*\) contended acquisitions$/\1/p' "$tl")" \
	"$(sum_of '^(anon_vma|i_mmap)\.lock\.(read|write)\.contended$')"
[ "$(wc -l <"$out/timeline/rows.txt")" -ge 1 ] || fail "the timeline has no task row"
# and cuts holds and gather stretches as mmreport does over the whole trace
# (the largest of the max_hold cells, each a figure and its unit)
expect "timeline's longest hold (mmreport: largest max_hold)" \
	"$(sed -n 's/^longest hold \(.*\) by [^ ]* at .*/\1/p' "$tl")" \
	"$(awk 'function ns(x,    u) { u = x; sub(/^[0-9.]+/, "", u)
			return x * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1) }
		$1 == "lock" { c = 0; for (i = 1; i <= NF; i++) if ($i == "max_hold") c = i; next }
		c && NF >= c && ns($c) > m { m = ns($c); s = $c } NF == 0 { c = 0 } END { print s }' "$out/report.txt")"
expect "timeline's gather stretches (mmreport: stretches without a preemption point)" \
	"$(sed -n 's/.*, \([0-9]*\) gather stretches, .*/\1/p' "$tl")" \
	"$(sed -n 's/^stretches without a preemption point: n=\([0-9]*\).*/\1/p' "$out/report.txt")"
expect "timeline's preemption points (mmreport: preemption points taken)" \
	"$(sed -n 's/.*, \([0-9]*\) preemption points$/\1/p' "$tl")" \
	"$(sed -n 's/^preemption points taken: \([0-9]*\) .*/\1/p' "$out/report.txt")"
expect "timeline's longest gather stretch (mmreport's max)" \
	"$(sed -n 's/^longest gather stretch \(.*\) by [^ ]* at .*/\1/p' "$tl")" \
	"$(sed -n 's/^stretches without a preemption point: .* max=\([^ ]*\)$/\1/p' "$out/report.txt")"
n=0
for t in "$TOP"/bpf-scripts/*.bt; do
	b=$(basename "$t" .bt)
	grep -q '^\[.*|@*' "$out/bpf/$b.txt" || fail "bpftrace $b printed no histogram ($out/bpf/$b.txt)"
	n=$((n + 1))
done
echo "ok: $n bpftrace outputs with histograms"
