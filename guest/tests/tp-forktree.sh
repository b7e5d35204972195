#!/bin/sh
# description: a 3-generation fork tree (width 2) writing private anonymous
#   memory. Every anon_vma born in it has a root and parent of its own tree;
#   the tree of the written region is 15 anon_vmas, 3 levels below its root;
#   every anon_vma lock event names the tree's root; every anon_vma born in
#   the run is freed by its end (matched by address, free after alloc).
# requires: trace-cmd, forktree, the anon_vma events
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-forktree
record "$d" anon_vma -- forktree --depth 3 --width 2 --mib 1
awk '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$4 == "forktree" { wl[$3] = 1 }
{ ev[NR] = $0; evn[NR] = $5; pid[NR] = $3; ts[NR] = $1
  a[NR] = f["anon_vma"]; r[NR] = f["root"]; p[NR] = f["parent"] }
END {
	bad = 0
	for (i = 1; i <= NR; i++) {
		if (evn[i] != "anon_vma_alloc" || !(pid[i] in wl)) continue
		x = a[i]; born[x] = ts[i]; nalloc++
		if (x == r[i]) { isroot[x] = 1; depth[x] = 0; root[x] = x; size[x]++; continue }
		if (!(r[i] in isroot)) { print "FAIL: " x " has root " r[i] ", not a root born in the tree"; bad = 1 }
		if (!(p[i] in root) || root[p[i]] != r[i]) { print "FAIL: " x " has parent " p[i] " outside its tree " r[i]; bad = 1 }
		root[x] = r[i]; depth[x] = depth[p[i]] + 1; size[r[i]]++
		if (depth[x] > maxd) maxd = depth[x]
	}
	for (i = 1; i <= NR; i++) {
		if (evn[i] ~ /^anon_vma_lock_/ && (a[i] in root)) {
			nlock++
			if (r[i] != root[a[i]]) { print "FAIL: lock event names root " r[i] " for " a[i] " of tree " root[a[i]]; bad = 1 }
		}
		if (evn[i] == "anon_vma_free" && (a[i] in born)) {
			if (ts[i] < born[a[i]]) { print "FAIL: " a[i] " freed before its alloc"; bad = 1 }
			freed[a[i]]++
		}
	}
	for (x in born) if (freed[x] != 1) { print "FAIL: " x " freed " freed[x] + 0 " times"; bad = 1 }
	for (x in size) { ntrees++; if (size[x] == 15) n15++; if (size[x] > 15) { print "FAIL: tree " x " has " size[x] " anon_vmas"; bad = 1 } }
	printf "ok: %d anon_vmas born in %d trees, %d trees of 15, deepest level %d, %d lock events checked, all freed\n", nalloc, ntrees, n15, maxd, nlock
	if (maxd != 3) { print "FAIL: deepest level " maxd ", want 3"; bad = 1 }
	if (n15 < 1) { print "FAIL: no tree of 15 anon_vmas (1 + 2 + 4 + 8)"; bad = 1 }
	if (nlock < 1) { print "FAIL: no lock event on the tree"; bad = 1 }
	exit bad
}' "$d/events.txt"
