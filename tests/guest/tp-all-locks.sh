#!/bin/sh
# description: mm_take_all_locks events match the roots and mappings locked, dropped
#   mm_take_all_locks() on an mm with >= 500 anon_vma roots and 50
#   file mappings (first mmu_notifier registration, via test_hmm): its
#   acquired event counts at least that many of each, exactly as many
#   anon_vma and i_mmap write locks are taken in between, and
#   mm_drop_all_locks drops the same numbers
# requires: test_hmm.ko trace-cmd alllocks
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/hmm.sh"
load_test_hmm
d=$RES/tp-all-locks
record "$d" mm_all_locks anon_vma:anon_vma_lock_acquired i_mmap:i_mmap_lock_acquired \
	-- alllocks --roots 500 --files 50
grep '^alllocks:' "$d/record.log"
events_awk -v roots=500 -v files=50 '
$4 != "alllocks" { next }
$5 == "mm_take_all_locks_start" { on = 1; av = 0; im = 0; starts++; next }
on && $5 == "anon_vma_lock_acquired" && f["write"] == "true" { av++ }
on && $5 == "i_mmap_lock_acquired" && f["write"] == "true" { im++ }
$5 == "mm_take_all_locks_acquired" {
	on = 0; acq++; A = f["anon_vma_roots"] + 0; M = f["mappings"] + 0
	printf "ok: mm_take_all_locks took %d anon_vma roots and %d mappings (ret %s); %d anon_vma and %d i_mmap write locks traced in between\n", A, M, f["ret"], av, im
	if (f["ret"] != 0) { print "FAIL: ret " f["ret"]; bad = 1 }
	if (A < roots) { print "FAIL: " A " anon_vma roots, want >= " roots; bad = 1 }
	if (M < files) { print "FAIL: " M " mappings, want >= " files; bad = 1 }
	if (av != A) { print "FAIL: " av " anon_vma lock events for " A " roots"; bad = 1 }
	if (im != M) { print "FAIL: " im " i_mmap lock events for " M " mappings"; bad = 1 }
}
$5 == "mm_drop_all_locks" {
	drops++
	if (f["anon_vma_roots"] + 0 != A || f["mappings"] + 0 != M) { print "FAIL: dropped " f["anon_vma_roots"] "/" f["mappings"] ", took " A "/" M; bad = 1 }
}
END {
	if (starts != 1 || acq != 1 || drops != 1) { print "FAIL: " starts + 0 " starts, " acq + 0 " acquired, " drops + 0 " drops, want one each"; bad = 1 }
	exit bad
}' "$d/events.txt"
