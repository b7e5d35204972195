#!/bin/sh
# The guest half of bench/module-cost.sh (see there). POSIX sh.
set -eu
DBG=/sys/kernel/debug/mmpreempt
cd /tmp
wl() {
	forktree --depth 3 --width 3 >/dev/null
	unmap --mib 64 >/dev/null
	filemap --procs 4 --pages 64 >/dev/null
}
# elapsed guest ns of one workload run
timed() {
	t0=$(date +%s%N)
	wl
	echo $(($(date +%s%N) - t0))
}
insmod /mnt/art/mmpreempt.ko
echo 0 >$DBG/enable
wl # warm up page cache and binaries
off=0 mod=0 ft=0 nmod=0 nft=0 r=0
while [ $r -lt "$ROUNDS" ]; do
	off=$((off + $(timed)))
	echo 1 >$DBG/reset
	echo 1 >$DBG/enable
	mod=$((mod + $(timed)))
	echo 0 >$DBG/enable
	nmod=$((nmod + $(awk '/^events\./ { s += $2 } END { print s }' $DBG/stats)))
	echo 1 >/sys/kernel/tracing/events/anon_vma/enable
	for s in i_mmap mmu_gather mm_all_locks; do echo 1 >/sys/kernel/tracing/events/$s/enable; done
	echo >/sys/kernel/tracing/trace
	ft=$((ft + $(timed)))
	nft=$((nft + $(grep -vc '^#' /sys/kernel/tracing/trace)))
	for s in anon_vma i_mmap mmu_gather mm_all_locks; do echo 0 >/sys/kernel/tracing/events/$s/enable; done
	r=$((r + 1))
done
echo "rounds $ROUNDS (icount: guest ns = instructions)"
echo "workload, events off:          $((off / ROUNDS)) ns"
echo "workload, mmpreempt.ko:        $((mod / ROUNDS)) ns, $((nmod / ROUNDS)) events"
echo "workload, ftrace buffer:       $((ft / ROUNDS)) ns, $((nft / ROUNDS)) events"
awk -v off="$off" -v mod="$mod" -v ft="$ft" -v nm="$nmod" -v nf="$nft" 'BEGIN {
	printf "mmpreempt.ko cost per event: %.1f ns-equivalent\n", (mod - off) / nm
	printf "ftrace buffer cost per event: %.1f ns-equivalent\n", (ft - off) / nf
}'
