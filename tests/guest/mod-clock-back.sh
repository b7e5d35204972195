#!/bin/sh
# description: a clock read back at a hold's release counts clock.backwards, books 0 ns
#   mmp_inject.ko (test only) makes mmpreempt.ko's next ktime read in one
#   task return 10 s less while that task holds an i_mmap write lock for
#   400 ms (lock_hold.ko): the release's interval is negative, as between
#   two CPUs whose clocks disagree. clock.backwards must read 1, the hold
#   must be booked at 0 ns (the [0] slot of the histogram), and
#   hold_ns_max stay below the 400 ms (other i_mmap write holds of the
#   guest go on meanwhile: exec's mmaps), never a hold of centuries. Loads
#   the module with clock=ktime: the TSC is read inline, there is no call
#   to inject into. About 2 s.
# requires: mmpreempt.ko lock_hold.ko mmp_inject.ko
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module
load_module clock=ktime
[ "$(stat_of clock.tsc)" = 0 ] || fail "clock=ktime, but stats says clock.tsc $(stat_of clock.tsc)"
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
rmmod mmp_inject 2>/dev/null || :
insmod "$ART/modules/mmp_inject.ko" || fail "insmod mmp_inject.ko failed"
trap 'rmmod mmp_inject 2>/dev/null || true' EXIT
echo 1 >>$DBG/reset
sh -c 'echo "i_mmap write 400" >>/sys/kernel/debug/lock_hold' &
holder=$!
sleep 0.15	# inside the hold: the next read of the holder's is the release's
echo "back $holder 10000" >/sys/kernel/debug/mmp_inject || fail "mmp_inject refused back"
wait $holder || fail "lock_hold refused the hold"
grep -q '^back done$' /sys/kernel/debug/mmp_inject ||
	fail "the clock was not set back: $(cat /sys/kernel/debug/mmp_inject)"
rmmod mmp_inject
trap - EXIT
echo 0 >$DBG/enable
cp $DBG/stats "$RES/mod-clock-back-stats.txt"
cp $DBG/hist/i_mmap_write_hold_ns "$RES/mod-clock-back-hist.txt"
echo 1 >$DBG/enable
STATS=$RES/mod-clock-back-stats.txt
back=$(stat_of clock.backwards)
holds=$(stat_of i_mmap.lock.write.holds_timed)
max=$(stat_of i_mmap.lock.write.hold_ns_max)
echo "measured: clock.backwards $back, i_mmap write holds $holds, hold_ns_max $max"
expect "clock.backwards after one read set back" "$back" 1
[ "$holds" -ge 1 ] || fail "no i_mmap write hold timed"
[ "$max" -lt 400000000 ] || fail "hold_ns_max $max: the hold read back was booked at $max ns, not 0"
awk '$1 == "[0]" && $2 >= 1 { f = 1 } END { exit !f }' "$RES/mod-clock-back-hist.txt" ||
	{ cat "$RES/mod-clock-back-hist.txt"; fail "the hold is not in the [0] slot"; }
unload_module
echo "ok: a release read 10 s before its acquisition: booked at 0 ns, counted in clock.backwards"
