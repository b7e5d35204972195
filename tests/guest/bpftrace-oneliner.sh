#!/bin/sh
# description: a bpftrace tracepoint one-liner counts exactly forktree's 5 forks
#   a bpftrace one-liner on a tracepoint runs and counts exactly the
#   5 forks of a forktree it started itself
# requires: bpftrace forktree
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
out=$RES/bpftrace-oneliner.txt
bpftrace -e 'tracepoint:sched:sched_process_fork /args->parent_pid == cpid/ { @forks = count(); }' \
	-c "$ART/bin/forktree --depth 1 --width 5" >"$out" 2>&1 || { cat "$out"; fail "bpftrace"; }
cat "$out"
expect "@forks" "$(sed -n 's/^@forks: //p' "$out")" 5
