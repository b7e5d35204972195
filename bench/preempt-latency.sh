#!/bin/sh
# preempt-latency.sh: what the series' preemption points buy a realtime
# task, under each preemption model: the LWN article's question, answered
# with the realtime community's own tool.
#
# MEASURES: cyclictest's wake-up latency (SCHED_FIFO 90, 1 ms period, a
#   histogram: max and p99, in us of guest time) on the guest's only CPU
#   while the same CPU runs, in turn, a 1 GiB munmap, the exit of a process
#   with 1 GiB written, and mm_take_all_locks over 2,000 anon_vma roots;
#   for preempt=none, voluntary and full (switched at run time through
#   /sys/kernel/debug/sched/preempt) x tlb_preempt_points on and off.
# NEEDS: make kernel rootfs workloads (cyclictest is in the guest image,
#   test_hmm.ko comes with the kernel). Boots with ICOUNT=1, SMP=1: guest
#   time is a count of instructions, so the latencies are reproducible
#   and comparable with each other, not real-hardware latencies.
# OVERHEAD: one boot, several minutes (18 runs of a 1 GiB workload under
#   icount); MIB=64 ROOTS=200 for a quick look.
# Output: results/bench/preempt-latency.txt, .png and .svg (gnuplot), and
#   .stamp (what it ran on); the table goes to bench/RESULTS.md
#   (bench/summary.sh).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "preempt-latency.sh (settings in the environment: MIB ROOTS MEM TIMEOUT)" 0 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ICOUNT=1 SMP=1 NUMA=1 MEM=${MEM:-2048} QUIET=1 TIMEOUT=${TIMEOUT:-3600} "$TOP/guest/run.sh" -r "$res/preempt-latency" -- "
MIB=${MIB:-1024} ROOTS=${ROOTS:-2000} sh /mnt/repo/bench/preempt-latency-guest.sh >/mnt/results/preempt-latency.txt 2>&1"
cp "$res/preempt-latency/preempt-latency.txt" "$res/preempt-latency.txt"
"$TOP/bench/stamp.sh" "$res" preempt-latency "$res/preempt-latency"
# the plot: worst latency per work and model, points on beside points off
awk '$1 ~ /^(none|voluntary|full)$/ { v[$3 "/" $1, $2] = $4; k[$3 "/" $1] = 1 }
	END { n = split("munmap exit alllocks", w, " "); split("none voluntary full", m, " ")
		for (i = 1; i <= n; i++) for (j = 1; j <= 3; j++) {
			x = w[i] "/" m[j]; if (x in k) print x, v[x, "Y"], v[x, "N"] } }' \
	"$res/preempt-latency.txt" >"$res/preempt-latency.dat"
(cd "$res" && gnuplot -e "in='preempt-latency.dat'; out='preempt-latency'" "$TOP/bench/preempt-latency.gp")
cat "$res/preempt-latency.txt"
echo "plot: $res/preempt-latency.png (and .svg)"
