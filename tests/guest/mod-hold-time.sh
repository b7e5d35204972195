#!/bin/sh
# description: known holds of 300 ms and 5 s read as such in hold_ns_max and the histogram
#   an i_mmap write lock held asleep for a known time (lock_hold.ko, the
#   test-only module: mmpreempt.ko has no trigger of its own) shows up as a
#   write hold of at least that time and less than a second more: 300 ms
#   in hold_ns_max and the [256M, 512M) bucket; 5 s, past the range of the
#   probes' 64-bit conversion (fast_max: 2^32 ns with ktime, about as long
#   with the TSC), through the out-of-line 128-bit one, in the [4G, 8G)
#   bucket. About 6 s.
# requires: mmpreempt.ko lock_hold.ko
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
[ ! -e $DBG/test_hold_i_mmap ] || fail "mmpreempt.ko still has the test trigger test_hold_i_mmap"
held() { # held MS BUCKET: hold MS ms, then check the max and the bucket
	echo 1 >>$DBG/reset
	echo "i_mmap write $1" >>/sys/kernel/debug/lock_hold || fail "lock_hold refused $1 ms"
	max=$(stat_of i_mmap.lock.write.hold_ns_max)
	echo "measured: i_mmap write hold max $max ns for a $1 ms sleep"
	[ "$max" -ge $(($1 * 1000000)) ] || fail "hold max $max ns < $1 ms"
	[ "$max" -lt $(($1 * 1000000 + 1000000000)) ] || fail "hold max $max ns > $1 ms + 1 s"
	grep -Eq "^\\[$2\\) +1 " $DBG/hist/i_mmap_write_hold_ns ||
		{ cat $DBG/hist/i_mmap_write_hold_ns; fail "no hold in the [$2) bucket"; }
	echo "ok: $1 ms read as $max ns, in [$2)"
}
held 300 '256M, 512M'
held 5000 '4G, 8G'
