#!/bin/sh
# description: a fork chain whose middle generations exit makes
#   anon_vma_clone() reuse their anon_vmas: anon_vma_reuse fires, each time
#   on an anon_vma born earlier in the same tree, with no vma and fewer than
#   2 children, and the chain allocates fewer anon_vmas than it forks
# requires: trace-cmd, forktree
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-reuse
record "$d" anon_vma:anon_vma_alloc anon_vma:anon_vma_reuse -- forktree --chain 8 --mib 1
awk '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$4 != "forktree" { next }
$5 == "anon_vma_alloc" { born[f["anon_vma"]] = f["root"] }
$5 == "anon_vma_reuse" {
	n++
	if (!(f["anon_vma"] in born)) { print "FAIL: reused " f["anon_vma"] ", not born in this run"; bad = 1 }
	else if (born[f["anon_vma"]] "" != f["root"] "") { print "FAIL: reused " f["anon_vma"] " outside its tree"; bad = 1 }
	if (f["num_children"] + 0 >= 2 || f["num_active_vmas"] + 0 != 0) { print "FAIL: reused with num_children=" f["num_children"] " num_active_vmas=" f["num_active_vmas"]; bad = 1 }
}
END { printf "ok: %d reuses\n", n; if (n < 1) { print "FAIL: no anon_vma_reuse in a chain of 8"; bad = 1 } exit bad }' "$d/events.txt"
