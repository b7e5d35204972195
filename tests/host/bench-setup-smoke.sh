#!/bin/sh
# description: setup-cost.sh smoke run: fresh clone deps and demo, a figure per step
#   bench/setup-cost.sh in its smoke mode (SMOKE=1): a fresh
#   clone of HEAD runs make deps and make demo with this machine's warm
#   cache, and the table it writes has a number for every step it can
#   measure there: deps, the demo's wall and CPU seconds, the cached
#   kernel's build time; no figure is compared with a goal
#   (they are warm ones, and the table says so)
# requires: git cache:kernel/current/bzImage
# overhead: a third guest boot (~80 s under TCG)
. "$TOP/tests/guest/lib/common.sh"
out=$TOP/results/bench/setup-cost.smoke.txt
rm -f "$out"
SMOKE=1 SCRATCH=$RES/setup-smoke "$TOP/bench/setup-cost.sh" >"$RES/setup-smoke.log" 2>&1 ||
	{ tail -n 30 "$RES/setup-smoke.log"; fail "bench/setup-cost.sh SMOKE=1 failed"; }
cat "$out"
# every figure, boot_to_init_guest too: it is read from the clone's own
# results/demo, which proves the clone's make demo wrote there (it once came
# out empty: the clone's scripts had inherited this run's TOP)
for s in deps first_trace_cold first_trace_cold_cpu kernel_cold demo_warm boot_to_init_guest; do
	awk -v s="$s" '$1 == s && $2 ~ /^[0-9.]+$/ { f = 1 } END { exit !f }' "$out" ||
		fail "setup-cost.smoke.txt: no figure for $s"
done
grep -q '^# SMOKE=1: the cache was' "$out" || fail "setup-cost.smoke.txt does not say its figures are warm"
[ ! -d "$RES/setup-smoke" ] || fail "setup-cost.sh left its scratch clone behind"
echo "ok: setup-cost.sh's steps ran and its table has every figure"
