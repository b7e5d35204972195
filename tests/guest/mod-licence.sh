#!/bin/sh
# description: a non-GPL module loads and uses every traced lock helper
#   the inline i_mmap and anon_vma lock helpers and get_anon_vma() were
#   plain rwsem calls and atomics upstream, usable by a module of any
#   licence: nongpl_locks.ko (MODULE_LICENSE "Proprietary") uses every one
#   of them, so it builds only if none references a GPL-only symbol, and
#   must load. It then takes each lock once (its "run" parameter) with the
#   lock events off and then on in a private tracefs instance: on, the
#   instance holds exactly the 4 i_mmap and 3 anon_vma acquired events of
#   that write (the traced, out-of-line halves ran from the non-GPL
#   module), off none. Before,
#   the anon_vma helpers' key and functions were exported _GPL: modpost
#   refused to build such a module ("GPL-incompatible module
#   nongpl_locks.ko uses GPL-only symbol 'anon_vma_lock_trace_key'").
#   Skipped where lockdep is on: loading a non-GPL module taints the kernel
#   and turns lockdep off for the rest of the boot.
# requires: nongpl_locks.ko
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/debug.sh"
. "$(dirname "$0")/lib/module.sh"
kconfig CONFIG_PROVE_LOCKING &&
	skip "loading a non-GPL module would turn lockdep off for the rest of this boot; the normal kernel shows the licence rule"
unload_module	# its probes would keep the events on
[ -d /sys/module/nongpl_locks ] || insmod "$ART/modules/nongpl_locks.ko" ||
	fail "insmod nongpl_locks.ko (a non-GPL module) failed"
echo "ok: the non-GPL module nongpl_locks.ko loaded"
inst=$TRACEFS/instances/mod-licence
rmdir "$inst" 2>/dev/null || :
trap 'rmdir "$inst" 2>/dev/null || :; rmmod nongpl_locks 2>/dev/null || :' EXIT
mkdir "$inst" || fail "cannot make the tracefs instance $inst"
run=/sys/module/nongpl_locks/parameters/run
for state in off on; do
	v=0
	[ $state = on ] && v=1
	echo >"$inst/trace"
	# echo is a builtin: this shell ($$) is the writer, and between the
	# enable and the disable it takes no lock but through the write (">>":
	# a ">" open truncates, and a truncate takes the i_mmap lock)
	echo $v >>"$inst/events/i_mmap/enable"
	echo $v >>"$inst/events/anon_vma/enable"
	echo run >>$run || fail "events $state: nongpl_locks refused 'run'"
	echo 0 >>"$inst/events/i_mmap/enable"
	echo 0 >>"$inst/events/anon_vma/enable"
	# on: write, read and both trylocks of the i_mmap lock; write, read and
	# the read trylock of the anon_vma lock
	for ev in i_mmap_lock_acquired:4 anon_vma_lock_acquired:3; do
		want=${ev#*:}
		[ $state = off ] && want=0
		expect "events $state: ${ev%:*} events of the run" \
			"$(grep -c -- "-$$ .*${ev%:*}:" "$inst/trace" || :)" $want
	done
	echo "ok: events $state: nongpl_locks took every lock"
done
