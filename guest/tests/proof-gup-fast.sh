#!/bin/sh
# description: SERIES row 8 (GUP-fast). The tree's gup_test: GUP_FAST
#   (get_user_pages_fast) over 64 MiB that gup_test populates from user space
#   (its -z, FOLL_TOUCH, is refused by 6.1 GUP-fast with a WARN) pins them without ever taking
#   the mmap lock inside the ioctl (the lockless walk), while GUP_BASIC
#   (get_user_pages) takes it: mmap_lock events between sys_enter_ioctl and
#   sys_exit_ioctl of gup_test tell which path ran
# requires: trace-cmd, gup_test (built from the tree), CONFIG_GUP_TEST
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
[ -e /sys/kernel/debug/gup_test ] || fail "no /sys/kernel/debug/gup_test (CONFIG_GUP_TEST)"
d=$RES/proof-gup-fast
cd /tmp
for mode in fast:-u basic:-U; do
	name=${mode%%:*} flag=${mode#*:}
	record "$d/$name" mmap_lock:mmap_lock_start_locking syscalls:sys_enter_ioctl \
		syscalls:sys_exit_ioctl -- gup_test $flag -m 64 -r 1
	grep -iE 'time|ok|fail' "$d/$name/record.log" | head -3
	awk '
	$4 != "gup_test" { next }
	$5 == "sys_enter_ioctl" { in_ioctl = 1; calls++ }
	$5 == "sys_exit_ioctl" { in_ioctl = 0 }
	$5 == "mmap_lock_start_locking" && in_ioctl { locks++ }
	END { printf "%d %d\n", calls, locks }' "$d/$name/events.txt" >"$d/$name/counts"
	echo "$name: ioctls and mmap_lock acquisitions inside them: $(cat "$d/$name/counts")"
done
read -r fc fl <"$d/fast/counts"
read -r bc bl <"$d/basic/counts"
[ "$fc" -ge 1 ] && [ "$bc" -ge 1 ] || fail "gup_test made no ioctl"
expect "mmap lock taken inside GUP_FAST ioctls" "$fl" 0
[ "$bl" -ge 1 ] || fail "GUP_BASIC took no mmap lock: the probe cannot tell the paths apart"
echo "ok: GUP_FAST pinned without the mmap lock; GUP_BASIC took it $bl times"
