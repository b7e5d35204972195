#!/bin/sh
# description: fork chain fires anon_vma_reuse, allocating in fewer forks than it makes
#   a fork chain whose middle generations exit makes
#   anon_vma_clone() reuse their anon_vmas: anon_vma_reuse fires, each time
#   on an anon_vma born earlier in the same tree, with fewer than 2
#   children (its "no vma" is the kernel's own condition, not in the
#   event), and the chain allocates in fewer forks than it makes: of its
#   8 forks (sched_process_fork), the first ones (while the generation above
#   still lives) allocate an anon_vma per vma, later ones allocate none and
#   reuse instead. Without reuse every fork would allocate
# requires: trace-cmd forktree
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-reuse
ev="anon_vma:anon_vma_alloc anon_vma:anon_vma_reuse sched:sched_process_fork"
# where the tree position has an event of its own, the alloc has no root
[ -d "$TRACEFS/events/anon_vma/anon_vma_attach" ] && ev="$ev anon_vma:anon_vma_attach"
# shellcheck disable=SC2086
record "$d" $ev -- forktree --chain 8 --mib 1
events_awk -v chain=8 '
{ x = f["anon_vma"] "" }
# anon_vma_fork() runs in the parent, before its sched_process_fork; the
# parent comm at fork time is in that event
$5 == "sched_process_fork" && f["comm"] == "forktree" {
	forks++
	p = f["pid"]
	if (fa[p] > 0) allocating++
	else { reusing++; if (!ru[p]) { print "FAIL: fork by " p " neither allocated nor reused an anon_vma"; bad = 1 } }
	printf "fork %d by %s: %d anon_vmas allocated, %d reused\n", forks, p, fa[p], ru[p]
	next
}
$4 != "forktree" { next }
# a fork allocation: one placed under a root other than itself
$5 == "anon_vma_alloc" { born[x] = ("root" in f) ? f["root"] "" : x; if (born[x] != x) fa[$3]++ }
$5 == "anon_vma_attach" && (x in born) { born[x] = f["root"] ""; fa[$3]++ }
$5 == "anon_vma_reuse" {
	n++; ru[$3]++
	if (!(x in born)) { print "FAIL: reused " x ", not born in this run"; bad = 1 }
	else if (born[x] != f["root"] "") { print "FAIL: reused " x " outside its tree"; bad = 1 }
	if (f["num_children"] + 0 >= 2) { print "FAIL: reused with num_children=" f["num_children"]; bad = 1 }
}
END {
	printf "ok: %d forks: %d allocated anon_vmas, %d allocated none; %d reuses\n", forks, allocating, reusing, n
	if (forks != chain) { print "FAIL: " forks + 0 " forks by forktree, want " chain; bad = 1 }
	if (n < 1) { print "FAIL: no anon_vma_reuse in a chain of " chain; bad = 1 }
	if (allocating < 1) { print "FAIL: no fork allocated an anon_vma: the first must"; bad = 1 }
	if (allocating >= forks) { print "FAIL: " allocating + 0 " of " forks + 0 " forks allocated anon_vmas: want fewer than it forks"; bad = 1 }
	exit bad
}' "$d/events.txt"
