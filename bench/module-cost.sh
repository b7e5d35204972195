#!/bin/sh
# module-cost.sh: what the mmpreempt trace events and mmpreempt.ko cost per
# event, measured in one guest boot with deterministic guest time.
#
# MEASURES: the same workload (a fork tree, a 64 MiB populate+munmap and a
#   file map+truncate, repeated) timed by the guest clock in three states,
#   interleaved over ROUNDS rounds: events off (static keys patched out),
#   mmpreempt.ko attached, and the events on into the ftrace buffer
#   (trace-cmd). Cost per event = (time attached - time off) / events seen
#   by the module in that run; the same for ftrace.
# NEEDS: make kernel module workloads rootfs. Boots with ICOUNT=1 (TCG,
#   -icount shift=0: one guest nanosecond per instruction, so the figures
#   are instruction counts, reproducible, not real-hardware latencies), SMP=1.
# OVERHEAD: one boot, about 2 minutes.
# Output: results/bench/module-cost.txt
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ROUNDS=${ROUNDS:-5}
ICOUNT=1 SMP=1 NUMA=1 MEM=${MEM:-1024} QUIET=1 "$TOP/guest/run.sh" -r "$res" -- "
ROUNDS=$ROUNDS sh /mnt/repo/bench/module-cost-guest.sh >/mnt/results/module-cost.txt 2>&1"
cat "$res/module-cost.txt"
