#!/bin/sh
# description: SERIES rows 4-6 (put_anon_vma, refcount for all, refcount 0
#   means free). move_pages races with exiting children: no get or put ever
#   follows a free, every free follows a put to 0, and a failed inc-not-zero
#   (anon_vma_get_failed) only meets an anon_vma that had reached 0. How
#   many races the reader lost is reported as measured
# requires: trace-cmd, migrate, 2 NUMA nodes
# timeout: 240
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
[ -d /sys/devices/system/node/node1 ] || skip "the guest has one NUMA node"
d=$RES/proof-refcount
record "$d" anon_vma:anon_vma_alloc anon_vma:anon_vma_get anon_vma:anon_vma_put \
	anon_vma:anon_vma_get_failed anon_vma:anon_vma_free -- migrate --race 300 --pages 32
grep '^migrate:' "$d/record.log"
awk '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
{ x = f["anon_vma"]; v = f["refcount"] + 0 }
$5 == "anon_vma_alloc" { live[x] = 1; zero[x] = 0; delete dead[x]; next }
$5 == "anon_vma_get_failed" {
	failed++
	if (v != 0) { print "FAIL: get_failed with refcount " v; bad = 1 }
	if (!(x in dead) && !zero[x] && (x in live)) { print "FAIL: get_failed on live " x " before any put to 0"; bad = 1 }
	next
}
(x in dead) && ($5 == "anon_vma_get" || $5 == "anon_vma_put") { print "FAIL: " $5 " after free: " $0; bad = 1 }
$5 == "anon_vma_put" && v == 0 { zero[x] = 1 }
$5 == "anon_vma_get" && (x in live) { gets++ }
$5 == "anon_vma_free" {
	if ((x in live) && !zero[x]) { print "FAIL: " x " freed without a put to 0"; bad = 1 }
	frees++; delete live[x]; dead[x] = 1
}
END {
	printf "measured: %d gets, %d frees, %d failed inc-not-zero (races lost by the reader) in 300 races\n", gets, frees, failed
	if (frees < 300) { print "FAIL: " frees " frees: the children did not run"; bad = 1 }
	exit bad
}' "$d/events.txt"
