#!/bin/sh
# workload-cost.sh: what each way of watching these locks costs the
# workload it watches, and what LOCK_STAT costs on the same workloads.
#
# MEASURES: forktree, unmap and mix (workloads, static, run from
#   tmpfs) timed by benchtime (CLOCK_MONOTONIC around fork+exec+wait, in a
#   static binary: no host I/O in the timed part, and a run in which the CPU
#   idled is discarded and rerun, so every figure counts instructions, not
#   timer ticks), RUNS runs per attach, ROUNDS rounds of every tool in turn:
#   none; mmpreempt.ko timed and counting; trace-cmd record of the four
#   event systems (the ftrace ring buffer and its reader); the hold-time
#   histogram from ftrace hist triggers (recipes/); perf lock record (the
#   kernel's lock:contention tracepoints; Debian's perf has no -b); each
#   bpftrace tool of bpf-scripts/ (bt:NAME; anon_vma_lat.bt computes the
#   module's histograms). Then, in a boot
#   of the lockstat kernel (VARIANT=lockstat: the same config with
#   CONFIG_LOCK_STAT), none (lock_stat=0) and lockstat (lock_stat=1).
#   Reports per workload and tool the median ms with its min-max, the cost
#   in percent against none on the same kernel, and for LOCK_STAT also
#   against the normal kernel's none (its whole price: lockdep included),
#   and that as a multiple of mmpreempt.ko timed's cost.
# NEEDS: make guest, and the lockstat kernel (built here if missing, about
#   30 CPU-minutes cold: LOCKDEP changes every lock). Boots with ICOUNT=1
#   (one guest ns per instruction: reproducible to about 0.1 %, not
#   real-hardware latencies), SMP=1, two NUMA nodes (the second memory only).
#   KERNELS=normal: the normal kernel's boot only (no lockstat kernel is
#   built or booted; the table then has no LOCK_STAT rows).
# OVERHEAD: two boots, about 15 minutes at ROUNDS=2 (bpftrace's start-up
#   and trace-cmd report dominate); SMOKE=1: the normal kernel, one round,
#   one run, forktree only (what make test runs).
# Output: results/bench/workload-cost.txt (and .raw, and .stamp: what it
#   ran on); the table goes to bench/RESULTS.md (bench/summary.sh).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "workload-cost.sh (settings in the environment: ROUNDS RUNS WORKLOADS KERNELS SMOKE MEM TIMEOUT)" 0 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ROUNDS=${ROUNDS:-2} RUNS=${RUNS:-3}
kernels=${KERNELS:-normal lockstat} WORKLOADS=${WORKLOADS:-forktree unmap mix}
case $kernels in
"normal lockstat" | normal) ;;
*) echo "workload-cost: KERNELS='$kernels': want 'normal lockstat' or normal (every cost's baseline)" >&2; exit 2 ;;
esac
[ "${SMOKE:-0}" = 1 ] && { kernels=normal ROUNDS=1 RUNS=1 WORKLOADS=forktree; }
: >"$res/workload-cost.raw"
for k in $kernels; do
	if [ "$k" = lockstat ]; then
		mkdir -p "${CACHE:-$HOME/.cache/mmpreempt}"
		flock "${CACHE:-$HOME/.cache/mmpreempt}/.kernel.lock" env VARIANT=lockstat "$TOP/guest/kernel.sh" >/dev/null
	fi
	VARIANT=$k ICOUNT=1 SMP=1 NUMA=2 MEM=${MEM:-1024} QUIET=1 TIMEOUT=${TIMEOUT:-3600} \
		"$TOP/guest/run.sh" -r "$res/workload-cost-$k" -- "
STRICT=1 ROUNDS=$ROUNDS RUNS=$RUNS WORKLOADS='$WORKLOADS' sh /mnt/repo/bench/workload-cost-guest.sh >/mnt/results/workload-cost.txt 2>&1"
	sed "s/^/$k /" "$res/workload-cost-$k/workload-cost.txt" >>"$res/workload-cost.raw"
	runs="${runs:-} $res/workload-cost-$k"
done
# shellcheck disable=SC2086 # the run folders, one word each
"$TOP/bench/stamp.sh" "$res" workload-cost $runs
"$TOP/bench/workload-cost-table.sh" "$res/workload-cost.raw" >"$res/workload-cost.txt"
cat "$res/workload-cost.txt"
