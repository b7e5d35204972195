#!/bin/sh
# description: top with a full table: roots not tracked counted as roots, nothing lost
#   mmpreempt.ko loaded with top_slots=16 (two buckets of 8 entries) while
#   one process maps 200 anon_vma roots, alive at once, and exits: most
#   roots are born into a full bucket. Each is locked at its birth and
#   at its teardown, so a count of failed lookups would pass the number of
#   roots; top's "roots born into a full bucket" must be at least 1 and at
#   most the roots born in the window (anon_vma.alloc - anon_vma.attach),
#   its "holds whose root had no entry" at most the holds timed, and its
#   rows plus its lost line must still equal the stats (holds, hold and
#   wait time), read detached. About 5 s.
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
born=$(($(stat_of anon_vma.alloc) - $(stat_of anon_vma.attach)))
holds=$(($(stat_of anon_vma.lock.read.holds_timed) + $(stat_of anon_vma.lock.write.holds_timed)))
full=$(sed -n 's/^# roots born into a full bucket.*: \([0-9]*\)$/\1/p' "$RES/mod-top-full-top.txt")
fullh=$(sed -n 's/^# holds whose root had no entry.*: \([0-9]*\)$/\1/p' "$RES/mod-top-full-top.txt")
[ -n "$full" ] && [ -n "$fullh" ] || fail "top has no full-bucket lines: $(grep '^#' "$RES/mod-top-full-top.txt")"
echo "measured: $born roots born, $full of them into a full bucket; $holds holds, $fullh of roots without an entry"
[ "$full" -ge 1 ] || fail "200 roots in 16 slots, but none born into a full bucket"
[ "$full" -le "$born" ] || fail "$full roots counted not tracked, but only $born were born"
[ "$fullh" -le "$holds" ] || fail "$fullh holds without an entry, but only $holds holds"
unload_module
