#!/bin/sh
# description: mmreport reads exactly 3 contended acquisitions and waits per recording
#   mmreport counts contention exactly as the module and the
#   trace do: on each of the guest test contention-exact's four recordings
#   (3 waiters forced behind a holder, anon_vma and i_mmap, read and write)
#   it reads exactly 3 contended acquisitions of that kind and mode, 0 of
#   every other, 3 timed waits, the wait invariant clean, and every counter
#   it can compare equal to mmpreempt.ko's stats of the same window
# requires: trace-cmd
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ contention-exact( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test contention-exact did not run (T= selects others)"
R=$TOP/build/host/mmreport
[ -x "$R" ] || fail "no $R (make report-tool)"
N=3
d=$RES/contention-exact
# cell COLUMN KIND MODE FILE: from the lock table whose header names COLUMN
# (perf lock's layout: "lock mode ..." then a row per kind and mode, to a
# blank line), the value in the row of KIND and MODE; nothing if no row
cell() {
	awk -v c="$1" -v k="$2" -v m="$3" '$1 == "lock" && $2 == "mode" {
			n = 0; for (i = 3; i <= NF; i++) if ($i == c) n = i; next }
		!NF { n = 0 }
		n && $1 == k && $2 == m { print $n; exit }' "$4"
}
for k in anon_vma i_mmap; do
	for m in read write; do
		t=$d/$k-$m
		[ -f "$t/trace.dat" ] && [ -f "$t/stats" ] || fail "$k $m: no trace or stats in $d"
		rc=0
		"$R" --stats "$t/stats" --require wait "$t/trace.dat" >"$t.report" 2>&1 || rc=$?
		[ $rc -eq 0 ] || { tail -n 15 "$t.report"; fail "$k $m: mmreport exit $rc"; }
		grep -Eq '^([0-9]+) of \1 counters agree exactly' "$t.report" ||
			fail "$k $m: mmreport and the module disagree"
		for k2 in anon_vma i_mmap; do
			for m2 in read write; do
				want=0
				[ $k2 = $k ] && [ $m2 = $m ] && want=$N
				got=$(cell contended $k2 $m2 "$t.report")
				expect "$k $m: mmreport $k2 $m2 contended" "${got:-0}" $want
			done
		done
		expect "$k $m: mmreport timed waits" "$(cell waits $k $m "$t.report")" $N
	done
done
echo "ok: mmreport read $N contended acquisitions and $N waits in each of the 4 forced cases"
