#!/bin/sh
# description: writing the pid of a process with >= 600 anon_vma roots and
#   20 file mappings to take_all_locks runs mm_take_all_locks on its mm and
#   reports at least that many locks; bad pids get clear errors
# requires: mmpreempt.ko, alllocks
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
cd /tmp
alllocks --roots 600 --files 20 --wait >alllocks.out &
pid=$!
i=0
until grep -q ready alllocks.out 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 300 ] || fail "alllocks never got ready"; sleep 0.1
done
echo $pid >$DBG/take_all_locks || fail "take_all_locks refused pid $pid"
cat $DBG/take_all_locks | tee "$RES/mod-take-all-locks.txt"
r=$(awk '$1 == "anon_vma_roots" { print $2 }' $DBG/take_all_locks)
m=$(awk '$1 == "mappings" { print $2 }' $DBG/take_all_locks)
[ "$r" -ge 600 ] || fail "$r anon_vma roots locked, want >= 600"
[ "$m" -ge 20 ] || fail "$m mappings locked, want >= 20"
expect ret "$(awk '$1 == "ret" { print $2 }' $DBG/take_all_locks)" 0
kill $pid; wait $pid 2>/dev/null || true
# a pid that does not exist, then the one that just exited
for p in 4000000 $pid; do	# above pid_max; exited and reaped
	if write1 $DBG/take_all_locks "$p" 2>/tmp/err; then fail "pid $p accepted"; fi
	echo "ok: pid $p refused: $(cat /tmp/err)"
done
grep -q 'No such process' /tmp/err || fail "a vanished pid should give ESRCH"
