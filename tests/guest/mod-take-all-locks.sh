#!/bin/sh
# description: take_all_locks reports >= 600 roots, its own result, leaks no pid
#   writing the pid of a process with >= 600 anon_vma roots and
#   20 file mappings to take_all_locks runs mm_take_all_locks on its mm and
#   reports at least that many locks, also 20 times over while other
#   processes' mmu_notifier registrations (test_hmm) run mm_take_all_locks
#   on small mms at the same time: the result is the writer's own call's;
#   200 targets written once each and reaped leave no struct pid behind
#   (the pid cache's objects in use grow by less than 50; each write used to
#   leak one); bad pids get clear errors; every hold is the lock's own, in
#   stats and per root in top
# requires: mmpreempt.ko test_hmm.ko alllocks
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/hmm.sh"
# top_n: every root in top's rows; an earlier test may have left the
# module loaded with the default 20
unload_module
load_module top_n=4096
load_test_hmm
cd /tmp || exit 1
alllocks_ready alllocks.out --roots 600 --files 20
pid=$ALLOCKS_PID
# Hundreds of locks held at once and released in the order taken: every
# release but the last is of a lock the CPU did not touch last, so each
# must find its own slot (the probes' per-CPU hint must not stand in)
held() { echo "$(stat_of anon_vma.lock.write.holds_timed) $(stat_of i_mmap.lock.write.holds_timed) $(stat_of holds.untracked.no_hold) $(stat_of holds.in_flight)"; }
# shellcheck disable=SC2046 # the four counters, split on purpose
set -- $(held)
echo $pid >$DBG/take_all_locks || fail "take_all_locks refused pid $pid"
cat $DBG/take_all_locks | tee "$RES/mod-take-all-locks.txt"
r=$(awk '$1 == "anon_vma_roots" { print $2 }' $DBG/take_all_locks)
m=$(awk '$1 == "mappings" { print $2 }' $DBG/take_all_locks)
[ "$r" -ge 600 ] || fail "$r anon_vma roots locked, want >= 600"
[ "$m" -ge 20 ] || fail "$m mappings locked, want >= 20"
# shellcheck disable=SC2046 # the four counters, split on purpose
set -- "$@" $(held)
echo "measured: write holds timed anon_vma +$(($5 - $1)) i_mmap +$(($6 - $2)), untracked releases +$(($7 - $3)), in flight $4 -> $8"
[ $(($5 - $1)) -ge "$r" ] || fail "$r anon_vma roots locked, $(($5 - $1)) write holds timed"
[ $(($6 - $2)) -ge "$m" ] || fail "$m mappings locked, $(($6 - $2)) write holds timed"
expect "releases whose hold was not found" $(($7 - $3)) 0
expect "intervals left in flight" "$8" "$4"
# Per root: mm_take_all_locks() locks each root once, so three calls give
# each of the target's roots exactly three holds in top, whichever root the
# CPU added to last (the probes' per-CPU root cache must not stand in)
echo 1 >$DBG/reset
for i in 1 2 3; do
	echo $pid >$DBG/take_all_locks || fail "take_all_locks refused pid $pid (call $i of 3)"
done
three=$(awk 'NR > 1 && !/^#/ && $4 == 3 { n++ } END { print n + 0 }' $DBG/top)
echo "measured: $three roots in top with exactly 3 holds after 3 calls on $r roots"
[ "$three" -ge "$r" ] || fail "top: $three roots with exactly 3 holds, want the $r locked by each call"
expect ret "$(awk '$1 == "ret" { print $2 }' $DBG/take_all_locks)" 0
# Every write resolves the pid: no reference may stay behind. A leaked
# reference keeps its struct pid allocated after the process is reaped:
# 200 short-lived targets, one write each, then count the pid cache's
# objects in use (its per-CPU slabs flushed first, so the count is exact).
slab=/sys/kernel/slab/pid
[ -w $slab/shrink ] && [ -r $slab/objects ] || fail "no $slab (SLUB sysfs)"
pids_in_use() { echo 1 >$slab/shrink; sed 's/ .*//' $slab/objects; }
before=$(pids_in_use)
i=0
while [ $i -lt 200 ]; do
	sleep 100 &
	t=$!
	echo $t >$DBG/take_all_locks || fail "take_all_locks refused pid $t (target $i)"
	kill $t
	wait $t 2>/dev/null || true
	i=$((i + 1))
done
after=$(pids_in_use)
echo "measured: struct pid objects in use: $before before 200 targets written and reaped, $after after"
[ $((after - before)) -lt 50 ] || fail "200 reaped targets left $((after - before)) more struct pids: a reference leaks"
# Others' mm_take_all_locks() at the same time, on mms of 2 roots each.
rm -f /tmp/stop-others
(while [ ! -e /tmp/stop-others ]; do alllocks --roots 2 --files 0 >/dev/null || exit 1; done) &
others=$!
i=0
while [ $i -lt 20 ]; do
	echo $pid >$DBG/take_all_locks || fail "take_all_locks refused pid $pid (round $i)"
	r=$(awk '$1 == "anon_vma_roots" { print $2 }' $DBG/take_all_locks)
	[ "$r" -ge 600 ] || fail "round $i: $r anon_vma roots reported, want >= 600: another call's result"
	i=$((i + 1))
done
touch /tmp/stop-others
wait $others || fail "the concurrent alllocks failed"
echo "ok: 20 calls beside concurrent registrations each reported its own $r roots"
kill $pid; wait $pid 2>/dev/null || true
# a pid that does not exist, then the one that just exited
for p in 4000000 $pid; do	# above pid_max; exited and reaped
	if write1 $DBG/take_all_locks "$p" 2>/tmp/err; then fail "pid $p accepted"; fi
	echo "ok: pid $p refused: $(cat /tmp/err)"
done
grep -q 'No such process' /tmp/err || fail "a vanished pid should give ESRCH"
