#!/bin/sh
# description: 21 event keys, 3 shared: off unless enabled or attached; no stray events
#   with the mmpreempt events disabled (the default) and
#   mmpreempt.ko not loaded, the static branch of every one of the 21 events
#   and of the lock helpers' 3 shared keys (i_mmap lock, anon_vma lock,
#   anon_vma refcount), as patched
#   into a test module's text (tp_keys.ko), is off: before any enabling,
#   after a tracefs enable/disable round trip (on while enabled, for that
#   system only) and after mmpreempt.ko attached (all on) and detached; a
#   shared key stays on while a second of its events is, after the first
#   is turned off; and workloads that would fire every event leave none in the
#   buffer, both before any enabling and after the round trip
# requires: mmpreempt.ko tp_keys.ko trace-cmd forktree unmap filemap
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/module.sh"
systems="anon_vma i_mmap mmu_gather mm_all_locks"
unload_module
[ -e /sys/kernel/debug/tp_keys ] || insmod "$ART/modules/tp_keys.ko" || fail "insmod tp_keys.ko failed"
# keys WANT [SYSTEM-PATTERN]: every key reads WANT (those matching the
# pattern, if given, read 1 and the others 0)
keys() {
	cat /sys/kernel/debug/tp_keys >/tmp/keys
	expect "static keys listed" "$(wc -l </tmp/keys)" 24
	awk -v want="$1" -v on="${2:-}" '{ w = (on != "" && $1 ~ on) ? 1 : want
		if ($2 != w) { print "FAIL: " $1 " key " $2 ", want " w; bad = 1 } }
		END { exit bad }' /tmp/keys || fail "a static key is in the wrong state"
}
keys 0
echo "ok: 24 static keys off at boot"
for s in $systems; do
	echo 1 >$TRACEFS/events/$s/enable
	case $s in mm_all_locks) pat='^mm_(take|drop)_all_locks' ;; *) pat="^$s"_ ;; esac
	keys 0 "$pat"
	echo 0 >$TRACEFS/events/$s/enable
	keys 0
done
echo "ok: each system's keys on while it alone is enabled, off again after"
# The helpers' three shared keys count their events: on while any one of
# them is (not only the first enabled), off when the last goes.
key_of() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/tp_keys; }
for set in "i_mmap_lock_trace_key anon_vma_lock_trace_key i_mmap_lock_start i_mmap_lock_released" \
	"anon_vma_lock_trace_key anon_vma_ref_trace_key anon_vma_lock_start anon_vma_lock_released" \
	"anon_vma_ref_trace_key anon_vma_lock_trace_key anon_vma_get_failed anon_vma_put"; do
	# shellcheck disable=SC2086 # the set's four words
	set -- $set
	case $3 in i_mmap_*) ev=$TRACEFS/events/i_mmap ;; *) ev=$TRACEFS/events/anon_vma ;; esac
	echo 1 >"$ev/$3/enable"
	expect "$1 with $3 alone on" "$(key_of "$1")" 1
	expect "$2 with $3 alone on" "$(key_of "$2")" 0
	echo 1 >"$ev/$4/enable"
	echo 0 >"$ev/$3/enable"
	expect "$1 with $3 off again and $4 on" "$(key_of "$1")" 1
	expect "$3's own key" "$(key_of "$3")" 0
	echo 0 >"$ev/$4/enable"
	expect "$1 with both off" "$(key_of "$1")" 0
done
load_module
keys 1
unload_module
keys 0
echo "ok: mmpreempt.ko turned every key on, and its unload every key off"
for s in $systems; do
	[ "$(cat $TRACEFS/events/$s/enable)" = 0 ] || fail "$s is enabled at boot"
done
wl='forktree --depth 2 --width 2 && unmap --mib 8 && filemap --procs 2 --pages 16'
d=$RES/tp-static-keys-off
record "$d/cold" sched:sched_process_exec -- sh -c "$wl"
for s in $systems; do echo 1 >$TRACEFS/events/$s/enable; done
for s in $systems; do echo 0 >$TRACEFS/events/$s/enable; done
record "$d/round-trip" sched:sched_process_exec -- sh -c "$wl"
for run in cold round-trip; do
	execs=$(count "$d/$run/events.txt" sched_process_exec)
	ours=$(awk '$5 ~ /^(anon_vma_|i_mmap_|mmu_gather_|mm_take_all_locks|mm_drop_all_locks)/' "$d/$run/events.txt" | wc -l)
	echo "ok: $run: $execs execs recorded, $ours mmpreempt events"
	[ "$execs" -ge 3 ] || fail "$run: the workload did not run ($execs execs)"
	expect "$run: mmpreempt events in the buffer" "$ours" 0
done
