#!/bin/sh
# description: bench guest scripts and hold-hist recipe run in smoke mode, tables full
#   the benchmarks' guest halves and the hist-trigger recipe run
#   in a short smoke mode, so that they keep working; no timing asserted.
#   bench/module-cost-guest.sh (1 round of 2,000 event triples per
#   configuration, bpftrace included) and bench/root-contention-guest.sh (1
#   round of 50 split+merge pairs) exit 0 (each checks its tracers counted
#   what was fired) and print every row of their tables with numbers;
#   bench/off-cost-guest.sh (1 round of 2 operations a path) times all 16
#   paths of its matrix (this guest has two NUMA nodes and test_hmm; the
#   KSM paths where the kernel has KSM, swapout where it has zram; each
#   path fails if it did not do its work: pages merged, swapped out);
#   bench/workload-cost-guest.sh (1 round, 1 run of forktree) times it
#   under every tracer (none, the module timed and counting, trace-cmd,
#   hist triggers, perf lock, each bpftrace tool), and the module, trace-cmd
#   and the hist triggers each saw some of its events (a tracer that does
#   not exit within 60 s of SIGINT is killed, its task states and kernel
#   stacks go to the log, and a "measured:" line counts them: bpftrace was
#   seen stuck so twice in eight runs, cause not yet known);
#   bench/preempt-latency-guest.sh (8 MiB, 20 roots) gives a max and a p99
#   for each of its 18 cases and puts the preemption model and
#   tlb_preempt_points back;
#   recipes/anon_vma_hold_hist.sh around a fork tree prints a histogram of
#   write-mode holds with nothing dropped, and leaves no trigger
#   and no synthetic event behind. (The host test bench-summary turns these
#   tables into markdown and JSON.)
# requires: mmpreempt.ko event_bench.ko test_hmm.ko bpftrace trace-cmd perf
#   cyclictest taskset benchtime rootstorm mmops forktree unmap alllocks
#   CONFIG_SCHED_DEBUG
# debug-ci: skip benchmarks run on the normal kernel only
# timeout: 600
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
T=/sys/kernel/tracing
unload_module
cd /tmp || exit 1
# rows: a name, then numbers only
rows() { awk -v want="$2" -v f="$1" '
	$1 == "configuration" { t = 1; next }
	t && NF >= 2 && $NF ~ /^[0-9.-]+$/ { n++ }
	END { if (n < want) { printf "%s: %d rows with numbers, want %d\n", f, n, want; exit 1 } }' "$1"; }
ROUNDS=1 N=2000 sh /mnt/repo/bench/module-cost-guest.sh >"$RES/bench-module-cost.txt" 2>&1 ||
	{ cat "$RES/bench-module-cost.txt"; fail "bench/module-cost-guest.sh failed"; }
cat "$RES/bench-module-cost.txt"
rows "$RES/bench-module-cost.txt" 9 || fail "module-cost: table incomplete"
ROUNDS=1 OPS=50 OTHER='' sh /mnt/repo/bench/root-contention-guest.sh >"$RES/bench-root-contention.txt" 2>&1 ||
	{ cat "$RES/bench-root-contention.txt"; fail "bench/root-contention-guest.sh failed"; }
cat "$RES/bench-root-contention.txt"
rows "$RES/bench-root-contention.txt" 3 || fail "root-contention: table incomplete"
ROUNDS=1 SMOKE=1 sh /mnt/repo/bench/off-cost-guest.sh \
	>"$RES/bench-off-cost.txt" 2>&1 || { cat "$RES/bench-off-cost.txt"; fail "bench/off-cost-guest.sh failed"; }
cat "$RES/bench-off-cost.txt"
# every path this kernel can run: KSM's with CONFIG_KSM, swapout with zram
want="fork fault file migrate page forkvmas split mremap filepage collapse pageout notifier dontneed"
[ ! -e /sys/kernel/mm/ksm/run ] || want="$want ksmmerge ksmunmerge"
[ ! -e /sys/block/zram0 ] || want="$want swapout"
for p in $want; do
	awk -v p="$p" '$2 == p && $3 ~ /^[0-9.]+$/ && $3 > 0 && $4 ~ /^[0-9.]+$/ && $4 > 0 { f = 1 }
		END { exit !f }' "$RES/bench-off-cost.txt" ||
		fail "off-cost: no median and mean time for the $p path"
done
ROUNDS=1 RUNS=1 WORKLOADS=forktree sh /mnt/repo/bench/workload-cost-guest.sh >"$RES/bench-workload-cost.raw" 2>&1 ||
	{ cat "$RES/bench-workload-cost.raw"; fail "bench/workload-cost-guest.sh failed"; }
cat "$RES/bench-workload-cost.raw"
# a tracer that did not exit on SIGINT is killed and named there, stacks and
# all (bench/workload-cost-guest.sh stop_tool); counted here, not failed
echo "measured: tracers killed after 60 s without exiting on SIGINT: $(grep -c 'did not exit within 60 s of SIGINT' "$RES/bench-workload-cost.raw" || :)"
want="none timed counting ringbuf hist perflock $(cd /mnt/repo/bpf-scripts && ls *.bt | sed 's/^/bt:/; s/\.bt$//' | tr '\n' ' ')"
expect "workload-cost: tools" "$(awk '$1 == "runs_per_attach" { $1 = $2 = $3 = $4 = $5 = ""; print }' "$RES/bench-workload-cost.raw" | xargs)" "$(echo $want)"
for t in $want; do
	awk -v t="$t" '$1 == "run" && $2 == t && $3 == "forktree" && $4 > 0 { f = 1 } END { exit !f }' "$RES/bench-workload-cost.raw" ||
		fail "workload-cost: no timed run of forktree under $t"
done
for t in timed counting ringbuf hist; do
	awk -v t="$t" '$1 == "tool" && $2 == t && $4 > 0 { f = 1 } END { exit !f }' "$RES/bench-workload-cost.raw" ||
		fail "workload-cost: $t saw nothing of forktree"
done
MIB=8 ROOTS=20 sh /mnt/repo/bench/preempt-latency-guest.sh >"$RES/bench-preempt-latency.txt" 2>&1 ||
	{ cat "$RES/bench-preempt-latency.txt"; fail "bench/preempt-latency-guest.sh failed"; }
cat "$RES/bench-preempt-latency.txt"
expect "preempt-latency: cases with a max and a p99" \
	"$(awk '$1 ~ /^(none|voluntary|full)$/ && $4 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' "$RES/bench-preempt-latency.txt")" 18
expect "preemption model afterwards" "$(cat /sys/kernel/debug/sched/preempt | grep -o '([a-z]*)')" "(full)"
expect "tlb_preempt_points afterwards" "$(cat /sys/kernel/debug/mm/tlb_preempt_points)" Y
sh /mnt/repo/recipes/anon_vma_hold_hist.sh -- forktree --depth 2 --width 2 >"$RES/recipe-hold-hist.txt" 2>&1 ||
	{ cat "$RES/recipe-hold-hist.txt"; fail "recipes/anon_vma_hold_hist.sh failed"; }
cat "$RES/recipe-hold-hist.txt"
hits=$(awk '$1 == "Hits:" { print $2 }' "$RES/recipe-hold-hist.txt")
[ "${hits:-0}" -gt 0 ] || fail "the recipe's histogram has no hits"
grep -q '^{ write:  *1, hold_ns: ~ 2^' "$RES/recipe-hold-hist.txt" || fail "no write-mode log2 bucket in the recipe's histogram"
expect "holds the recipe dropped" "$(awk '$1 == "Dropped:" { print $2 }' "$RES/recipe-hold-hist.txt")" 0
grep -q anon_vma_hold $T/synthetic_events && fail "the recipe left its synthetic event behind"
for e in anon_vma_lock_acquired anon_vma_lock_released; do
	grep -v '^#' $T/events/anon_vma/$e/trigger | grep -q . && fail "the recipe left a trigger on $e"
done
echo "ok: benchmarks and recipe ran: $hits holds in the recipe's histogram"
