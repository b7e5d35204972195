#!/bin/sh
# description: a 300 ms test_hold_i_mmap hold shows in hold_ns_max and the histogram
#   an i_mmap write lock held asleep for a known 300 ms (the
#   module's test_hold_i_mmap trigger) shows up as a write hold of at least
#   300 ms: in hold_ns_max and in the hold histogram's top bucket
# requires: mmpreempt.ko
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
echo 1 >$DBG/reset
echo 300 >$DBG/test_hold_i_mmap || fail "the trigger refused 300"
max=$(stat_of i_mmap.lock.write.hold_ns_max)
echo "measured: i_mmap write hold max $max ns for a 300 ms sleep"
[ "$max" -ge 300000000 ] || fail "hold max $max ns < 300 ms"
# 300 ms lies in [256M, 512M) ns: log2 bucket 29
grep -Eq '^\[256M, 512M\) +1 ' $DBG/hist/i_mmap_write_hold_ns ||
	{ cat $DBG/hist/i_mmap_write_hold_ns; fail "no hold in the [256M, 512M) bucket"; }
