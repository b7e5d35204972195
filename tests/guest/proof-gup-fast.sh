#!/bin/sh
# description: gup_test GUP_FAST pins 64 MiB without the mmap lock; GUP_BASIC takes it
#   SERIES row 8 (GUP-fast). The tree's gup_test: GUP_FAST
#   (get_user_pages_fast) over 64 MiB that gup_test populates from user space
#   (its -z, FOLL_TOUCH, is refused by 6.1 GUP-fast with a WARN) pins every
#   page (the driver's own count: no "truncated") without ever taking the
#   mmap lock inside the ioctl (the lockless walk), while GUP_BASIC
#   (get_user_pages) runs under it (gup_test's driver takes it for that
#   command). The probe is shown able to see GUP's own locking: the same
#   GUP_FAST ioctl over 4 MiB never faulted in (gupcall) pins every page
#   through the slow path, whose mmap lock (taken by get_user_pages_unlocked,
#   not by the driver) is acquired and released exactly once per page inside
#   the ioctl. mmap_lock events between sys_enter_ioctl and sys_exit_ioctl
#   of the process tell which path ran
# requires: trace-cmd gup_test gupcall CONFIG_GUP_TEST
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
[ -e /sys/kernel/debug/gup_test ] || fail "no /sys/kernel/debug/gup_test (CONFIG_GUP_TEST)"
d=$RES/proof-gup-fast
cd /tmp || exit 1
# count_locks DIR COMM: "ioctls locks releases": COMM's gup_test ioctls
# (cmd _IOWR('g', N, struct gup_test of 0x50 bytes)), and the mmap_lock
# acquisitions (successful) and releases by that task inside them
count_locks() {
	events_awk -v comm="$2" '
	$4 != comm { next }
	$5 == "sys_enter_ioctl" && /cmd: 0xc05067/ { in_ioctl[$3] = 1; calls++ }
	$5 == "sys_exit_ioctl" { delete in_ioctl[$3] }
	!($3 in in_ioctl) { next }
	$5 == "mmap_lock_acquire_returned" && f["success"] == "true" { locks++ }
	$5 == "mmap_lock_released" { rel++ }
	END { printf "%d %d %d\n", calls, locks, rel }' "$1/events.txt" >"$1/counts"
}
ev="mmap_lock:mmap_lock_acquire_returned mmap_lock:mmap_lock_released syscalls:sys_enter_ioctl syscalls:sys_exit_ioctl"
for mode in fast:-u basic:-U; do
	name=${mode%%:*} flag=${mode#*:}
	# shellcheck disable=SC2086
	record "$d/$name" $ev -- gup_test $flag -m 64 -r 1
	grep -E 'BENCHMARK|TEST|runcated' "$d/$name/record.log" | head -3
	count_locks "$d/$name" gup_test
	echo "$name: ioctls, mmap_lock acquisitions and releases inside them: $(cat "$d/$name/counts")"
done
# Pages pinned: the driver reports the range it covered (one page per
# call), and gup_test prints "truncated (size: N)" when that is short.
grep -q '^GUP_FAST_BENCHMARK: Time: ' "$d/fast/record.log" || fail "gup_test reported no GUP_FAST result"
if grep -qi 'truncated' "$d/fast/record.log"; then
	fail "GUP_FAST pinned less than the 64 MiB: $(grep -i truncated "$d/fast/record.log" | head -n 1)"
fi
grep -q '^GUP_BASIC_TEST: done' "$d/basic/record.log" || fail "gup_test reported no GUP_BASIC result"
grep -qi 'truncated' "$d/basic/record.log" && fail "GUP_BASIC pinned less than the 64 MiB"
echo "ok: GUP_FAST and GUP_BASIC each pinned all 16384 pages"
read -r fc fl fr <"$d/fast/counts"
read -r bc bl br <"$d/basic/counts"
expect "GUP_FAST ioctls by gup_test" "$fc" 1
expect "GUP_BASIC ioctls by gup_test" "$bc" 1
expect "mmap lock taken inside the GUP_FAST ioctl" "$fl" 0
expect "mmap lock released inside the GUP_FAST ioctl" "$fr" 0
expect "mmap lock taken inside the GUP_BASIC ioctl (the driver's own)" "$bl" 1
expect "mmap lock released inside the GUP_BASIC ioctl" "$br" 1
# The control: GUP_FAST on pages never faulted in goes the slow path.
pages=1024
# shellcheck disable=SC2086
record "$d/slow" $ev -- gupcall --mib 4
grep '^gupcall:' "$d/slow/record.log"
grep -q "^gupcall: GUP_FAST over $pages pages not faulted in: $pages pinned" "$d/slow/record.log" ||
	fail "gupcall did not pin all $pages pages"
count_locks "$d/slow" gupcall
read -r sc sl sr <"$d/slow/counts"
echo "slow: ioctls, mmap_lock acquisitions and releases inside them: $sc $sl $sr"
expect "GUP_FAST ioctls by gupcall" "$sc" 1
expect "mmap lock acquisitions inside the GUP_FAST ioctl on absent pages (one per page)" "$sl" $pages
expect "mmap lock releases inside it" "$sr" $pages
echo "ok: GUP_FAST pinned 64 MiB without the mmap lock; on absent pages its slow path took it once per page"
