#!/bin/sh
# description: fork-tree anon_vmas have own-tree root/parent, lock the root, all freed
#   a 3-generation fork tree (width 2) writing private anonymous
#   memory. Every anon_vma born in it has a root and parent of its own tree;
#   the trees are 3 levels deep, and one at least holds 1 + 2 + 4 + 8
#   anon_vmas (vmas sharing a root make some larger);
#   every anon_vma lock event names the tree's root; every anon_vma born in
#   the run is freed by its end (matched by address, free after alloc).
# requires: trace-cmd forktree /sys/kernel/tracing/events/anon_vma
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-forktree
record "$d" anon_vma -- forktree --depth 3 --width 2 --mib 1
# Pass 1 finds the tree's pids (an exec'd root shows comm forktree only
# after exec); pass 2 replays in time order, an address naming one life
# between its alloc and its free. An anon_vma is born its own root: fork
# attaches it to its parent's tree before anything else names it, so the
# first other event naming a newborn makes it a tree root. Pointers compare
# as strings (x ""): mawk reads "0xffff..." as a number, and doubles cannot
# tell apart addresses closer than 2 KiB.
events_awk '
NR == FNR { if ($4 == "forktree") wl[$3] = 1; next }
{ x = f["anon_vma"] ""; r = f["root"] ""; p = f["parent"] "" }
$5 == "anon_vma_alloc" && ($3 in wl) { nalloc++; newborn[x] = 1; next }
$5 == "anon_vma_attach" && (x in newborn) {
	delete newborn[x]
	if (!(p in treeof)) { print "FAIL: " x " has parent " p ", not a live anon_vma of the tree"; bad = 1; next }
	t = treeof[p]
	if (r != rootaddr[t]) { print "FAIL: " x " has root " r ", its parent is in the tree of " rootaddr[t]; bad = 1 }
	treeof[x] = t; depth[x] = depth[p] + 1; size[t]++
	if (depth[x] > maxd) maxd = depth[x]
	next
}
(x in newborn) { delete newborn[x]; t = ++ntrees; rootaddr[t] = x; size[t] = 1; treeof[x] = t; depth[x] = 0 }
$5 ~ /^anon_vma_lock_/ && (x in treeof) {
	nlock++
	if (r != rootaddr[treeof[x]]) { print "FAIL: lock event names root " r " for " x " of the tree of " rootaddr[treeof[x]]; bad = 1 }
}
$5 == "anon_vma_free" && (x in treeof) { nfree++; delete treeof[x] }
END {
	for (x in treeof) { print "FAIL: " x " never freed"; bad = 1 }
	for (t = 1; t <= ntrees; t++) if (size[t] >= 15) nfull++
	printf "ok: %d anon_vmas born in %d trees, %d freed; deepest level %d; %d trees of >= 1 + 2 + 4 + 8; %d lock events checked\n", nalloc, ntrees, nfree, maxd, nfull, nlock
	if (maxd != 3) { print "FAIL: deepest level " maxd ", want 3"; bad = 1 }
	if (nfull < 1) { print "FAIL: no tree grown by the three generations (>= 15 anon_vmas)"; bad = 1 }
	if (nlock < 1) { print "FAIL: no lock event on the trees"; bad = 1 }
	exit bad
}' "$d/events.txt" "$d/events.txt"
