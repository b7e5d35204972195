#!/bin/sh
# description: SERIES rows 1-3 (root locking, root pinning). A fork tree
#   whose pages KSM merges, then exits, then KSM unmerges: every lock event
#   of the tree takes the root's lock, each child pins its root (a get on the
#   root per child), ksmd takes references, and at the end every reference
#   has dropped to zero and the root is freed after every child
# requires: trace-cmd, forktree, CONFIG_KSM
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
k=/sys/kernel/mm/ksm
d=$RES/proof-root-lock
record "$d" anon_vma -- sh -c "
	echo 2000 >$k/pages_to_scan && echo 0 >$k/sleep_millisecs && echo 1 >$k/run &&
	forktree --depth 2 --width 2 --mib 2 --ksm --hold-ms 4000 &&
	echo \"merged: \$(cat $k/pages_sharing) pages sharing before exit\" &&
	echo 2 >$k/run && echo 0 >$k/run"
awk '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$4 == "forktree" { wl[$3] = 1 }
{ n++; ev[n] = $5; pid[n] = $3; comm[n] = $4; a[n] = f["anon_vma"]; r[n] = f["root"]; ref[n] = f["refcount"] + 0 }
END {
	for (i = 1; i <= n; i++) if (ev[i] == "anon_vma_alloc" && (pid[i] in wl)) {
		if (a[i] == r[i]) isroot[a[i]] = 1; else { root[a[i]] = r[i]; kids[r[i]]++ }
	}
	for (i = 1; i <= n; i++) {
		x = a[i]
		if (ev[i] ~ /^anon_vma_lock_/ && (x in root) && r[i] != root[x]) { print "FAIL: lock on " x " took " r[i] ", not its root " root[x]; bad = 1 }
		if (ev[i] ~ /^anon_vma_lock_/ && (x in root)) locks++
		if (ev[i] == "anon_vma_get" && (x in isroot) && (pid[i] in wl)) pins[x]++
		if (ev[i] == "anon_vma_get" && comm[i] == "ksmd" && ((x in root) || (x in isroot))) ksmd++
		if (ev[i] == "anon_vma_put" && ((x in root) || (x in isroot))) last[x] = ref[i]
		if (ev[i] == "anon_vma_free" && (x in root)) { kfree[x] = i; freed++ }
		if (ev[i] == "anon_vma_free" && (x in isroot)) rfree[x] = i
	}
	for (x in root) {
		if (!(x in kfree)) { print "FAIL: child " x " never freed"; bad = 1; continue }
		if (!(root[x] in rfree) || rfree[root[x]] < kfree[x]) { print "FAIL: root " root[x] " not freed after its child " x; bad = 1 }
	}
	for (x in isroot) if (kids[x]) {
		nroots++
		if (!(x in rfree)) { print "FAIL: root " x " never freed"; bad = 1 }
		if (pins[x] < kids[x]) { print "FAIL: root " x " has " kids[x] " children but " pins[x] + 0 " gets by the tree"; bad = 1 }
		if (last[x] != 0) { print "FAIL: last put on root " x " left refcount " last[x]; bad = 1 }
	}
	printf "ok: %d trees, %d children freed before their roots, %d lock events on the roots, %d ksmd references\n", nroots, freed, locks, ksmd
	if (nroots < 1) { print "FAIL: no tree"; bad = 1 }
	if (ksmd < 1) { print "FAIL: ksmd took no reference on the tree: KSM did not merge"; bad = 1 }
	exit bad
}' "$d/events.txt"
