#!/bin/sh
# description: signal-cut mm_take_all_locks (-EINTR) drops all it took, as traced
#   a signal cuts mm_take_all_locks() short (-EINTR). sigtake
#   writes the pid of a process with 2,000 anon_vma roots and 50 mapped
#   files to take_all_locks again and again while SIGUSR1 arrives at random,
#   until 3 takes were cut short after taking locks. The trace shows each
#   one: mm_take_all_locks_acquired ret=-4 with R roots and M mappings, then
#   mm_drop_all_locks by the same task with the same R and M; over the
#   whole recording every anon_vma and i_mmap lock sigtake took was
#   released (per lock and mode); mmpreempt.ko's take_all_locks reported
#   the trace's R and M for every take, cut short or not
# requires: mmpreempt.ko trace-cmd alllocks sigtake
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
load_module
d=$RES/mod-take-eintr
mkdir -p "$d"
cd /tmp || exit 1
alllocks_ready /tmp/alllocks.out --roots 2000 --files 50
pid=$ALLOCKS_PID
trap 'kill $pid 2>/dev/null' EXIT
record "$d" mm_all_locks anon_vma:anon_vma_lock_acquired anon_vma:anon_vma_lock_released \
	i_mmap:i_mmap_lock_acquired i_mmap:i_mmap_lock_released -- sigtake --want 3 "$pid"
grep -E '^(take|sigtake)' "$d/record.log" | tee "$d/sigtake.out" | tail -n 4
# the module's view of each take, in order: "ok|EINTR R M"
awk '$1 == "take" { print $3, $5, $7 }' "$d/sigtake.out" >"$d/module-takes"
events_awk -v out="$d/trace-takes" '
$4 != "sigtake" { next }
$5 == "mm_take_all_locks_acquired" {
	r = f["ret"] + 0
	print (r == 0 ? "ok" : r == -4 ? "EINTR" : "ret" r), f["anon_vma_roots"], f["mappings"] > out
	if (r == -4) { want[$3] = f["anon_vma_roots"] " " f["mappings"]; cut++; if (f["anon_vma_roots"] + f["mappings"] > 0) held++ }
	next
}
$5 == "mm_drop_all_locks" && ($3 in want) {
	if (want[$3] != f["anon_vma_roots"] " " f["mappings"]) { print "FAIL: cut short holding " want[$3] ", dropped " f["anon_vma_roots"] " " f["mappings"]; bad = 1 }
	else dropped++
	delete want[$3]
}
$5 == "anon_vma_lock_acquired" && f["success"] == "true" { k = "anon_vma " f["root"] " " f["write"]; bal[k]++; acq++ }
$5 == "anon_vma_lock_released" { k = "anon_vma " f["root"] " " f["write"]; bal[k]--; rel++ }
$5 == "i_mmap_lock_acquired" && f["success"] == "true" { k = "i_mmap " f["mapping"] " " f["write"]; bal[k]++; acq++ }
$5 == "i_mmap_lock_released" { k = "i_mmap " f["mapping"] " " f["write"]; bal[k]--; rel++ }
END {
	for (p in want) { print "FAIL: a take cut short was never followed by its drop"; bad = 1 }
	for (k in bal) if (bal[k] != 0) { print "FAIL: " k " acquired - released = " bal[k]; bad = 1; if (++shown > 5) break }
	printf "ok: %d takes cut short (%d holding locks), each dropped the same roots and mappings; %d acquisitions, %d releases by sigtake, every lock balanced\n", cut, held, acq, rel
	if (held < 3) { print "FAIL: fewer than 3 takes were cut short holding locks"; bad = 1 }
	exit bad
}' "$d/events.txt" || fail "the trace of the interrupted takes is wrong"
cmp -s "$d/module-takes" "$d/trace-takes" || {
	diff "$d/module-takes" "$d/trace-takes" | head -n 10
	fail "take_all_locks reported other counts than the trace (module < > trace)"
}
echo "ok: take_all_locks reported the trace's roots and mappings for all $(wc -l <"$d/trace-takes") takes"
