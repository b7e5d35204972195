#!/bin/sh
# root-contention.sh: what mmpreempt.ko costs when two CPUs hammer the lock
# of one root anon_vma: the cross-CPU cost (shared cache lines, locked
# instructions) that the instruction counts of module-cost.sh cannot show.
#
# MEASURES: rootstorm (workloads: 2 processes, one per vCPU, split and
#   merge a VMA under one root anon_vma, OPS pairs each) timed by the guest
#   clock with the events off, with mmpreempt.ko in each mode (timed,
#   counting) and, if OLD_KO names one, with another build of the module
#   (e.g. an older commit's) beside it; interleaved over ROUNDS rounds.
#   Reports per configuration the median us per pair and its spread, and the
#   median of the per-round ratios to the run with the events off.
# NEEDS: make kernel module rootfs workloads; 2 host cores. Boots plain TCG
#   with SMP=2, both vCPUs on one host thread as every guest of the kit
#   (guest/run.sh: multi-threaded TCG was seen to livelock in text_poke_bp);
#   TCG_THREAD=multi gives each vCPU a host thread of its own, so that the
#   shared lines move between host cores. Wall-clock ratios within one boot,
#   not real-hardware latencies; their spread is printed beside them.
# OVERHEAD: one boot, under a minute at ROUNDS=7 OPS=2000.
# Output: results/bench/root-contention.txt (and .stamp: what it ran on);
#   the table goes to bench/RESULTS.md (bench/summary.sh).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "root-contention.sh (settings in the environment)" 0 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ROUNDS=${ROUNDS:-7} OPS=${OPS:-2000}
old=
if [ -n "${OLD_KO:-}" ]; then
	[ -f "$OLD_KO" ] || { echo "root-contention: OLD_KO=$OLD_KO: no such file" >&2; exit 2; }
	cp "$OLD_KO" "$TOP/build/mmpreempt-other.ko"
	old=/mnt/art/mmpreempt-other.ko
fi
SMP=2 NUMA=1 MEM=${MEM:-1024} QUIET=1 "$TOP/guest/run.sh" -r "$res" -- "
ROUNDS=$ROUNDS OPS=$OPS OTHER='$old' sh /mnt/repo/bench/root-contention-guest.sh >/mnt/results/root-contention.txt 2>&1"
"$TOP/bench/stamp.sh" "$res" root-contention "$res"
cat "$res/root-contention.txt"
