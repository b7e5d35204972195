#!/bin/sh
# description: module's count of every event equals trace-cmd's over the same window
#   the module's count of every event equals the number of
#   those events trace-cmd recorded over the same window (trace markers
#   around a reset and a snapshot taken with shell builtins into a file
#   opened beforehand, which fire no mm event); trace-cmd must have lost
#   no event. Then, from the same trace (lib/vs-trace.sh): the flush and
#   resched page histograms bucket by bucket, holds_timed per lock kind and
#   mode (the holds lib/holds.awk pairs), gathers_nested (non-zero: 4
#   threads unmap at once; anon_vma_reuse too, from a fork chain),
#   preemption_points_pending (non-zero: under preempt=none an unmap
#   shares CPU 0 with a busy loop) and trylock_failed,
#   each exact; and top's rows (loaded with top_n=4096) against the trace's
#   roots: the same (holds, anon_vmas, state) multiset, both states present.
#   A second window races anon_vma_race.ko's paused reader against the
#   page owner's exit: anon_vma_get_failed non-zero, equal in both; loaded
#   with top_n=1 there, top's lost line carries every other root: its holds
#   plus the row's equal the trace's, its hold_ns within the clock bound
# requires: mmpreempt.ko anon_vma_race.ko trace-cmd forktree unmap filemap
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
. "$(dirname "$0")/lib/vs-trace.sh"
. "$(dirname "$0")/lib/race.sh"
# top_n: every root of the window gets its row (vs_trace_top)
unload_module
load_module top_n=4096
cd /tmp || exit 1
# preempt=none: an unmap sharing CPU 0 with a busy loop then finds a
# reschedule pending at its gather's preemption points
model=/sys/kernel/debug/sched/preempt
pending=0
if [ -w $model ]; then
	old=$(sed 's/.*(\(.*\)).*/\1/' $model)
	trap 'echo "$old" >$model' EXIT
	echo none >$model
	pending=1
fi
vs_trace "$RES/mod-vs-trace" sh -c 'forktree --depth 2 --width 3 && unmap --mib 32 && filemap --procs 3 --pages 32 &&
	unmap --mib 16 --threads 4 --repeat 4 --dontneed && forktree --chain 8 --mib 1 &&
	{ taskset -c 0 sh -c "while :; do :; done" & s=$!; taskset -c 0 unmap --mib 64; r=$?
	  kill $s; wait $s; [ $r -eq 0 ]; } &&
	{ sleep 10 & } && sleep 1'
vs_trace_figures "$RES/mod-vs-trace"
vs_trace_counts "$RES/mod-vs-trace"
vs_trace_top "$RES/mod-vs-trace"
# a sleep outlives the window, idle for its last second (an exec or exit
# during the snapshot would land in some of its files and not others): its
# roots must read alive
for st in alive freed; do
	grep -q " $st\$" "$RES/mod-vs-trace/top-rows" || fail "no $st root in top: its state compared nothing"
done
STATS=$RES/mod-vs-trace/stats
[ "$(stat_of mmu_gather.gathers_nested)" -gt 0 ] ||
	fail "no nested gather in the window: gathers_nested compared 0 with 0"
if [ $pending = 1 ]; then
	[ "$(stat_of mmu_gather.preemption_points_pending)" -gt 0 ] ||
		fail "no preemption point with a reschedule pending in the window: compared 0 with 0"
else
	echo "not checked: preemption_points_pending non-zero (no $model to set preempt=none)"
fi
# forktree --chain: its middle generations exit, and anon_vma_clone() reuses
[ "$(stat_of anon_vma.reuse)" -gt 0 ] ||
	fail "no anon_vma_reuse in the window: its count compared 0 with 0"
unset STATS
if [ $pending = 1 ]; then
	echo "$old" >$model
	trap - EXIT
fi

# A second window: anon_vma_race.ko holds folio_get_anon_vma()'s window open
# while the page's owner is killed (as proof-refcount does), so its
# inc-not-zero fails: anon_vma_get_failed, non-zero, in both counts
# top_n=1: every root but the one of the longest holds goes to the lost line
unload_module
load_module top_n=1
load_race delay_ms=1000
start_victim
race_script /tmp/race.sh
vs_trace "$RES/mod-vs-trace/race" sh /tmp/race.sh
wait $VICTIM 2>/dev/null || true
STATS=$RES/mod-vs-trace/race/stats
[ "$(stat_of anon_vma.get_failed)" -gt 0 ] ||
	fail "no failed inc-not-zero in the race window: get_failed compared 0 with 0"
echo "ok: the race window: anon_vma.get_failed $(stat_of anon_vma.get_failed), as the trace's count"
unset STATS
vs_trace_lost "$RES/mod-vs-trace/race"
# later tests load the module with their own parameters
unload_module
