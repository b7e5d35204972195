#!/bin/sh
# description: every writable debugfs file of the module refuses garbage,
#   empty, huge, negative, overflowing and out-of-range writes with EINVAL
#   and changes nothing; an unprivileged user can read and write nothing
# requires: mmpreempt.ko, setpriv (util-linux)
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
huge=$(head -c 100000 /dev/zero | tr '\0' '1')
refuse() { # refuse FILE VALUE...
	f=$1; shift
	for v in "$@"; do
		if write1 "$DBG/$f" "$v" 2>/tmp/err; then
			fail "$f accepted '$(printf '%s' "$v" | cut -c1-20)'"
		fi
		grep -q 'Invalid argument' /tmp/err || fail "$f: '$v' gave $(cat /tmp/err), want EINVAL"
	done
	echo "ok: $f refused $# bad values with EINVAL"
}
before=$(stat_of events.mmu_gather_start)
refuse enable abc "" "$huge" -1 2 99999999999999999999 "1 " " 1" 01 +1 "1\n\n" 0x1
[ "$(cat $DBG/enable)" = 1 ] || fail "a refused write changed enable"
refuse reset abc "" "$huge" -1 0 2 99999999999999999999 01
[ "$(stat_of events.mmu_gather_start)" -ge "$before" ] || fail "a refused reset zeroed the counters"
refuse take_all_locks abc "" "$huge" -1 0 99999999999999999999 4194305 " 1"
refuse test_hold_i_mmap abc "" "$huge" -1 0 10001 99999999999999999999
# unprivileged: nobody, no capabilities
for f in stats top enable take_all_locks hist/i_mmap_read_hold_ns; do
	if setpriv --reuid=65534 --regid=65534 --clear-groups cat $DBG/$f >/dev/null 2>&1; then
		fail "nobody could read $f"
	fi
done
for f in enable reset take_all_locks test_hold_i_mmap; do
	if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 1 >$DBG/$f" 2>/dev/null; then
		fail "nobody could write $f"
	fi
done
echo "ok: an unprivileged user can neither read nor write any file"
# good values still work
echo 0 >$DBG/enable && echo 1 >$DBG/enable && echo 1 >$DBG/reset || fail "a good write failed"
