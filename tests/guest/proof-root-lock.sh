#!/bin/sh
# description: fork tree under KSM: locks take the root, children pin it, root last
#   SERIES rows 1-3 (root locking, root pinning). A fork tree
#   whose pages KSM merges, then exits, then KSM unmerges: every lock event
#   of the tree takes the root's lock, each child pins its root (a get on the
#   root per child), ksmd takes references, and at the end every reference
#   has dropped to zero and the root is freed after every child
# requires: trace-cmd forktree CONFIG_KSM
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_ksm
k=/sys/kernel/mm/ksm
d=$RES/proof-root-lock
record "$d" anon_vma -- sh -c "
	echo 2000 >$k/pages_to_scan && echo 0 >$k/sleep_millisecs && echo 1 >$k/run &&
	forktree --depth 2 --width 2 --mib 2 --ksm --hold-ms 4000 &&
	echo \"merged: \$(cat $k/pages_sharing) pages sharing before exit\" &&
	echo 2 >$k/run && echo 0 >$k/run"
events_awk '
NR == FNR { if ($4 == "forktree") wl[$3] = 1; next }
{ x = f["anon_vma"] ""; r = f["root"] "" }
# one pass in time order: an address names one life between alloc and free;
# an anon_vma is born its own root, and fork attaches it to the parent
# tree before anything else names it. Pointers compare as strings (x ""):
# mawk reads "0xffff..." as a number and cannot tell close addresses apart.
$5 == "anon_vma_alloc" && ($3 in wl) { newborn[x] = 1; next }
$5 == "anon_vma_attach" && (x in newborn) {
	delete newborn[x]
	if (r in isroot) { root[x] = r; alive[r]++; kids[r]++ }
	next
}
(x in newborn) { delete newborn[x]; isroot[x] = 1; alive[x] = 0; pins[x] = 0; kids[x] = 0 }
$5 ~ /^anon_vma_lock_/ && (x in root) {
	locks++
	if (r != root[x]) { print "FAIL: lock on " x " took " r ", not its root " root[x]; bad = 1 }
}
$5 == "anon_vma_get" && (x in isroot) && ($3 in wl) { pins[x]++ }
$5 == "anon_vma_get" && $4 == "ksmd" && ((x in root) || (x in isroot)) { ksmd++ }
$5 == "anon_vma_put" && (x in isroot) { last[x] = f["refcount"] + 0 }
$5 == "anon_vma_free" && (x in root) { alive[root[x]]--; freed++; delete root[x] }
$5 == "anon_vma_free" && (x in isroot) {
	if (alive[x]) { print "FAIL: root " x " freed with " alive[x] " children alive"; bad = 1 }
	if (kids[x]) {
		nroots++
		if (pins[x] < kids[x]) { print "FAIL: root " x " had " kids[x] " children but " pins[x] " gets by the tree"; bad = 1 }
		if (last[x] != 0) { print "FAIL: last put on root " x " left refcount " last[x]; bad = 1 }
	}
	delete isroot[x]
}
END {
	for (x in root) { print "FAIL: child " x " never freed"; bad = 1 }
	for (x in isroot) { print "FAIL: root " x " never freed"; bad = 1 }
	printf "ok: %d trees freed, %d children freed before their roots, %d lock events on tree members, %d ksmd references\n", nroots, freed, locks, ksmd
	if (nroots < 1) { print "FAIL: no tree"; bad = 1 }
	if (ksmd < 1) { print "FAIL: ksmd took no reference on the tree: KSM did not merge"; bad = 1 }
	exit bad
}' "$d/events.txt" "$d/events.txt"
