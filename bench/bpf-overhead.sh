#!/bin/sh
# bpf-overhead.sh: what each bpftrace tool in bpf-scripts/ costs the
# workload it watches, measured in one guest boot with deterministic guest
# time.
#
# MEASURES: a fixed composite workload (forktree, unmap, filemap: forks,
#   anon_vma locks, gathers, i_mmap locks) timed by the guest clock alone
#   and with one tool attached, the two interleaved over ROUNDS rounds;
#   reports each tool's time as a ratio to the runs without a tool beside
#   it, and the events it saw (from mmpreempt.ko's counters, loaded but
#   detached, so it costs nothing).
# NEEDS: make kernel module rootfs workloads. Boots with ICOUNT=1 (TCG,
#   -icount shift=0: one guest nanosecond per instruction; reproducible,
#   not real-hardware latencies), SMP=1, NUMA=1.
# OVERHEAD: one boot, ~10 minutes at ROUNDS=4 (bpftrace start-up dominates).
# Output: results/bench/bpf-overhead.txt
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ROUNDS=${ROUNDS:-4}
ICOUNT=1 SMP=1 NUMA=1 MEM=${MEM:-1024} QUIET=1 TIMEOUT=${TIMEOUT:-1800} "$TOP/guest/run.sh" -r "$res" -- "
ROUNDS=$ROUNDS sh /mnt/repo/bench/bpf-overhead-guest.sh >/mnt/results/bpf-overhead.txt 2>&1"
cat "$res/bpf-overhead.txt"
