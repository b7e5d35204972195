#!/bin/sh
# description: trace-cmd records exactly 5 forktree forks in trace.dat
#   trace-cmd records a fork workload of known shape: forktree
#   exits 0 and exactly 5 forks by forktree are in trace.dat (the host
#   re-reads it in host test trace-dat-host)
# requires: trace-cmd forktree
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
d=$RES/trace-cmd
mkdir -p "$d"
cd /tmp || exit 1
# trace-cmd drops its command's exit status: a wrapper keeps forktree's
rm -f /tmp/trace-cmd.status
# shellcheck disable=SC2016 # $? is the wrapper's
trace-cmd record -q -o "$d/trace.dat" -e sched:sched_process_fork \
	sh -c 'forktree --depth 1 --width 5; echo $? >/tmp/trace-cmd.status' \
	>"$d/record.log" 2>&1 || { cat "$d/record.log"; fail "trace-cmd record"; }
cat "$d/record.log"
expect "forktree's exit status" "$(cat /tmp/trace-cmd.status 2>/dev/null)" 0
trace-cmd report -i "$d/trace.dat" >"$d/report.txt" 2>/dev/null || fail "trace-cmd report"
forks=$(grep -cE 'sched_process_fork: +comm=forktree ' "$d/report.txt" || true)
expect "forks by forktree in the trace" "$forks" 5
