#!/bin/sh
# The guest half of bench/module-cost.sh (see there). POSIX sh.
set -eu
DBG=/sys/kernel/debug
EV=/sys/kernel/tracing/events/anon_vma
N=${N:-100000}
MOD=/mnt/art/mmpreempt.ko
insmod /mnt/art/modules/event_bench.ko
run() { echo "$N" >$DBG/event_bench; cat $DBG/event_bench; }
# with_module NAME PARAMS...: one run with mmpreempt.ko loaded so, added to
# the total of NAME; the module's own counters must equal the events fired
with_module() {
	name=$1
	shift
	insmod $MOD "$@"
	t=$(run)
	got=$(awk '$1 == "events.anon_vma_lock_released" { print $2 }' $DBG/mmpreempt/stats)
	[ "$got" -ge "$N" ] || { echo "module $*: counted $got of the $N releases fired" >&2; exit 1; }
	untracked=$((untracked + $(awk '$1 ~ /^holds.untracked/ { s += $2 } END { print s + 0 }' $DBG/mmpreempt/stats)))
	clock=$(awk '$1 == "clock.tsc" { print $2 ? "tsc" : "mono_fast" }' $DBG/mmpreempt/stats)
	rmmod mmpreempt
	eval "$name=\$((\$$name + t))"
}
off=0 timed=0 notop=0 counting=0 ft=0 r=0 untracked=0
while [ $r -lt "$ROUNDS" ]; do
	off=$((off + $(run)))
	with_module timed
	with_module notop top=0
	with_module counting mode=counting
	for e in anon_vma_lock_start anon_vma_lock_acquired anon_vma_lock_released; do
		echo 1 >$EV/$e/enable
	done
	ft=$((ft + $(run)))
	for e in anon_vma_lock_start anon_vma_lock_acquired anon_vma_lock_released; do
		echo 0 >$EV/$e/enable
	done
	r=$((r + 1))
done
ev=$((3 * N * ROUNDS))
echo "rounds $ROUNDS x $N x 3 anon_vma lock events (start, acquired contended, released), fired from a loop with preemption off"
echo "units: instructions per event (icount: one guest ns per instruction); clock: $clock"
awk -v off="$off" -v t="$timed" -v nt="$notop" -v c="$counting" -v ft="$ft" -v ev="$ev" 'BEGIN {
	printf "%-34s %8s %12s\n", "configuration", "per_event", "above_off"
	printf "%-34s %8.1f %12s\n", "events off (static branch + loop)", off / ev, "-"
	printf "%-34s %8.1f %12.1f\n", "mmpreempt.ko mode=timed (default)", t / ev, (t - off) / ev
	printf "%-34s %8.1f %12.1f\n", "mmpreempt.ko mode=timed top=0", nt / ev, (nt - off) / ev
	printf "%-34s %8.1f %12.1f\n", "mmpreempt.ko mode=counting", c / ev, (c - off) / ev
	printf "%-34s %8.1f %12.1f\n", "ftrace ring buffer", ft / ev, (ft - off) / ev
}'
echo "holds untracked during the module runs: $untracked"
