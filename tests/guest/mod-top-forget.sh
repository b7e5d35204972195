#!/bin/sh
# description: an attach that forgets a stale root entry counts its sums as lost
#   A root freed while mmpreempt.ko is detached keeps its live entry; if
#   its address is then born again as a forked anon_vma whose birth the
#   module misses but whose anon_vma_attach it sees (attached in between),
#   that attach forgets the stale entry, and what its sums hold must go to
#   top's lost line. Made on demand: a shell V on CPU 1 forks once (its
#   stack's root gets an entry with holds) and blocks; the module is
#   detached; V is killed; a waiting shell F on CPU 1 then forks 40
#   children that stay, and anon_vma_race.ko ("birth" mode) spins 2 s in
#   the birth of V's freed stack root, during which the module is attached
#   again. The test checks
#   that F's fork made that birth, and that top's rows plus its lost line
#   equal the stats afterwards; with the stale entry dropped without a
#   trace, V's holds on it were missing. Up to 4 tries, about 4 s each.
#   Skipped under KASAN, whose quarantine keeps the freed object.
# requires: mmpreempt.ko anon_vma_race.ko taskset cpus=2 mkfifo
# debug-ci: skip KASAN's quarantine keeps the freed anon_vma from being
#   recycled, and the accounting under test is the module's
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/race.sh"
. "$(dirname "$0")/lib/debug.sh"
kconfig CONFIG_KASAN && skip "KASAN's quarantine keeps the freed anon_vma from being recycled: nothing to race"
RACE=/sys/kernel/debug/anon_vma_race
unload_module
load_module
load_race birth_delay_ms=2000
cd /tmp || exit 1
# this shell on CPU 0: CPU 1's free list is V's and F's alone
taskset -pc 0 $$ >/dev/null || fail "taskset -p 0 $$"
rm -f /tmp/forget-v /tmp/forget-f
mkfifo /tmp/forget-v /tmp/forget-f || fail "mkfifo"
# blocked PID: wait until PID sleeps opening a fifo, with no child
blocked() {
	_i=0
	until [ "$(cat /proc/$1/wchan 2>/dev/null)" = wait_for_partner ] &&
		[ -z "$(cat /proc/$1/task/$1/children 2>/dev/null)" ]; do
		_i=$((_i + 1)); [ $_i -lt 200 ] || fail "pid $1 never blocked on its fifo"; sleep 0.05
	done
}
ok=0
for try in 1 2 3 4; do
	[ "$(cat $DBG/enable)" = 1 ] || fail "try $try: the module is detached"
	rm -f /tmp/forget-done /tmp/forget-kids
	taskset -c 1 sh -c '/bin/true; read x </tmp/forget-v' &
	v=$!
	# F forks 40 children that stay (no exec, no frees): only F's forks
	# allocate anon_vmas on CPU 1, past its free list into the partial
	# slabs, where the freed root may sit
	taskset -c 1 sh -c 'read x </tmp/forget-f; i=0
		while [ $i -lt 40 ]; do
			(read y </tmp/forget-v) & echo $! >>/tmp/forget-kids; i=$((i + 1))
		done; echo done >/tmp/forget-done; wait' &
	f=$!
	blocked $v
	blocked $f
	end=$(awk '/\[stack\]/ { split($1, a, "-"); print a[2] }' /proc/$v/maps)
	[ -n "$end" ] || fail "no stack mapping for pid $v"
	echo "$v $(printf '%x' $((0x$end - 4096))) birth" >$RACE || fail "anon_vma_race refused birth"
	[ "$(cat $RACE)" = birth ] || fail "anon_vma_race: $(cat $RACE)"
	echo 0 >$DBG/enable
	kill -9 $v
	wait $v 2>/dev/null || :	# 137: the SIGKILL
	# from here to the attach, only builtins: a command run on CPU 0
	# could take the freed root from the slab
	echo go >/tmp/forget-f
	while :; do
		read -r r <$RACE
		case $r in "birth spinning "*) break ;; esac
		[ ! -e /tmp/forget-done ] || break
	done
	echo 1 >$DBG/enable
	read -r during <$RACE
	until [ -e /tmp/forget-done ]; do read -r r <$RACE; done
	# shellcheck disable=SC2046 # one pid a word
	kill $(cat /tmp/forget-kids)
	wait $f || fail "try $try: F failed"
	r=$(cat $RACE)
	echo "try $try: V $v, F $f; birth of V's stack root: $r (when attached: $during)"
	if [ "$during" = "birth spinning $f" ] && [ "$r" = "birth reborn $f" ]; then
		ok=1
		break
	fi
	echo "try $try: F's fork did not make that birth, or not while attached: again"
done
rmmod anon_vma_race
trap - EXIT
rm -f /tmp/forget-v /tmp/forget-f
[ $ok = 1 ] || fail "in 4 tries, V's freed root was not born again in F's fork with the module attached during it: nothing was tested"
top_vs_stats mod-top-forget
unload_module
echo "measured: V's freed stack root reborn in F's fork in try $try of 4"
echo "ok: the forgotten entry's sums are in the lost line; top equals stats"
