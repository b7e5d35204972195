#!/bin/sh
# description: n waits forced behind a holder read exactly n contended; lone task 0
#   contention comes from the lock, not from a clock: a
#   single-task workload reads 0 contended acquisitions and 0 timed waits;
#   N acquisitions forced to wait behind a holder (contend + lock_hold.ko)
#   read exactly N contended, for the anon_vma and i_mmap locks in both
#   modes, in mmpreempt.ko's counters and in the trace (N start events and
#   N acquired contended=true on that lock, none elsewhere) alike, and only
#   those N waits are timed
# requires: mmpreempt.ko lock_hold.ko trace-cmd contend unmap
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
load_module
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
d=$RES/contention-exact
mkdir -p "$d"
N=3

# snap NAME: the module's stats into $d/NAME.stats, read with builtins only
snap() {
	while IFS= read -r l; do echo "$l"; done <$DBG/stats >"$d/$1.stats"
}

# 1. One task alone: every acquisition uncontended, no wait timed.
echo 1 >>$DBG/reset
unmap --mib 16 --repeat 4 >/dev/null || fail "unmap failed"
snap single
STATS=$d/single.stats
acq=0
for k in anon_vma i_mmap; do
	for m in read write; do
		expect "single task: $k $m contended" "$(stat_of $k.lock.$m.contended)" 0
		expect "single task: $k $m started" "$(stat_of $k.lock.$m.started)" 0
		expect "single task: $k $m wait_ns_total" "$(stat_of $k.lock.$m.wait_ns_total)" 0
		acq=$((acq + $(stat_of $k.lock.$m.acquired)))
	done
done
[ "$acq" -gt 0 ] || fail "single task: no acquisition at all: nothing was checked"
echo "ok: single task: $acq acquisitions, none contended"
unset STATS

# 2. N waiters behind a write holder, per lock and mode.
for k in anon_vma i_mmap; do
	for m in read write; do
		t=$d/$k-$m
		record_window "$t" $k-$m anon_vma i_mmap -- contend --lock $k --mode $m --waiters $N
		STATS=$t/stats
		in_window "$t/events.txt" "$t/window.txt"
		for k2 in anon_vma i_mmap; do
			for m2 in read write; do
				want=0
				[ $k2 = $k ] && [ $m2 = $m ] && want=$N
				expect "module: $k $m: $k2.$m2 contended" \
					"$(stat_of $k2.lock.$m2.contended)" $want
			done
		done
		waits=$(stat_of $k.lock.$m.wait_ns_total)
		[ "$waits" -gt 0 ] || fail "$k $m: $N contended but no wait timed"
		unset STATS
		# the trace: which lock the waiters named, from their start events
		key=root
		[ $k = i_mmap ] && key=mapping
		awk -v ev=${k}_lock_start -v key=$key '$5 == ev {
			for (i = 6; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' \
			"$t/window.txt" | sort | uniq -c >"$t/start-locks"
		expect "trace: $k $m: locks waited on" "$(wc -l <"$t/start-locks")" 1
		lock=$(awk '{ print $2 }' "$t/start-locks")
		mw=false
		[ $m = write ] && mw=true
		for ev in ${k}_lock_start ${k}_lock_acquired; do
			cond="f[\"$key\"] == \"$lock\" && f[\"write\"] == \"$mw\""
			[ $ev = ${k}_lock_acquired ] && cond="$cond && f[\"contended\"] == \"true\""
			expect "trace: $k $m: $ev on the held lock" "$(count "$t/window.txt" $ev "$cond")" $N
		done
		for k2 in anon_vma i_mmap; do
			want=0
			[ $k2 = $k ] && want=$N
			expect "trace: $k $m: ${k2} acquisitions contended in the window" \
				"$(count "$t/window.txt" ${k2}_lock_acquired 'f["contended"] == "true"')" $want
		done
	done
done
echo "ok: $N forced waits read as exactly $N contended, for both locks and both modes"
