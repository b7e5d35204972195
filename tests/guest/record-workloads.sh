#!/bin/sh
# description: each workload recorded as make record does exits 0 with a trace.dat
#   each workload, recorded the way `make record` records it
#   (record/record-guest.sh: trace-cmd of the four mmpreempt systems plus
#   sched_switch/sched_wakeup, mmpreempt.ko over the same window), exits 0
#   and leaves a trace.dat and the module's stats; the host check
#   report-workloads then runs mmreport on each. One recording is of
#   contend (lock_hold.ko): two anon_vma write acquisitions made to wait
#   behind a holder, so mmreport's wait check has waits to check in every
#   run, not only when the other workloads happen to contend under TCG
# requires: mmpreempt.ko lock_hold.ko trace-cmd forktree unmap filemap migrate alllocks mix contend
# debug-ci: skip the make record pipeline (trace-cmd, module, bpftrace)
#   over every workload again; the workloads' kernel paths run there in
#   CI under tp-*, mod-* and proof-*
# timeout: 400
. "$(dirname "$0")/lib/common.sh"
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
bad=0
while read -r w args; do
	if [ "$w" = ksm ] && [ ! -e /sys/kernel/mm/ksm/run ]; then
		echo "skipped: ksm (no KSM in this kernel)"
		continue
	fi
	out=$RES/record/$w
	rm -rf "$out"
	mkdir -p "$out"
	printf '%s\n%s\n%s\n%s\n' "$w" "$args" \
		"anon_vma i_mmap mmu_gather mm_all_locks sched:sched_switch sched:sched_wakeup" "" \
		>"$out/record.args"
	if OUT=$out sh "$REPO/record/record-guest.sh" >"$out/record.log" 2>&1; then
		echo "ok: $w $args: exit 0, $(wc -c <"$out/trace.dat") bytes of trace"
	else
		echo "FAIL: $w $args:"
		tail -n 15 "$out/record.log"
		bad=1
	fi
done <<'LIST'
forktree --depth 3 --width 2 --mib 2
unmap --mib 64 --repeat 2
filemap --procs 4 --pages 128 --rounds 2
ksm --pages 64
migrate --pages 256 --rounds 2
alllocks --roots 300 --files 30 --module
mix
contend --lock anon_vma --mode write --waiters 2 --hold-ms 500
LIST
[ $bad -eq 0 ] || fail "a workload or its recording failed"
