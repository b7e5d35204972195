#!/bin/sh
# description: every workload run twice at once, one per CPU, exits 0 in bound
#   each workload a user records (forktree, unmap, filemap, ksm, migrate,
#   alllocks, mix), started twice at the same time with the same arguments,
#   one instance pinned to each CPU: both must exit 0 within 120 s. Two
#   filemap runs once shared their default file: one truncated it under
#   the other's children, a child died with SIGBUS before it reported ready
#   and its parent blocked in read() until the guest's 15-minute timeout.
#   Each run's status and output are kept in RES/workloads-twice/.
#   ksm and migrate are left out, saying why, where the kernel has no KSM
#   or one NUMA node (as mix leaves them out). 6 to 15 s under TCG.
# requires: mmpreempt.ko test_hmm.ko forktree unmap filemap ksm migrate
#   alllocks mix taskset timeout cpus=2
# debug-ci: skip the workloads' own pipes and files are under test, not
#   the kernel: the normal kernel's run shows them
# timeout: 400
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/hmm.sh"
load_module	# alllocks --module and mix's alllocks take their locks through it
load_test_hmm
d=$RES/workloads-twice
rm -rf "$d"
mkdir -p "$d"
cd /tmp || exit 1
bad=0 ran=0
while read -r w args; do
	if [ "$w" = ksm ] && [ ! -e /sys/kernel/mm/ksm/run ]; then
		echo "left out: ksm (no KSM in this kernel)"
		continue
	fi
	if [ "$w" = migrate ] && [ ! -e /sys/devices/system/node/node1 ]; then
		echo "left out: migrate (one NUMA node: nothing to migrate to)"
		continue
	fi
	for cpu in 0 1; do
		# shellcheck disable=SC2086 # args are words
		# "|| rc=": set -e would end the subshell before it says
		(rc=0
			taskset -c $cpu timeout 120 "$w" $args >"$d/$w.$cpu.out" 2>&1 || rc=$?
			echo $rc >"$d/$w.$cpu.rc") &
	done
	wait
	for cpu in 0 1; do
		rc=$(cat "$d/$w.$cpu.rc")
		if [ "$rc" = 0 ]; then
			echo "ok: $w $args on CPU $cpu beside its twin: exit 0"
		else
			[ "$rc" = 124 ] && rc="124: still running after 120 s"
			echo "FAIL: $w $args on CPU $cpu beside its twin: exit $rc"
			tail -n 5 "$d/$w.$cpu.out"
			bad=1
		fi
	done
	ran=$((ran + 1))
done <<'LIST'
forktree --depth 3 --width 2 --mib 2
unmap --mib 32 --repeat 2
filemap --procs 4 --pages 128 --rounds 20
ksm --pages 64
migrate --pages 128 --rounds 2
alllocks --roots 100 --files 10 --module
mix
LIST
[ $ran -ge 5 ] || fail "only $ran workloads ran twice"
[ $bad -eq 0 ] || fail "a workload failed or hung beside its twin"
echo "ok: $ran workloads ran twice at once"
