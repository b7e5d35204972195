#!/bin/sh
# description: migration does one anon_vma get/put per page; ksmd refs all dropped
#   page migration pins anon_vmas with folio_get_anon_vma: exactly
#   one get and one put per migrated page (256 pages x 2 rounds, the count
#   migrate reports), each put back to a live refcount; its two rmap walks
#   per page (unmap, then remove the migration entries) take the root's
#   read lock traced, each acquisition released by migrate itself on the
#   same root, none released unheld or left held; and its exit drops
#   its own (one put to 0 and one free per anon_vma it allocated); KSM's
#   merged pages take references from ksmd that are all dropped, and their
#   anon_vmas freed, once KSM unmerges after the process exited. The
#   migrate process is told by its exec event, not by the comm trace-cmd
#   shows (the last one of the pid: its shell and taskset past included)
# requires: trace-cmd migrate ksm nodes=2 CONFIG_KSM
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_ksm
[ -d /sys/devices/system/node/node1 ] || skip "the guest has one NUMA node"
d=$RES/tp-migrate-ksm
# on CPU 0 (node 0): first touch puts the pages on node 0, so both rounds move
record "$d" anon_vma sched:sched_process_exec -- \
	sh -c 'taskset -c 0 migrate --pages 256 --rounds 2 && ksm --pages 64'
grep -E '^(migrate|ksm):' "$d/record.log"
moved=$(sed -n 's/^migrate: round [0-9]*: \([0-9]*\) of [0-9]* pages.*/\1/p' "$d/record.log" |
	awk '{ s += $1 } END { print s + 0 }')
expect "pages migrate reports moved (256 x 2 rounds)" "$moved" 512
events_awk -v moved="$moved" '
{ x = f["anon_vma"] "" }
# who allocated each live anon_vma: an exec sets up the new mm (its stack,
# its bss) before its exec event, so the new mm has anon_vmas born earlier
$5 == "anon_vma_alloc" { owner[x] = $3; if (mpid != "" && $3 == mpid) { mine[x] = 1; ma++ } }
$5 == "sched_process_exec" && f["filename"] ~ /\/migrate$/ {
	mpid = $3; execs++
	for (y in owner) if (owner[y] == mpid) { mine[y] = 1; ma++ }
	next
}
mpid != "" && $3 == mpid {
	if ($5 == "anon_vma_get") mg++
	if ($5 == "anon_vma_put") { if (f["refcount"] + 0 > 0) mp++; else mz++ }
	if ($5 == "anon_vma_free") { mf++; if (x in mine) delete mine[x]; else { print "FAIL: migrate freed " x ", not of its mm"; bad = 1 } }
}
# read locks of migrate paired by root (its rmap walks take no write lock)
mpid != "" && $3 == mpid && f["write"] == "false" {
	r = f["root"]
	if ($5 == "anon_vma_lock_acquired" && f["success"] == "true") { held[r]++; ra++ }
	if ($5 == "anon_vma_lock_released") {
		if (held[r] > 0) { held[r]--; rr++ }
		else { print "FAIL: migrate released a read lock of root " r " it did not hold"; bad = 1 }
	}
}
$5 == "anon_vma_free" { delete owner[x]; freed[x] = NR }
$4 == "ksmd" && $5 == "anon_vma_get" { kg++; ksm[x] = NR; if (!(f["root"] in kroot)) kroot[f["root"]] = NR }
END {
	printf "ok: migrate took %d and dropped %d anon_vma references for %d pages moved; its exit put %d to 0 and freed %d of the %d of its mm; ksmd took %d\n", mg, mp, moved, mz, mf, ma, kg
	if (execs != 1) { print "FAIL: " execs + 0 " execs of migrate in the trace, want 1"; bad = 1 }
	if (mg != moved) { print "FAIL: " mg + 0 " gets by migrate, want one per page moved: " moved; bad = 1 }
	printf "ok: migrate took %d anon_vma read locks and released %d\n", ra, rr
	if (ra < 2 * moved) { print "FAIL: " ra + 0 " anon_vma read locks by migrate, want 2 per page moved: " 2 * moved; bad = 1 }
	for (r in held) if (held[r]) { print "FAIL: migrate left " held[r] " read locks of root " r " unreleased"; bad = 1 }
	if (mp != mg) { print "FAIL: " mp + 0 " puts to a live refcount by migrate for " mg + 0 " gets, want one each"; bad = 1 }
	if (ma < 1 || mz != ma || mf != ma) { print "FAIL: migrate had " ma + 0 " anon_vmas, its exit put " mz + 0 " to 0 and freed " mf + 0 ": want all of them"; bad = 1 }
	for (y in mine) { print "FAIL: " y " of the migrate mm was never freed by its exit"; bad = 1 }
	if (kg < 1) { print "FAIL: ksmd took no anon_vma reference"; bad = 1 }
	for (y in ksm) if (!(y in freed) || freed[y] < ksm[y]) { print "FAIL: " y " referenced by ksmd was not freed after"; bad = 1 }
	for (y in kroot) if (!(y in freed) || freed[y] < kroot[y]) { print "FAIL: root " y " of a ksmd reference was not freed after"; bad = 1 }
	exit bad
}' "$d/events.txt"
