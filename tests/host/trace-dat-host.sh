#!/bin/sh
# description: host trace-cmd reads the guest's trace.dat and finds the same 5 forks
#   the host's trace-cmd reads the trace.dat the guest recorded
#   (guest test trace-cmd-record) and finds the same 5 forktree forks
# requires: trace-cmd
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ trace-cmd-record( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test trace-cmd-record did not run (T= selects others)"
dat=$RES/trace-cmd/trace.dat
[ -s "$dat" ] || fail "no trace.dat from the guest at $dat"
out=$RES/trace-cmd/report-host.txt
trace-cmd report -i "$dat" >"$out" 2>"$out.err" || { cat "$out.err"; fail "trace-cmd report failed"; }
expect "forktree forks read on the host" "$(grep -cE 'sched_process_fork: +comm=forktree ' "$out")" 5
