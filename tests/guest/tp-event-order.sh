#!/bin/sh
# description: mmu_gather_finish fullmm/nested are right; resched only at taken points
#   each mmu_gather event says what happened: mmu_gather_finish
#   reports fullmm as its gather was started, and nested=true where a
#   concurrent gather on the mm forced a full flush (threads of one process
#   zapping with MADV_DONTNEED at once: at least one such gather required,
#   and every finish agrees with its start); mmu_gather_resched fires only
#   where the
#   preemption point is taken: none while tlb_preempt_points is off, one per
#   512-page chunk while it is on
# requires: trace-cmd unmap /sys/kernel/debug/mm/tlb_preempt_points
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
sw=/sys/kernel/debug/mm/tlb_preempt_points
[ -w $sw ] || fail "no $sw (patches/0002)"
trap 'echo Y >$sw' EXIT
d=$RES/tp-event-order
cd /tmp || exit 1

record "$d/nested" mmu_gather:mmu_gather_start mmu_gather:mmu_gather_finish -- \
	unmap --mib 16 --threads 4 --repeat 4 --dontneed
# Pairs by (pid, tlb): the gather lives on its task's stack.
events_awk '
$4 != "unmap" { next }
{ k = $3 " " f["tlb"] }
$5 == "mmu_gather_start" { full[k] = f["fullmm"]; open_[k] = 1; next }
$5 == "mmu_gather_finish" && (k in open_) {
	n++; delete open_[k]
	if (f["fullmm"] != full[k]) { print "FAIL: started fullmm=" full[k] ", finished fullmm=" f["fullmm"] ": " $0; bad = 1 }
	if (!("nested" in f)) { print "FAIL: mmu_gather_finish has no nested field: " $0; bad = 1 }
	if (f["nested"] == "true") nested++
}
END {
	printf "ok: %d gathers of the threads, %d finished nested (a full flush forced by a concurrent gather)\n", n, nested
	if (n < 16) { print "FAIL: " n + 0 " gathers: the workload did not run"; bad = 1 }
	if (nested < 1) { print "FAIL: no nested gather: the fullmm check was not exercised"; bad = 1 }
	exit bad
}' "$d/nested/events.txt"

for s in N Y; do
	echo $s >$sw
	record "$d/points-$s" mmu_gather:mmu_gather_resched mmu_gather:mmu_gather_flush -- unmap --mib 8
	pts=$(count "$d/points-$s/events.txt" mmu_gather_resched '$4 == "unmap"')
	pages=$(awk '$4 == "unmap" && $5 == "mmu_gather_flush" { for (i = 6; i <= NF; i++) if ($i ~ /^pages=/) p += substr($i, 7) } END { print p + 0 }' \
		"$d/points-$s/events.txt")
	echo "tlb_preempt_points=$s: $pts preemption points for $pages pages flushed"
	[ "$pages" -ge 2048 ] || fail "points=$s: $pages pages flushed, want >= 2048 (8 MiB)"
	if [ $s = N ]; then
		expect "points off: mmu_gather_resched events" "$pts" 0
	else
		[ "$pts" -ge $((pages / 512)) ] || fail "points on: $pts preemption points for $pages pages, want >= $((pages / 512))"
	fi
done
