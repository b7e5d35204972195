#!/bin/sh
# description: every counter moves as workloads of known shape say
#   mmpreempt.ko loaded, reset, then workloads of known shape:
#   every counter moves as the shape says (a 64 MiB munmap frees >= 16384
#   pages through >= 32 preemption points and hits the batch limit, a fork
#   tree allocates and frees anon_vmas and takes their locks, a truncate
#   takes an i_mmap read lock, migration takes references), holds are
#   timed in every kind and mode, none untracked, no pointer printed; with
#   the probes detached, top's rows plus what it says is in no row sum to
#   the anon_vma holds, hold and wait times of stats, exactly, after those
#   workloads and again after each of 5 resets made while short processes
#   are exec'd in a loop on CPU 1 (roots released and freed during the
#   reset's grace period: before,
#   reset cleared top's dead roots after the flip, and their holds were in
#   stats but in no row and not in the lost line)
# requires: mmpreempt.ko forktree unmap filemap migrate taskset cpus=2
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module
load_module
echo 1 >$DBG/reset
cd /tmp || exit 1
forktree --depth 3 --width 2 >/dev/null && unmap --mib 64 >/dev/null &&
	filemap --procs 4 --pages 64 >/dev/null || fail "a workload failed"
[ -d /sys/devices/system/node/node1 ] && { migrate --pages 128 >/dev/null || fail "migrate failed"; }
cp $DBG/stats "$RES/mod-stats.txt"
STATS=$RES/mod-stats.txt	# one snapshot: this test's own processes move the live counters
for h in $DBG/hist/*; do cat "$h"; done >"$RES/mod-hist.txt"
ge() { v=$(stat_of "$1"); [ "$v" -ge "$2" ] || fail "$1 = $v, want >= $2"; echo "ok: $1 = $v (>= $2)"; }
ge mmu_gather.pages 16384
ge mmu_gather.preemption_points 32
ge mmu_gather.gathers 16
ge mmu_gather.gathers_fullmm 15
ge mmu_gather.batch_alloc 19
ge mmu_gather.batch_alloc_failed 1
ge anon_vma.alloc 14
ge anon_vma.free 14
ge anon_vma.lock.write.acquired 14
ge anon_vma.lock.write.holds_timed 14
ge i_mmap.lock.write.acquired 8
ge i_mmap.lock.read.acquired 1
ge anon_vma.get 14
[ -d /sys/devices/system/node/node1 ] && ge anon_vma.get 128
for k in anon_vma i_mmap; do
	for m in read write; do
		a=$(stat_of $k.lock.$m.acquired) t=$(stat_of $k.lock.$m.holds_timed)
		[ "$t" -gt 0 ] || fail "$k $m: no hold timed"
		echo "ok: $k $m: $a acquired, $t holds timed"
	done
done
expect "holds.untracked.table_full" "$(stat_of holds.untracked.table_full)" 0
grep -q '^@anon_vma_write_hold_ns:' "$RES/mod-hist.txt" || fail "no hold histogram"
grep -Eq '^\[[0-9KMG]+, [0-9KMG]+\) +[0-9]+ \|@+ *\|$' "$RES/mod-hist.txt" || fail "histogram rows not in bpftrace layout"
top_vs_stats mod
# Resets while roots die: on CPU 1 short processes are exec'd in a loop
# (each exit frees the roots of its mm) through a reset, so that roots are
# released and freed during its grace period; their holds, counted in the
# new stats, must be in a row of top or in its lost line. Five rounds.
for r in 1 2 3 4 5; do
	rm -f /tmp/mod-stats-stop
	taskset -c 1 sh -c 'while [ ! -e /tmp/mod-stats-stop ]; do /bin/true || exit 1; done' &
	storm=$!
	sleep 0.3
	echo 1 >$DBG/reset
	sleep 0.3
	touch /tmp/mod-stats-stop
	wait $storm || fail "the exec loop failed during reset $r"
	top_vs_stats reset-$r
done
grep -Eqi '0x|ffff[0-9a-f]{8}' $DBG/stats $DBG/top $DBG/hist/* && fail "a kernel pointer is printed"
echo "ok: stats, histograms and top consistent"
