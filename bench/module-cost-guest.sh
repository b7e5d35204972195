#!/bin/sh
# The guest half of bench/module-cost.sh (see there). POSIX sh.
set -eu
DBG=/sys/kernel/debug
EV=/sys/kernel/tracing/events/anon_vma
N=${N:-100000}
insmod /mnt/art/modules/event_bench.ko
insmod /mnt/art/mmpreempt.ko
echo 0 >$DBG/mmpreempt/enable
run() { echo "$N" >$DBG/event_bench; cat $DBG/event_bench; }
off=0 mod=0 ft=0 r=0
while [ $r -lt "$ROUNDS" ]; do
	off=$((off + $(run)))
	echo 1 >$DBG/mmpreempt/enable
	mod=$((mod + $(run)))
	echo 0 >$DBG/mmpreempt/enable
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
untracked=$(awk '$1 ~ /^holds.untracked/ { s += $2 } END { print s + 0 }' $DBG/mmpreempt/stats)
echo "rounds $ROUNDS x $N x 3 anon_vma lock events, fired from a loop with preemption off"
echo "(icount: one guest ns per instruction, so ns-equivalents are instruction counts)"
awk -v off="$off" -v mod="$mod" -v ft="$ft" -v ev="$ev" 'BEGIN {
	printf "events off (static branch + loop): %.1f ns-equivalent per event\n", off / ev
	printf "mmpreempt.ko attached:             %.1f ns-equivalent per event (%.1f above off)\n", mod / ev, (mod - off) / ev
	printf "ftrace ring buffer:                %.1f ns-equivalent per event (%.1f above off)\n", ft / ev, (ft - off) / ev
}'
echo "holds untracked during the run: $untracked"
