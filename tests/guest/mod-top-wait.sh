#!/bin/sh
# description: a wait is in top when stats count it, across a detach and a reset
#   the stats take a contended acquisition's wait when it ends, so top
#   must too: a hold still in flight at a detach or a reset must not leave
#   its wait in one and not the other. lock_hold.ko holds a process's
#   stack root in write mode 1 s; a second holder waits behind it, then
#   holds 3 s; during that hold the module is detached (enable=0) and
#   attached again; after it, top's rows plus its lost line must equal the
#   stats (holds, hold and wait time). Then the same with a reset during
#   the hold. About 10 s
# requires: mmpreempt.ko lock_hold.ko alllocks
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
H=/sys/kernel/debug/lock_hold
[ -e $H ] || insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
unload_module
load_module
cd /tmp || exit 1
alllocks_ready /tmp/mod-top-wait.out --roots 1 --files 0
target=$ALLOCKS_PID
trap 'kill $target 2>/dev/null' EXIT
top=$(awk '$NF == "[stack]" { split($1, r, "-"); print r[2] }' /proc/$target/maps)
addr=$(printf '%x' $((0x$top - 4096)))
# between WHAT: a 1 s hold, a waiter behind it that then holds 3 s, and
# WHAT done during that second hold
between() {
	echo "anon_vma write $target $addr 1000" >>$H &
	first=$!
	sleep 0.3
	echo "anon_vma write $target $addr 3000" >>$H &
	second=$!
	sleep 1.5	# the first released at 1 s: the second holds now
	kill -0 $second 2>/dev/null || fail "the second holder is not holding"
	eval "$1"
	wait $first $second || fail "lock_hold failed"
}
echo 1 >>$DBG/reset
between 'echo 0 >>$DBG/enable; echo 1 >>$DBG/enable'
w=$(stat_of anon_vma.lock.write.wait_ns_total)
# how long it waited depends on when its shell ran (484 ms on a loaded
# debug kernel): that it waited, and was timed, is what counts
[ "$(stat_of anon_vma.lock.write.contended)" -ge 1 ] && [ "$w" -gt 0 ] ||
	fail "the second holder's wait was not timed: contended $(stat_of anon_vma.lock.write.contended), $w ns"
echo "measured: write wait $w ns, its hold in flight at the detach"
top_vs_stats mod-top-wait-detach
between 'echo 1 >>$DBG/reset'
top_vs_stats mod-top-wait-reset
