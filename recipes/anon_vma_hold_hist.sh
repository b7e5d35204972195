#!/bin/sh
# anon_vma_hold_hist.sh: the anon_vma lock hold-time histogram (log2 ns, per
# mode) with ftrace hist triggers and a synthetic event: no module, no BPF.
#
# MEASURES: for every acquisition of an anon_vma root lock, the time from
#   anon_vma_lock_acquired (success=1) to anon_vma_lock_released by the same
#   task on the same root and mode; a log2 histogram of it per mode, the
#   figure mmpreempt.ko's hist/anon_vma_{read,write}_hold_ns and
#   bpf-scripts/anon_vma_lat.bt's hold histograms give.
# NEEDS: root, tracefs, the mmpreempt trace events (tracepoints/),
#   CONFIG_HIST_TRIGGERS and CONFIG_SYNTH_EVENTS.
# OVERHEAD: each acquired and released event goes through two hist
#   triggers (a map keyed by pid, root and mode) and the synthetic event
#   through a third; bench/module-cost.sh measures it per event.
# LIMITS: the hist map keeps one start per (pid, root, mode): a task that
#   holds the same root twice at once (it cannot: the rwsem is not
#   recursive) would lose one. Entries beyond the map's size (2048 by
#   default) are dropped and counted in the hist file's "Dropped:" line,
#   which this script prints. common_timestamp reads the trace clock
#   (trace_clock, "local" by default: per CPU), so a hold whose task
#   migrated between acquire and release reads off by the CPUs' clock
#   skew: set trace_clock to "mono" first if that matters.
#
# usage: anon_vma_hold_hist.sh [-- CMD [ARGS...]]
#   with CMD: trace while CMD runs, then print; without: until Ctrl-C.
set -eu
T=/sys/kernel/tracing
[ -d $T/events/anon_vma ] || T=/sys/kernel/debug/tracing
[ -d $T/events/anon_vma ] || { echo "anon_vma_hold_hist: no anon_vma trace events in tracefs (is the kernel patched?)" >&2; exit 1; }
[ -w $T/synthetic_events ] || { echo "anon_vma_hold_hist: $T/synthetic_events is not writable (root? CONFIG_SYNTH_EVENTS?)" >&2; exit 1; }
case "${1:-}" in
--) shift ;;
"") ;;
-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
*) echo "usage: anon_vma_hold_hist.sh [-- CMD [ARGS...]]" >&2; exit 2 ;;
esac
EV=$T/events/anon_vma
ACQ="hist:keys=common_pid,root,write:ts0=common_timestamp if success == 1"
REL="hist:keys=common_pid,root,write:hold=common_timestamp-\$ts0:onmatch(anon_vma.anon_vma_lock_acquired).trace(anon_vma_hold,write,\$hold)"
HIST="hist:keys=write,hold_ns.log2:sort=write,hold_ns"
cleanup() {
	echo "!$HIST" >>$T/events/synthetic/anon_vma_hold/trigger 2>/dev/null || :
	echo "!$REL" >>$EV/anon_vma_lock_released/trigger 2>/dev/null || :
	echo "!$ACQ" >>$EV/anon_vma_lock_acquired/trigger 2>/dev/null || :
	echo "!anon_vma_hold" >>$T/synthetic_events 2>/dev/null || :
}
trap cleanup EXIT
trap 'exit 130' INT TERM
echo 'anon_vma_hold bool write; u64 hold_ns' >>$T/synthetic_events
echo "$HIST" >>$T/events/synthetic/anon_vma_hold/trigger
echo "$ACQ" >>$EV/anon_vma_lock_acquired/trigger
echo "$REL" >>$EV/anon_vma_lock_released/trigger
if [ $# -gt 0 ]; then
	status=0
	"$@" || status=$?
else
	echo "Tracing anon_vma lock holds... Hit Ctrl-C to end." >&2
	trap 'cat $T/events/synthetic/anon_vma_hold/hist; exit 0' INT TERM
	while :; do sleep 3600; done
fi
cat $T/events/synthetic/anon_vma_hold/hist
exit "$status"
