#!/bin/sh
# description: a take_all_locks write waiting behind another can be killed
#   take_all_locks serialises its writers; one waiting behind a call that
#   cannot finish must still die of a signal. lock_hold.ko holds the
#   anon_vma root of a process's stack (alllocks: static, sharing no file
#   mapping with the shell) in write mode for 4 s; a first
#   write of that pid blocks inside mm_take_all_locks() on it; a second
#   write, waiting for the first, gets SIGTERM: it must be gone while the
#   hold (and so the first write) still lasts, and the first must then
#   complete. About 5 s.
# requires: mmpreempt.ko lock_hold.ko alllocks
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
# a static program: mm_take_all_locks() holds the i_mmap lock of every
# file its target maps while it waits, and an exec of anything sharing
# one (libc) would wait with it
cd /tmp || exit 1
alllocks_ready /tmp/mod-take-wait.out --roots 1 --files 0
target=$ALLOCKS_PID
trap 'kill $target 2>/dev/null' EXIT
top=$(awk '$NF == "[stack]" { split($1, r, "-"); print r[2] }' /proc/$target/maps)
[ -n "$top" ] || fail "no [stack] in /proc/$target/maps"
addr=$(printf '%x' $((0x$top - 4096)))
echo "anon_vma write $target $addr 4000" >>/sys/kernel/debug/lock_hold 2>/tmp/mod-take-wait.err &
holder=$!
sleep 0.5
sh -c "echo $target >>$DBG/take_all_locks" &
first=$!
sleep 0.5
sh -c "echo $target >>$DBG/take_all_locks" 2>/dev/null &
second=$!
sleep 0.5
kill -0 $holder 2>/dev/null || { rc=0; wait $holder || rc=$?; fail "the hold ended before the test could begin (exit $rc: $(cat /tmp/mod-take-wait.err))"; }
kill -0 $first 2>/dev/null || fail "the first write did not wait for the held root"
kill -TERM $second
i=0
while kill -0 $second 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $second 2>/dev/null; then
	gone=no
else
	gone=yes
fi
holding=no
kill -0 $holder 2>/dev/null && holding=yes
echo "measured: the killed waiter gone after $i x 0.1 s: $gone; hold still on: $holding"
[ $gone = yes ] || fail "the waiting writer did not die of SIGTERM within 2 s"
[ $holding = yes ] || fail "the hold ended before the waiter died: the test shows nothing"
wait $holder || fail "lock_hold failed"
wait $first || fail "the first take_all_locks write failed"
grep -qx "pid $target" $DBG/take_all_locks || fail "take_all_locks does not show the first write: $(cat $DBG/take_all_locks)"
echo "ok: a writer waiting behind a blocked take_all_locks died of SIGTERM at once; the blocked one completed"
