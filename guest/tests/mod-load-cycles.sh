#!/bin/sh
# description: 100 insmod/rmmod cycles while fork and munmap workloads run:
#   no splat on the console (the runner checks), every cycle loads and
#   unloads, and counters are sane afterwards. Workload and cycles share
#   CPU 0: under TCG, patching a static key (text_poke_bp) while another
#   vCPU runs through the patched sites was seen to livelock that vCPU in
#   int3 (anon_vma_clone during fork); on one CPU the patching still races
#   the workload at every preemption, without that emulator hazard
# requires: mmpreempt.ko, forktree, unmap, taskset
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module
cd /tmp
(while [ ! -e /tmp/stop-load ]; do
	taskset -c 0 forktree --depth 2 --width 2 >/dev/null
	taskset -c 0 unmap --mib 8 >/dev/null
done) &
bg=$!
trap 'touch /tmp/stop-load; wait $bg' EXIT
i=0
while [ $i -lt 100 ]; do
	taskset -c 0 insmod "$MOD" || fail "insmod failed at cycle $i"
	[ $((i % 10)) -eq 0 ] && cat $DBG/stats >/dev/null
	taskset -c 0 rmmod mmpreempt || fail "rmmod failed at cycle $i"
	i=$((i + 1))
done
echo "ok: $i load/unload cycles"
load_module
unmap --mib 4 >/dev/null
p=$(stat_of mmu_gather.pages)
[ "$p" -ge 1024 ] || fail "after the cycles, mmu_gather.pages = $p"
unload_module
echo "ok: counters move after the cycles ($p pages)"
