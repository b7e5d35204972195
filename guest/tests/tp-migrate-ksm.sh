#!/bin/sh
# description: page migration pins anon_vmas with folio_get_anon_vma (one get
#   and one put per migrated page; its exit drops its own), and KSM's merged pages take references
#   from ksmd that are all dropped, and their anon_vmas freed, once KSM
#   unmerges after the process exited
# requires: trace-cmd, migrate, ksm, 2 NUMA nodes, CONFIG_KSM
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
[ -d /sys/devices/system/node/node1 ] || skip "the guest has one NUMA node"
d=$RES/tp-migrate-ksm
# on CPU 0 (node 0): first touch puts the pages on node 0, so both rounds move
record "$d" anon_vma -- sh -c 'taskset -c 0 migrate --pages 256 --rounds 2 && ksm --pages 64'
cat "$d/record.log" | grep -E '^(migrate|ksm):'
awk '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$4 == "migrate" && $5 == "anon_vma_get" { mg++ }
$4 == "migrate" && $5 == "anon_vma_put" { mp++ }
$4 == "ksmd" && $5 == "anon_vma_get" { kg++; ksm[f["anon_vma"]] = NR; if (!(f["root"] in kroot)) kroot[f["root"]] = NR }
$5 == "anon_vma_free" { freed[f["anon_vma"]] = NR }
END {
	printf "ok: migrate took %d and dropped %d anon_vma references; ksmd took %d\n", mg, mp, kg
	if (mg < 512) { print "FAIL: " mg " gets by migrate, want >= 512 (256 pages x 2 rounds)"; bad = 1 }
	# its own exit drops the references of its anon_vmas too
	if (mp < mg) { print "FAIL: migrate took " mg " references and dropped only " mp; bad = 1 }
	if (kg < 1) { print "FAIL: ksmd took no anon_vma reference"; bad = 1 }
	for (x in ksm) if (!(x in freed) || freed[x] < ksm[x]) { print "FAIL: " x " referenced by ksmd was not freed after"; bad = 1 }
	for (x in kroot) if (!(x in freed) || freed[x] < kroot[x]) { print "FAIL: root " x " of a ksmd reference was not freed after"; bad = 1 }
	exit bad
}' "$d/events.txt"
