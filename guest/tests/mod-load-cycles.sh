#!/bin/sh
# description: 100 insmod/rmmod cycles on CPU 0 while fork and munmap
#   workloads fire every event system on CPU 1: no splat on the console
#   (the runner checks), every cycle loads and unloads, the workload ran
#   (and succeeded) all along the cycles, and the counters move afterwards.
#   TCG runs the vCPUs on one host thread (guest/run.sh): with several, a
#   vCPU running through a static key being patched was seen to livelock
# requires: mmpreempt.ko, forktree, unmap, taskset, 2 CPUs
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
unload_module
cd /tmp
rm -f /tmp/stop-load /tmp/load-rounds /tmp/load-failed
(n=0
while [ ! -e /tmp/stop-load ]; do
	taskset -c 1 forktree --depth 2 --width 2 >/dev/null &&
		taskset -c 1 unmap --mib 8 >/dev/null || { echo "round $n" >/tmp/load-failed; break; }
	n=$((n + 1))
	echo $n >/tmp/load-rounds
done) &
bg=$!
trap 'touch /tmp/stop-load; wait $bg' EXIT
rounds() { cat /tmp/load-rounds 2>/dev/null || echo 0; }
before=$(rounds)
i=0
while [ $i -lt 100 ]; do
	taskset -c 0 insmod "$MOD" || fail "insmod failed at cycle $i"
	[ $((i % 10)) -eq 0 ] && cat $DBG/stats >/dev/null
	taskset -c 0 rmmod mmpreempt || fail "rmmod failed at cycle $i"
	i=$((i + 1))
done
after=$(rounds)
[ ! -e /tmp/load-failed ] || fail "the workload failed in $(cat /tmp/load-failed)"
echo "ok: $i load/unload cycles on CPU 0, $((after - before)) workload rounds on CPU 1 meanwhile"
[ $((after - before)) -ge 2 ] || fail "only $((after - before)) workload rounds ran during the cycles: nothing fired"
load_module
unmap --mib 4 >/dev/null
p=$(stat_of mmu_gather.pages)
[ "$p" -ge 1024 ] || fail "after the cycles, mmu_gather.pages = $p"
unload_module
echo "ok: counters move after the cycles ($p pages)"
