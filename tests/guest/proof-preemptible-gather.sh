#!/bin/sh
# description: munmap gather switched out at preemption points, never with them off
#   SERIES row 7 (preemptible mmu_gather). munmap of 1 GiB of
#   populated memory on CPU 0 while a SCHED_FIFO task (cyclictest, 1 ms)
#   wants CPU 0. Under full preemption the unmapping task is switched out
#   inside the gather. Under preempt=none it is still switched out there at
#   the gather's preemption points, and never when tlb_preempt_points is off:
#   the longest stretch without a switch-out, measured from the trace, then
#   covers the whole gather. Both stretches and their ratio are reported
# requires: trace-cmd cyclictest taskset unmap CONFIG_SCHED_DEBUG
#   /sys/kernel/debug/mm/tlb_preempt_points
# debug-ci: skip 1,047 s there (cyclictest around a 1 GiB munmap, three
#   times), and its figures are latencies, which lockdep and KASAN distort
#   rather than check; the gather's paths run there in CI under tp-munmap
#   and fi-tlb-batch
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
model=/sys/kernel/debug/sched/preempt
sw=/sys/kernel/debug/mm/tlb_preempt_points
[ -w $model ] || fail "no $model (CONFIG_SCHED_DEBUG)"
[ -w $sw ] || fail "no $sw (patches/0002)"
trap 'echo full >$model; echo Y >$sw; pkill cyclictest || true' EXIT
trap 'exit 1' TERM INT
mib=${PROOF_GATHER_MIB:-1024}
d=$RES/proof-preemptible-gather
run() { # run NAME MODEL SWITCH
	echo "$2" >$model
	echo "$3" >$sw
	record "$d/$1" sched:sched_switch mmu_gather:mmu_gather_start mmu_gather:mmu_gather_finish \
		mmu_gather:mmu_gather_flush mmu_gather:mmu_gather_resched -- sh -c "
		cyclictest -q -m -t 1 -a 0 -p 90 -i 1000 -D 120 >/dev/null &
		cy=\$!
		sleep 1
		taskset -c 0 unmap --mib $mib >unmap.out; rc=\$?
		kill \$cy 2>/dev/null; wait \$cy; cs=\$?
		[ \$cs -eq 0 ] || [ \$cs -eq 143 ] || { echo \"cyclictest exited \$cs\"; [ \$rc -ne 0 ] || rc=1; }
		cat unmap.out; exit \$rc"
	pid=$(awk '$4 == "unmap" { print $3; exit }' "$d/$1/events.txt")
	[ -n "$pid" ] || fail "$1: no unmap task in the trace"
	awk -v pid="$pid" -f "$(dirname "$0")/lib/stretch.awk" "$d/$1/events.txt" >"$d/$1/stretch"
	echo "$1 ($2, tlb_preempt_points=$3): $(cat "$d/$1/stretch")"
}
get() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$d/$1/stretch"; }
cd /tmp || exit 1
run full full Y
run none-on none Y
run none-off none N
for r in full none-on none-off; do
	[ "$(get $r pages)" -ge $((mib * 256)) ] || fail "$r: the largest gather freed $(get $r pages) pages, want >= $((mib * 256))"
done
[ "$(get full switchouts)" -ge 1 ] || fail "full preemption: never switched out inside the gather"
[ "$(get none-on switchouts)" -ge 1 ] || fail "preempt=none with the points on: never switched out inside the gather"
expect "preempt=none, points off: switch-outs inside the gather" "$(get none-off switchouts)" 0
on=$(get none-on longest) off=$(get none-off longest)
awk -v on="$on" -v off="$off" 'BEGIN { printf "measured: longest stretch without a switch-out under preempt=none: %.3f ms with the preemption points, %.3f ms without, ratio %.1f\n", on * 1e3, off * 1e3, off / on }'
