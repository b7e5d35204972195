#!/bin/sh
# description: debugfs files refuse bad writes with EINVAL; user nobody can't use them
#   every writable debugfs file of the module refuses garbage,
#   empty, huge, negative, overflowing and out-of-range writes with EINVAL
#   and changes nothing; an unprivileged user who can reach the files (the
#   debugfs root opened to 0755 for the check) can read and write none of
#   them: the module's file modes refuse
# requires: mmpreempt.ko setpriv
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
# a value kstrtouint_from_user() would read cut at 23 bytes, as 0
padded=$(printf '%030d' 1)
refuse enable abc "" "$huge" -1 2 99999999999999999999 "1 " " 1" "1\n\n" 0x1 "$padded"
[ "$(cat $DBG/enable)" = 1 ] || fail "a refused write changed enable"
refuse reset abc "" "$huge" -1 0 2 99999999999999999999
# the kernel's kstrtouint_from_user() reads "+1" and "01" as 1, "1\n" too
for v in +1 01 "1
"; do
	write1 $DBG/enable "$v" || fail "enable refused '$v', which kstrtouint reads as 1"
done
[ "$(cat $DBG/enable)" = 1 ] || fail "enable is not 1 after writes of 1"
[ "$(stat_of events.mmu_gather_start)" -ge "$before" ] || fail "a refused reset zeroed the counters"
refuse take_all_locks abc "" "$huge" -1 0 99999999999999999999 4194305 " 1"
# unprivileged: nobody, no capabilities. debugfs is mounted 0700, which
# alone would lock nobody out: open its root for the check (and restore its
# mode after), so that the module's own file modes are what is tested.
dmode=$(stat -c %a /sys/kernel/debug)
trap 'chmod "$dmode" /sys/kernel/debug' EXIT
chmod 0755 /sys/kernel/debug || fail "cannot chmod /sys/kernel/debug"
for f in stats top enable reset take_all_locks hist/i_mmap_read_hold_ns; do
	setpriv --reuid=65534 --regid=65534 --clear-groups test -e $DBG/$f ||
		fail "nobody cannot reach $DBG/$f: the check would not reach the file's mode"
done
echo "ok: nobody reaches every file (the directories are traversable)"
for f in stats top enable take_all_locks hist/i_mmap_read_hold_ns; do
	if setpriv --reuid=65534 --regid=65534 --clear-groups cat $DBG/$f >/dev/null 2>&1; then
		fail "nobody could read $f"
	fi
done
for f in enable reset take_all_locks; do
	if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo 1 >$DBG/$f" 2>/dev/null; then
		fail "nobody could write $f"
	fi
done
echo "ok: an unprivileged user can neither read nor write any file"
chmod "$dmode" /sys/kernel/debug
trap - EXIT
# good values still work
echo 0 >$DBG/enable && echo 1 >$DBG/enable && echo 1 >$DBG/reset || fail "a good write failed"
