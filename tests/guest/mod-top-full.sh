#!/bin/sh
# description: top with a full table: holds without an entry counted, nothing lost
#   mmpreempt.ko loaded with top_slots=16 (two buckets of 8 entries) while
#   one process maps 200 anon_vma roots, alive at once, and exits: an
#   entry is made at a root's first use, so most roots find their bucket
#   full of live ones. top's "holds whose root had no entry" must be at
#   least 1 and at most the holds timed, and its rows plus its lost line
#   must still equal the stats
#   (holds, hold and wait time), read detached. About 5 s.
# requires: mmpreempt.ko alllocks
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module
load_module top_slots=16 top_n=16
cd /tmp || exit 1
echo 1 >>$DBG/reset
alllocks_ready /tmp/mod-top-full.out --roots 200 --files 0
kill "$ALLOCKS_PID"
wait "$ALLOCKS_PID" 2>/dev/null || :	# 143: the SIGTERM
top_vs_stats mod-top-full
STATS=$RES/mod-top-full-stats-detached.txt
holds=$(($(stat_of anon_vma.lock.read.holds_timed) + $(stat_of anon_vma.lock.write.holds_timed)))
fullh=$(sed -n 's/^# holds whose root had no entry.*: \([0-9]*\)$/\1/p' "$RES/mod-top-full-top.txt")
[ -n "$fullh" ] || fail "top has no full-bucket lines: $(grep '^#' "$RES/mod-top-full-top.txt")"
echo "measured: $holds holds, $fullh of roots without an entry"
[ "$fullh" -ge 1 ] || fail "200 roots in 16 slots, but no hold found its bucket full"
[ "$fullh" -le "$holds" ] || fail "$fullh holds without an entry, but only $holds holds"
unload_module
