#!/bin/sh
# description: mm_take_all_locks gets switched out by a FIFO task while holding locks
#   cover letter (mm_take_all_locks preemptible). On an mm with
#   >= 2000 anon_vma roots and 100 file mappings, mm_take_all_locks (via
#   test_hmm's mmu_notifier registration) takes that many locks, and with a
#   SCHED_FIFO task on the same CPU the task is switched out while it holds
#   them (between its first lock and mm_drop_all_locks): it ran preemptible
# requires: test_hmm.ko trace-cmd cyclictest taskset alllocks
# debug-ci: skip 389 s there, and its figures are cyclictest latencies,
#   which lockdep and KASAN distort rather than check; mm_take_all_locks()
#   runs there in CI under tp-all-locks, mod-take-all-locks and
#   mod-take-eintr
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/hmm.sh"
load_test_hmm
trap 'pkill cyclictest || true' EXIT
trap 'exit 1' TERM INT
d=$RES/proof-all-locks
cd /tmp || exit 1
record "$d" sched:sched_switch mm_all_locks anon_vma:anon_vma_lock_acquired \
	i_mmap:i_mmap_lock_acquired -- sh -c '
	cyclictest -q -m -t 1 -a 0 -p 90 -i 1000 -D 120 >/dev/null &
	cy=$!
	sleep 1
	taskset -c 0 alllocks --roots 2000 --files 100; rc=$?
	kill $cy 2>/dev/null; wait $cy; cs=$?
	[ $cs -eq 0 ] || [ $cs -eq 143 ] || { echo "cyclictest exited $cs"; [ $rc -ne 0 ] || rc=1; }
	exit $rc'
grep '^alllocks:' "$d/record.log"
events_awk '
$4 == "alllocks" && $5 == "mm_take_all_locks_start" { pid = $3; on = 1; first = 0 }
on && $3 == pid && ($5 == "anon_vma_lock_acquired" || $5 == "i_mmap_lock_acquired") && !first { first = $1 }
on && $5 == "mm_take_all_locks_acquired" && $3 == pid { A = f["anon_vma_roots"]; M = f["mappings"]; t_all = $1 }
on && first && $5 == "sched_switch" && f["prev_pid"] == pid { sw++; if (f["prev_state"] ~ /^R/) pre++; else slp++ }
on && $5 == "mm_drop_all_locks" && $3 == pid { on = 0; t_drop = $1 }
END {
	printf "measured: mm_take_all_locks took %d anon_vma roots and %d mappings; holding locks for %.3f ms (first lock to drop), switched out %d times (%d preempted, %d slept)\n", A, M, (t_drop - first) * 1e3, sw, pre, slp
	if (A < 2000 || M < 100) { print "FAIL: fewer locks than the mm has roots and mappings"; bad = 1 }
	if (sw < 1) { print "FAIL: never switched out while holding the locks"; bad = 1 }
	exit bad
}' "$d/events.txt"
