#!/bin/sh
# description: lockdep and might_sleep() see traced i_mmap, anon_vma locks
#   the lock events must not blind the debug kernel: with the i_mmap and
#   anon_vma lock events off and then on (in a private tracefs instance),
#   lock_order.ko takes a mutex of its own and then the lock for write,
#   uncontended: /proc/lockdep must list the order "mutex -> lock" both
#   times (the dependency a "possible circular locking dependency" report
#   is made from; the reverse order would then be reported), and taking the
#   lock for read with preemption disabled must give "BUG: sleeping
#   function called from invalid context" both times. Traced helpers that
#   try the lock first recorded a successful trylock: lockdep added no
#   order and might_sleep() never ran, so with the events on both were
#   silent. The order is read from lockdep's graph rather than from a
#   report because a report turns lockdep off for the rest of the boot.
# requires: lock_order.ko CONFIG_PROVE_LOCKING CONFIG_DEBUG_ATOMIC_SLEEP
#   /proc/lockdep
# allow-splat: BUG: sleeping function called from invalid context at (kernel/locking/rwsem[.]c|mm/internal[.]h):
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module	# its probes would keep the events on
[ -e /sys/kernel/debug/lock_order ] ||
	insmod "$ART/modules/lock_order.ko" || fail "insmod lock_order.ko failed"
inst=$TRACEFS/instances/lockdep-traced
rmdir "$inst" 2>/dev/null || :
trap 'rmdir "$inst" 2>/dev/null || :' EXIT
mkdir "$inst" || fail "cannot make the tracefs instance $inst"
bugs() { dmesg | grep -c 'BUG: sleeping function called from invalid context' || :; }
# an earlier report in this boot turned lockdep off: nothing would be recorded
grep -q '^ *debug_locks: *1$' /proc/lockdep_stats ||
	fail "lockdep is off in this boot already ($(grep debug_locks /proc/lockdep_stats)): an earlier report?"

# follows LOCK LABEL: /proc/lockdep's record of mutex lock_order_LOCK_events_LABEL
# names the lock's class among the locks taken after it
follows() {
	awk -v m="lock_order_$1_events_$2" -v l="$3" '
		$NF == m && / FD: / { on = 1; next }
		on && /^$/ { on = 0 }
		on && /^ -> / && index($0, l) { found = 1 }
		END { exit !found }' /proc/lockdep
}

bad=0
for state in off on; do
	v=0
	[ $state = on ] && v=1
	for lock in i_mmap anon_vma; do
		echo $v >"$inst/events/$lock/enable"
		echo >"$inst/trace"
		write1 /sys/kernel/debug/lock_order "order $lock $state" ||
			fail "lock_order refused 'order $lock $state'"
		# on: the write went through the traced helper (its acquired event)
		n=$(grep -c -- "perl-[0-9]* .*${lock}_lock_acquired: .*write=true" "$inst/trace" || :)
		if [ $state = on ] && [ "$n" -lt 1 ]; then
			echo "FAIL: events on: no traced ${lock}_lock_acquired from the write: nothing was checked"
			bad=$((bad + 1))
		fi
		class=i_mmap_rwsem
		[ $lock = anon_vma ] && class='&anon_vma->rwsem'
		if follows $lock $state "$class"; then
			echo "ok: events $state: lockdep recorded lock_order_${lock}_events_$state -> $class"
		else
			awk -v m="lock_order_${lock}_events_$state" '$NF == m && / FD: / { on = 1 }
				on { print } on && /^$/ { exit }' /proc/lockdep
			echo "FAIL: events $state: lockdep has no order lock_order_${lock}_events_$state -> $class"
			bad=$((bad + 1))
		fi
		# might_sleep() reports at most once a second
		sleep 1.2
		b0=$(bugs)
		write1 /sys/kernel/debug/lock_order "atomic $lock" ||
			fail "lock_order refused 'atomic $lock'"
		b1=$(bugs)
		if [ "$b1" -gt "$b0" ]; then
			echo "ok: events $state: $lock read lock with preemption off: might_sleep() reported it"
		else
			echo "FAIL: events $state: $lock read lock with preemption off: no 'sleeping function called from invalid context'"
			bad=$((bad + 1))
		fi
		echo 0 >"$inst/events/$lock/enable"
	done
done
[ $bad -eq 0 ] || fail "$bad of 8 checks failed: the traced locks hide from lockdep or might_sleep()"
