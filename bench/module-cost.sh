#!/bin/sh
# module-cost.sh: what the mmpreempt trace events and mmpreempt.ko cost per
# event, measured in one guest boot with deterministic guest time.
#
# MEASURES: event_bench.ko (tests/modules) fires N rounds of the three
#   anon_vma lock events in a loop; timed by the guest clock with the events
#   off, with mmpreempt.ko loaded in each mode (timed, timed top=0,
#   counting), into the ftrace buffer, into ftrace hist triggers
#   (recipes/anon_vma_hold_hist.sh) and into bpftrace's anon_vma_lat.bt
#   (BPFTRACE=0: not), interleaved over ROUNDS rounds; each tracer must
#   count the events fired.
#   Cost per event = time / events; above off = the tracepoint's call and
#   the probe itself. Lifecycle rows: FORKS (200) forks of alllocks with 64
#   anon_vma roots alive, each fork 64 anon_vmas born, attached and freed,
#   with the events off, mode=counting, mode=timed top=0 and mode=timed
#   with top_slots=16 (top's table full of live roots): the lifecycle
#   probes and, by difference, top's per-root state, per fork. A row with
#   clock=tsc where the kernel trusts the TSC though the CPU does not say
#   invariant (this guest): the TSC probes' cost.
# NEEDS: make kernel module rootfs. Boots with ICOUNT=1 (TCG,
#   -icount shift=0: one guest nanosecond per instruction, so the figures
#   are instruction counts, reproducible, not real-hardware latencies), SMP=1.
# OVERHEAD: one boot, under a minute.
# Output: results/bench/module-cost.txt (and .stamp: what it ran on); the
#   table goes to bench/RESULTS.md (bench/summary.sh).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "module-cost.sh (settings in the environment: ROUNDS N BPFTRACE MEM)" 0 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ROUNDS=${ROUNDS:-5} N=${N:-100000}
ICOUNT=1 SMP=1 NUMA=1 MEM=${MEM:-1024} QUIET=1 "$TOP/guest/run.sh" -r "$res" -- "
UNITS='instructions per event (icount: one guest ns per instruction)' BPFTRACE=${BPFTRACE:-1} ROUNDS=$ROUNDS N=$N sh /mnt/repo/bench/module-cost-guest.sh >/mnt/results/module-cost.txt 2>&1"
"$TOP/bench/stamp.sh" "$res" module-cost "$res"
cat "$res/module-cost.txt"
