#!/bin/sh
# description: bad load parameters refused; hold table overflow counted, nothing lost
#   mmpreempt.ko validates its parameters at load: table sizes
#   that are not a power of two from 16 to 2^20 (0, 8, 15, 17, 2^21, 2^32-1)
#   and top_n outside 1..top_slots are refused with a message naming the
#   parameter, and leave nothing behind; the exact fit (16) and the largest
#   (2^20) load and count. With a 16-slot hold table, 1 holder and 24
#   waiters on one lock overflow it: the overflow is counted as untracked,
#   and nothing else is lost (contended, started, acquired and released
#   exact; every release either timed or counted untracked). mode= other
#   than timed or counting is refused; mode=counting counts the same
#   contention exactly and times nothing (no hold, no wait, no slot used,
#   top off), and allocates neither the hold table nor top's (vmalloc's
#   list); clock=auto takes the TSC only when /proc/cpuinfo says it is
#   invariant, clock=ktime never, clock=tsc loads on the TSC or is refused
#   saying why; the largest tables are refused while the memory is filled until
#   half of what is available is below their need on this guest's possible
#   CPUs (the message says both), and load once it is free
# requires: mmpreempt.ko lock_hold.ko contend
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
refused() { # refused PARAM=VALUE...
	dmesg -C
	if insmod "$MOD" "$@" 2>/tmp/insmod.err; then
		rmmod mmpreempt
		fail "insmod $* succeeded"
	fi
	[ ! -d $DBG ] || fail "insmod $* failed but left $DBG behind"
	p=${1%%=*}
	dmesg | grep -q "mmpreempt: $p=" || fail "insmod $*: no message naming $p (dmesg: $(dmesg | tail -n 2))"
	echo "ok: refused $*: $(dmesg | grep "mmpreempt: $p=" | tail -n 1 | sed 's/^\[[^]]*\] //')"
}
for v in 0 8 15 17 2097152 4294967295; do
	refused hold_slots=$v
	refused top_slots=$v
done
refused top_n=0
refused mode=bogus
refused mode=Timed
refused top_n=65 top_slots=64
refused clock=bogus
grep -q mmpreempt /proc/modules && fail "a refused load left the module in"

load_module hold_slots=1048576 top_slots=1048576 top_n=1048576
echo 1 >>$DBG/reset
forktree --depth 1 --width 2 >/dev/null || fail "forktree failed"
[ "$(stat_of anon_vma.lock.write.acquired)" -gt 0 ] || fail "largest tables: nothing counted"
echo "ok: the largest tables load and count ($(stat_of anon_vma.lock.write.acquired) anon_vma write locks)"
unload_module

load_module hold_slots=16 top_slots=16 top_n=16
N=24
echo 1 >>$DBG/reset
contend --lock i_mmap --mode write --waiters $N >/dev/null || fail "contend failed"
STATS=/tmp/mod-params.stats
cat $DBG/stats >$STATS
full=$(stat_of holds.untracked.table_full)
[ "$full" -ge 5 ] || fail "25 intervals in flight in 16 slots, but $full counted untracked"
expect "table full: i_mmap write contended" "$(stat_of i_mmap.lock.write.contended)" $N
expect "table full: i_mmap write started" "$(stat_of i_mmap.lock.write.started)" $N
rel=0 timed=0
for k in anon_vma i_mmap; do
	for m in read write; do
		a=$(stat_of $k.lock.$m.acquired)
		r=$(stat_of $k.lock.$m.released)
		expect "table full: $k $m released = acquired" "$r" "$a"
		rel=$((rel + r))
		timed=$((timed + $(stat_of $k.lock.$m.holds_timed)))
	done
done
# released is holds_timed plus the untracked releases by construction (the
# stats file sums them), so what is checked here is where the untracked come
# from: each is a hold whose claim the full table refused
nh=$(stat_of holds.untracked.no_hold)
[ "$nh" -le "$full" ] ||
	fail "table full: $nh releases untracked, more than the $full claims refused"
echo "measured: table full: $full claims refused, $nh releases untracked"
[ "$timed" -ge 1 ] || fail "table full: no hold timed at all"
expect "table full: in flight at the end" "$(stat_of holds.in_flight)" 0
echo "ok: a 16-slot table overflowed ($full untracked), nothing else lost"
unload_module

load_module mode=counting
echo 1 >>$DBG/reset
contend --lock i_mmap --mode write --waiters 8 >/dev/null || fail "contend failed"
cat $DBG/stats >$STATS
expect "counting: mode.timed" "$(stat_of mode.timed)" 0
expect "counting: i_mmap write contended" "$(stat_of i_mmap.lock.write.contended)" 8
expect "counting: i_mmap write started" "$(stat_of i_mmap.lock.write.started)" 8
expect "counting: events.i_mmap_lock_start" "$(stat_of events.i_mmap_lock_start)" \
	"$(($(stat_of i_mmap.lock.read.started) + 8))"
for k in anon_vma i_mmap; do
	for m in read write; do
		expect "counting: $k $m released = acquired" \
			"$(stat_of $k.lock.$m.released)" "$(stat_of $k.lock.$m.acquired)"
		for f in holds_timed hold_ns_total wait_ns_total; do
			expect "counting: $k $m $f" "$(stat_of $k.lock.$m.$f)" 0
		done
	done
done
for f in holds.in_flight holds.untracked.table_full holds.untracked.no_hold holds.untracked.no_start; do
	expect "counting: $f" "$(stat_of $f)" 0
done
grep -q '^# top is off' $DBG/top || fail "counting: top is not off: $(head -n 2 $DBG/top)"
echo "ok: mode=counting counted 8 contended i_mmap write acquisitions and timed nothing"
unload_module

# The tables' memory: no hold table (nor top's) in counting mode, even a
# large one asked for; in timed mode both, as vmalloc's own list names them.
tables() { grep -c "$1+0x[0-9a-f]*/0x[0-9a-f]* \[mmpreempt\]" /proc/vmallocinfo || :; }
load_module mode=counting hold_slots=1048576
expect "counting: vmalloc areas of the hold table" "$(tables mmp_flight_init)" 0
expect "counting: vmalloc areas of top" "$(tables mmp_top_init)" 0
unload_module
load_module
expect "timed: vmalloc areas of the hold table" "$(tables mmp_flight_init)" 1
[ "$(tables mmp_top_init)" -ge 1 ] || fail "timed: no vmalloc area of top's: the check above could not see one"
unload_module
echo "ok: counting mode allocates no hold table, timed mode one"

# The clock: the TSC by default only when the CPU says it is invariant
# (constant_tsc and nonstop_tsc); clock=ktime never; clock=tsc whenever
# the kernel trusts it, or the load is refused saying so.
flags=$(grep -m 1 '^flags' /proc/cpuinfo)
inv=0
case " $flags " in *" constant_tsc "*) case " $flags " in *" nonstop_tsc "*) inv=1 ;; esac ;; esac
load_module
auto=$(stat_of clock.tsc)
unload_module
[ $inv = 1 ] || expect "clock=auto without an invariant TSC: clock.tsc" "$auto" 0
load_module clock=ktime
expect "clock=ktime: clock.tsc" "$(stat_of clock.tsc)" 0
unload_module
dmesg -C
if insmod "$MOD" clock=tsc 2>/dev/null; then
	expect "clock=tsc loaded: clock.tsc" "$(stat_of clock.tsc)" 1
	unload_module
	forced=loaded
else
	dmesg | grep -q 'mmpreempt: clock=tsc: the TSC is' || fail "clock=tsc refused without saying why"
	forced="refused ($(dmesg | grep 'mmpreempt: clock=tsc' | sed 's/^\[[^]]*\] //'))"
fi
echo "ok: invariant TSC: $inv; clock=auto took the TSC: $auto; clock=ktime did not; clock=tsc $forced"

# Refused when the tables would take more than half the available memory:
# the largest tables on this guest's possible CPUs, with the memory filled
# until half of what is available is below even their per-CPU sums
# (2 copies x CPUs x 2^20 x 32 bytes); loaded again once it is free.
cpus=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
sums=$((2 * cpus * 32))	# MiB
mkdir -p /tmp/fill && mount -t tmpfs -o size=100% fill /tmp/fill || fail "cannot mount a tmpfs to fill"
trap 'umount /tmp/fill 2>/dev/null' EXIT
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
fill=$((avail - sums - sums / 2))
[ "$fill" -gt 0 ] || fail "only $avail MiB available: cannot leave less than $((2 * sums)) MiB"
dd if=/dev/zero of=/tmp/fill/f bs=1M count=$fill status=none || fail "cannot fill $fill MiB"
left=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
echo "measured: $avail MiB available, $left MiB after filling $fill MiB; top's sums alone need at least $sums MiB on $cpus possible CPUs"
refused top_slots=1048576 hold_slots=1048576
dmesg | grep -q "for $cpus possible CPUs.*more than half the available memory" ||
	fail "the refusal does not give the possible CPUs ($cpus) and the memory: $(dmesg | tail -n 1)"
umount /tmp/fill && trap - EXIT
load_module top_slots=1048576 hold_slots=1048576
unload_module
echo "ok: the largest tables refused with $left MiB available, loaded with it free"
