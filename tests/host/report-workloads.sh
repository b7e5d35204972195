#!/bin/sh
# description: mmreport on each recorded workload: no loss, no violation, module agrees
#   mmreport reads the trace.dat of every workload the guest test
#   record-workloads recorded: no lost events, zero invariant violations,
#   and every counter it compares equal to mmpreempt.ko's stats of the same
#   window, at least one compared per workload (a counter 0 on both sides
#   is n/a, never agreement). The guest test tp-reuse's partial trace reads
#   clean too; over all these traces together each invariant checked at
#   least one event ("0 checked" is n/a). The comparison can fail: a module
#   count off by one is a mismatch, and a window with nothing in it (every
#   counter 0 on both sides) compares nothing and fails, each with
#   mmreport's exit status for a disagreement with the module, 4. The
#   contend recording (two waiters behind a holder) has exactly its 2 waits
#   checked: the wait check never rests on contention TCG happens to make
# requires: trace-cmd
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ record-workloads( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test record-workloads did not run (T= selects others)"
R=$TOP/build/host/mmreport
[ -x "$R" ] || fail "no $R (make report-tool)"
# the record-workloads runs (RES/record/NAME) and the invariants they must
# exercise between them
workloads="forktree unmap filemap ksm migrate alllocks mix contend"
tags="refcount free root reuse lock wait"
checked=$RES/report-workloads.checked nas=$RES/report-workloads.na
: >"$checked"
: >"$nas"
bad=0 n=0 want=0
for w in $workloads; do
	want=$((want + 1))
	d=$RES/record/$w
	[ -s "$d/trace.dat" ] || { echo "FAIL: $w: no trace.dat"; bad=1; continue; }
	n=$((n + 1))
	lost=$("$TOP/record/trace-lost.sh" "$d/trace.dat") || lost=unknown
	rc=0
	"$R" --stats "$d/module/stats" "$d/trace.dat" >"$d/report.txt" 2>"$d/report.err" || rc=$?
	events=$(sed -n '1s/.*: \([0-9]*\) events.*/\1/p' "$d/report.txt")
	agree=$(sed -n 's/^\([0-9]*\) of [0-9]* counters agree.*/\1/p' "$d/report.txt")
	compared=$(sed -n 's/^[0-9]* of \([0-9]*\) counters agree.*/\1/p' "$d/report.txt")
	na=$(sed -n 's/^[0-9]* of [0-9]* counters agree[^,]*, \([0-9]*\) n\/a.*/\1/p' "$d/report.txt")
	verdict=$(sed -n 's/^verdict: //p' "$d/report.txt")
	# "TAG N": the events each invariant checked in this trace
	sed -En 's/^(refcount|free|root|reuse|lock|wait) .* (ok|n\/a|VIOLATED) \(([0-9]+) checked.*/\1 \3/p' \
		"$d/report.txt" >>"$checked"
	if [ $rc -eq 0 ] && [ "$lost" = 0 ] && [ -n "$agree" ] && [ "$agree" = "$compared" ] &&
		[ "$agree" -gt 0 ] && [ -n "$na" ]; then
		echo "ok: $w: $events events, $verdict, $agree of $compared counters agree with the" \
			"module ($na n/a: nothing to compare), 0 lost"
		sed -n 's/^n\/a ([^)]*)://p' "$d/report.txt" | tr ' ' '\n' | sed '/^$/d' >>"$nas"
	else
		echo "FAIL: $w: mmreport exit $rc, lost $lost, verdict '$verdict'," \
			"counters agreeing '$agree' of '$compared'"
		grep -E '^(VIOLATION|MISMATCH|LOST|NOT EXERCISED|0 of 0)' "$d/report.txt" | head -n 12
		head -n 6 "$d/report.err"
		bad=1
	fi
done

nw=$n
# contend forces its waits: exactly --waiters of them, the wait check's only
# events there (the other workloads may add some when TCG interleaves them)
cw=$(sed -En 's/^wait .* (ok|n\/a|VIOLATED) \(([0-9]+) checked.*/\2/p' "$RES/record/contend/report.txt" 2>/dev/null)
if [ "$cw" = 2 ]; then
	echo "ok: contend: its 2 forced waits, and nothing else, checked by the wait invariant"
else
	echo "FAIL: contend: the wait invariant checked '$cw' events, want its 2 forced waits"
	bad=1
fi
echo "measured: counters n/a (nothing to compare) in all $nw workloads' traces:" \
	"$(sort "$nas" | uniq -c | awk -v n="$nw" '$1 == n { printf "%s%s", sep, $2; sep = " " }')"

# No recorded workload reuses an anon_vma: the guest test tp-reuse's chain
# does, recording only a few anon_vma events. mmreport must read it clean
# too (it holds a trace only to what the trace records), and it counts
# toward the invariants exercised.
reuse_trace=$RES/tp-reuse/trace.dat
if grep -Eq '^(not )?ok [0-9]+ tp-reuse( |$)' "$RES/guest.tap"; then
	n=$((n + 1))
	rc=0
	"$R" --check "$reuse_trace" >"$RES/report-workloads.tp-reuse.txt" 2>&1 || rc=$?
	sed -En 's/^(refcount|free|root|reuse|lock|wait) .* (ok|n\/a|VIOLATED) \(([0-9]+) checked.*/\1 \3/p' \
		"$RES/report-workloads.tp-reuse.txt" >>"$checked"
	if [ $rc -eq 0 ]; then
		echo "ok: tp-reuse's trace: $(sed -n 's/^verdict: //p' "$RES/report-workloads.tp-reuse.txt")"
	else
		echo "FAIL: tp-reuse's trace $reuse_trace: mmreport exit $rc"
		grep -m6 -E '^VIOLATION|^  event|^LOST' "$RES/report-workloads.tp-reuse.txt"
		bad=1
	fi
else
	echo "note: guest test tp-reuse did not run (T=): reuse is not required here"
	tags=$(echo "$tags" | sed 's/ reuse//')
fi

# each invariant exercised by at least one real trace: "0 checked" proves nothing
for t in $tags; do
	c=$(awk -v t="$t" '$1 == t { s += $2 } END { print s + 0 }' "$checked")
	if [ "$c" -gt 0 ]; then
		echo "ok: invariant $t checked $c events over the $n traces"
	else
		echo "FAIL: invariant $t checked nothing in any of the $n traces (n/a in all)"
		bad=1
	fi
done

# the comparison can fail. forktree's module count of acquired lock events
# off by one must be a mismatch
d=$RES/record/forktree
c=$RES/report-workloads
rm -rf "$c"
mkdir -p "$c"
if [ -s "$d/trace.dat" ] && [ -s "$d/module/stats" ]; then
	awk '$1 == "events.anon_vma_lock_acquired" { $2 = $2 + 1 } { print }' "$d/module/stats" >"$c/stats-off"
	rc=0
	"$R" --stats "$c/stats-off" "$d/trace.dat" >"$c/off.txt" 2>&1 || rc=$?
	if [ $rc -eq 4 ] && grep -q '^MISMATCH events.anon_vma_lock_acquired: module ' "$c/off.txt"; then
		echo "ok: a module count off by one: $(grep -m1 '^MISMATCH' "$c/off.txt")"
	else
		echo "FAIL: a module count off by one went unreported (exit $rc)"
		sed -n '/^== trace vs/,/^$/p' "$c/off.txt"
		bad=1
	fi
	# an empty window (the start marker moved next to the end one) against
	# an all-zero stats file: 0 = 0 everywhere, which is no agreement
	"$R" --dump "$d/trace.dat" >"$c/base.txt" || fail "mmreport --dump failed"
	awk '/ marker=MMPREEMPT-WINDOW-START$/ { next } / marker=MMPREEMPT-WINDOW-END$/ {
		l = $0; sub(/WINDOW-END$/, "WINDOW-START", l); print l } { print }' "$c/base.txt" >"$c/empty-window.txt"
	awk '{ print $1, 0 }' "$d/module/stats" >"$c/stats-zero"
	rc=0
	"$R" --stats "$c/stats-zero" "$c/empty-window.txt" >"$c/empty.txt" 2>&1 || rc=$?
	if ! grep -q 'WINDOW-START' "$c/base.txt"; then
		echo "FAIL: forktree's trace has no MMPREEMPT-WINDOW-START marker"
		bad=1
	elif [ $rc -eq 4 ] && grep -Eq '^0 of 0 counters agree: all [0-9]+ n/a' "$c/empty.txt"; then
		echo "ok: an empty window: $(grep -m1 '^0 of 0' "$c/empty.txt")"
	else
		echo "FAIL: an empty window against zero counts reads as agreement (exit $rc)"
		sed -n '/^== trace vs/,/^$/p' "$c/empty.txt"
		bad=1
	fi
else
	echo "FAIL: no forktree trace and stats to craft from"
	bad=1
fi
[ $bad -eq 0 ] || fail "see the FAIL lines"
expect "workloads reported" "$nw" "$want"
