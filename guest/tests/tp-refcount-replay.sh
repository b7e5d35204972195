#!/bin/sh
# description: replay of every anon_vma life born in a fork, migration and
#   KSM run: refcounts never below 0; a life that is freed had exactly one
#   put to 0, its free follows it, and gets and puts balance (1 + gets =
#   puts, counting puts traced late); a root is freed after every anon_vma
#   of its tree; no get and no put to 0 comes after a free
# requires: trace-cmd, forktree, migrate, ksm
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-refcount-replay
wl='forktree --depth 2 --width 3 && ksm --pages 32'
[ -d /sys/devices/system/node/node1 ] && wl="$wl && migrate --pages 128 --rounds 2"
record "$d" anon_vma -- sh -c "$wl"
# A life is checked when the next life at its address begins, or at the end:
# a put may be traced after the free it preceded (its event follows its
# atomic decrement, and another CPU may free the object in between), so it
# still belongs to the dead life as long as it did not reach 0.
# Pointers compare as strings (x ""): mawk reads "0xffff..." as a number,
# and doubles cannot tell apart addresses closer than 2 KiB.
awk '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$5 !~ /^anon_vma_(alloc|get|put|free)$/ { next }
{ x = f["anon_vma"]; v = f["refcount"] + 0 }
function settle(y) {
	if (1 + gets[y] != puts[y]) { print "FAIL: " y " lived with 1 + " gets[y] " gets != " puts[y] " puts"; bad = 1 }
	ng += gets[y]; np += puts[y]; delete dead[y]
}
$5 == "anon_vma_alloc" {
	if (x in live) { print "FAIL: " x " allocated while alive"; bad = 1 }
	if (x in dead) settle(x)
	live[x] = 1; gets[x] = 0; puts[x] = 0; zero[x] = 0; lives++
	rootof[x] = f["root"]; if (f["root"] "" == x "") { members[x] = 0 } else members[f["root"]]++
	next
}
(x in dead) {
	if ($5 == "anon_vma_put" && v > 0) { puts[x]++; late++; next }
	print "FAIL: " $5 " after the free of " x ": " $0; bad = 1; next
}
!(x in live) { next }	# born before the trace: not ours to replay
v < 0 { print "FAIL: refcount below 0: " $0; bad = 1 }
$5 == "anon_vma_get" { gets[x]++ }
$5 == "anon_vma_put" { puts[x]++; if (v == 0) zero[x]++ }
$5 == "anon_vma_free" {
	if (zero[x] != 1) { print "FAIL: " x " freed after " zero[x] " puts to 0"; bad = 1 }
	r = rootof[x]
	if (r "" != x "") { members[r]--; if (!(r in live) && (r in dead)) { print "FAIL: root " r " freed before its member " x; bad = 1 } }
	else if (members[x] > 0) { print "FAIL: root " x " freed with " members[x] " members alive"; bad = 1 }
	freedn++
	delete live[x]; dead[x] = 1
}
END {
	for (y in dead) settle(y)
	printf "ok: %d lives replayed, %d freed, %d gets and %d puts in freed lives, %d puts traced after the free\n", lives, freedn, ng, np, late
	if (freedn < 10) { print "FAIL: only " freedn " lives freed: the workload did not run as expected"; bad = 1 }
	exit bad
}' "$d/events.txt"
