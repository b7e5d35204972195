#!/bin/sh
# description: with the mmpreempt events disabled (the default), workloads
#   that would fire every one of them leave none in the buffer, both before
#   any enabling and after an enable/disable round trip
# requires: trace-cmd, forktree, unmap, filemap
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
systems="anon_vma i_mmap mmu_gather mm_all_locks"
for s in $systems; do
	[ "$(cat $TRACEFS/events/$s/enable)" = 0 ] || fail "$s is enabled at boot"
done
wl='forktree --depth 2 --width 2 && unmap --mib 8 && filemap --procs 2 --pages 16'
d=$RES/tp-static-keys-off
record "$d/cold" sched:sched_process_exec -- sh -c "$wl"
for s in $systems; do echo 1 >$TRACEFS/events/$s/enable; done
for s in $systems; do echo 0 >$TRACEFS/events/$s/enable; done
record "$d/round-trip" sched:sched_process_exec -- sh -c "$wl"
for run in cold round-trip; do
	execs=$(count "$d/$run/events.txt" sched_process_exec)
	ours=$(awk '$5 ~ /^(anon_vma_|i_mmap_|mmu_gather_|mm_take_all_locks|mm_drop_all_locks)/' "$d/$run/events.txt" | wc -l)
	echo "ok: $run: $execs execs recorded, $ours mmpreempt events"
	[ "$execs" -ge 3 ] || fail "$run: the workload did not run ($execs execs)"
	expect "$run: mmpreempt events in the buffer" "$ours" 0
done
