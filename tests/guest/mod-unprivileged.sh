#!/bin/sh
# description: nobody gets EACCES, userns root EPERM; pidns root takes only its pids
#   what an unprivileged user and a namespaced root can do with
#   mmpreempt: nobody (debugfs opened to 0755 for the check, so that the
#   files' own modes are tested) can open no file of the module, nor the
#   series' tlb_preempt_points, for reading or writing (EACCES); the root of
#   a user namespace may open take_all_locks but its write is refused
#   (EPERM: CAP_SYS_ADMIN in the initial namespace is needed); a root in a
#   new pid namespace writes a pid of its namespace and the process of that
#   namespace is taken (its 300 roots reported), while a pid it cannot see
#   is ESRCH; no file shows a kernel pointer, however long it ran
# requires: mmpreempt.ko setpriv unshare perl alllocks CONFIG_USER_NS CONFIG_PID_NS
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/debug.sh"
need_config CONFIG_USER_NS CONFIG_PID_NS
load_module
cd /tmp || exit 1
# 1. nobody, every file
dmode=$(stat -c %a /sys/kernel/debug)
trap 'chmod "$dmode" /sys/kernel/debug' EXIT
chmod 0755 /sys/kernel/debug || fail "cannot chmod /sys/kernel/debug"
# open_as MODE FILE: exit 0 when the open fails with EACCES, 1 when it
# succeeds, 2 on another error
open_as() {
	setpriv --reuid=65534 --regid=65534 --clear-groups perl -e '
		open(my $f, $ARGV[0], $ARGV[1]) and exit 1; exit($!{EACCES} ? 0 : 2)' "$1" "$2"
}
n=0
for f in $(find $DBG -type f) /sys/kernel/debug/mm/tlb_preempt_points; do
	setpriv --reuid=65534 --regid=65534 --clear-groups test -e "$f" ||
		fail "nobody cannot even see $f: the check would not reach its mode"
	for m in '<' '>>'; do
		open_as "$m" "$f" || fail "nobody's open('$m') of $f did not fail with EACCES (status $?)"
	done
	n=$((n + 1))
done
chmod "$dmode" /sys/kernel/debug
trap - EXIT
echo "ok: nobody can open none of $n files, for reading or writing (EACCES)"

# 2. the root of a user namespace
alllocks_ready /tmp/alllocks.out --roots 300 --files 5
pid=$ALLOCKS_PID
trap 'kill $pid 2>/dev/null' EXIT
echo $pid >$DBG/take_all_locks || fail "init's root could not take pid $pid"
before=$(cat $DBG/take_all_locks)
# perl says which errno (dash's echo calls every write error "I/O error")
wr='open(my $f, ">>", $ARGV[0]) or die "open: $!\n"; syswrite($f, "$ARGV[1]\n") or die "$!\n"'
if unshare -Ur perl -e "$wr" $DBG/take_all_locks "$pid" 2>/tmp/userns.err; then
	fail "the root of a user namespace could take all locks of pid $pid"
fi
grep -q 'Operation not permitted' /tmp/userns.err ||
	fail "a user namespace's root got '$(cat /tmp/userns.err)', want EPERM"
expect "take_all_locks after the refused write" "$(cat $DBG/take_all_locks)" "$before"
echo "ok: the root of a user namespace is refused with EPERM"

# 3. a pid namespace: its pid 2 is its own alllocks; the outside pid is unknown there
unshare -pf --mount-proc sh -c "
	cd /tmp && alllocks --roots 300 --files 5 --wait >ns.out &
	i=0; until grep -q ready /tmp/ns.out 2>/dev/null; do i=\$((i + 1)); [ \$i -lt 600 ] || exit 3; sleep 0.1; done
	echo \$! >/tmp/ns.pid
	echo \$! >$DBG/take_all_locks || exit 4
	cat $DBG/take_all_locks >/tmp/ns.take
	perl -e '$wr' $DBG/take_all_locks $pid 2>/tmp/ns.err && exit 5
	kill \$!; exit 0" || fail "the pid namespace part failed (status $?)"
nspid=$(cat /tmp/ns.pid)
cat /tmp/ns.take
[ "$nspid" -lt 10 ] || fail "pid $nspid in a new pid namespace: not its own numbering"
expect "pid the module reports" "$(awk '$1 == "pid" { print $2 }' /tmp/ns.take)" "$nspid"
expect "ret" "$(awk '$1 == "ret" { print $2 }' /tmp/ns.take)" 0
r=$(awk '$1 == "anon_vma_roots" { print $2 }' /tmp/ns.take)
[ "$r" -ge 300 ] || fail "pid $nspid in the namespace: $r roots taken, want >= 300 (the wrong process?)"
grep -q 'No such process' /tmp/ns.err || fail "outside pid $pid from inside: '$(cat /tmp/ns.err)', want ESRCH"
echo "ok: in a pid namespace, pid $nspid is its own process ($r roots); outside pid $pid is ESRCH"

# 4. no kernel pointer in any readable file, after activity
forktree --depth 2 --width 2 >/dev/null
for f in $(find $DBG -type f -perm -0400) /sys/kernel/debug/mm/tlb_preempt_points; do
	if grep -E -H '(0x)?ffff[0-9a-f]{12}' "$f"; then
		fail "$f shows what looks like a kernel pointer"
	fi
done
echo "ok: no file shows a kernel address"
