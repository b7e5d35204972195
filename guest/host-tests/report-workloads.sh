#!/bin/sh
# description: mmreport reads the trace.dat of every workload the guest test
#   record-workloads recorded: no lost events, zero invariant violations, and
#   its counts equal mmpreempt.ko's stats of the same window (38 counters)
# requires: build/host/mmreport, trace-cmd on the host
. "$TOP/guest/tests/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ record-workloads( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test record-workloads did not run (T= selects others)"
R=$TOP/build/host/mmreport
[ -x "$R" ] || fail "no $R (make report-tool)"
bad=0 n=0
for w in forktree unmap filemap ksm migrate alllocks mix; do
	d=$RES/record/$w
	[ -s "$d/trace.dat" ] || { echo "FAIL: $w: no trace.dat"; bad=1; continue; }
	n=$((n + 1))
	lost=$("$TOP/guest/trace-lost.sh" "$d/trace.dat") || lost=unknown
	rc=0
	"$R" --stats "$d/module/stats" "$d/trace.dat" >"$d/report.txt" 2>"$d/report.err" || rc=$?
	events=$(sed -n '1s/.*: \([0-9]*\) events.*/\1/p' "$d/report.txt")
	agree=$(sed -n 's/^\([0-9]* of [0-9]*\) counters agree.*/\1/p' "$d/report.txt")
	verdict=$(sed -n 's/^verdict: //p' "$d/report.txt")
	if [ $rc -eq 0 ] && [ "$lost" = 0 ] && [ "$agree" = "38 of 38" ]; then
		echo "ok: $w: $events events, $verdict, $agree counters agree with the module, 0 lost"
	else
		echo "FAIL: $w: mmreport exit $rc, lost $lost, verdict '$verdict', counters '$agree'"
		grep -E '^MISMATCH|^LOST' "$d/report.txt"
		head -n 6 "$d/report.err"
		bad=1
	fi
done
[ $bad -eq 0 ] || fail "see the FAIL lines"
expect "workloads reported" "$n" 7
