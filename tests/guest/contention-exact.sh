#!/bin/sh
# description: n waits forced behind a holder read exactly n contended; lone task 0
#   contention comes from the lock, not from a clock: a
#   single-task workload reads 0 contended acquisitions and 0 timed waits;
#   N acquisitions forced to wait behind a holder (contend + lock_hold.ko)
#   read exactly N contended, for the anon_vma and i_mmap locks in both
#   modes, in mmpreempt.ko's counters and in the trace (N start events and
#   N acquired contended=true on that lock, none elsewhere) alike, and only
#   those N waits are timed. The time figures against the trace of the same
#   window (ns timestamps; lib/lock-times.awk pairs start to contended
#   acquired, acquired to release): wait_ns_max within EPS of the trace's
#   longest wait, wait_ns_total within N * EPS of its sum, the wait
#   histogram bucket by bucket (the holder holds 2 s, so each wait, about
#   1.5 s, lies far from the edges of [1G, 2G)), the holder's hold in
#   hold_ns_max within EPS, and for anon_vma the held root's top row with
#   every wait (within N * EPS); per mode, holds_timed exactly, hold_ns_total
#   within EPS + holds * HOLD_GAP_NS, hold_ns_max within EPS and the hold
#   histogram (exact for holds EPS from an edge, the 2 s one among them);
#   each compared value non-zero. EPS (50 ms, lib/common.sh CLOCK_GAP_NS)
#   bounds what lies between the module's clock read and the trace's in one
#   tracepoint call. Then N trylocks behind a holder (contend --try), for
#   each traced trylock: trylock_failed reads N in the module and the trace;
#   and, loaded with top_n=1, a second contended root's waits in top's lost
#   line (non-zero; row + lost within 2 * N * EPS of the trace's waits)
# requires: mmpreempt.ko lock_hold.ko trace-cmd contend unmap
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
. "$(dirname "$0")/lib/hist.sh"
load_module
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
d=$RES/contention-exact
mkdir -p "$d"
N=3
RECORD_NS=1	# the trace's timestamps to the ns (lib/trace.sh)

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

# lock_times DIR KIND MODE: the module's wait and hold figures of one window
# against the intervals the trace pairs there (lib/lock-times.awk). The
# module's probe and the trace each read the clock once per event, within
# the same tracepoint call: EPS per interval bounds what lies between the
# two reads (lib/common.sh: the host may deschedule the vCPU between them).
EPS=$CLOCK_GAP_NS
lock_times() {
	_t=$1 _k=$2 _m=$3
	events_awk -v kind="$_k" "$(cat "$LIB/hold-pairs.awk" "$LIB/lock-times.awk")" "$_t/window.txt" >"$_t/intervals"
	STATS=$_t/stats
	awk -v m="$_m" '$1 == "wait" && $2 == m' "$_t/intervals" >"$_t/waits"
	expect "trace: $_k $_m: waits paired" "$(wc -l <"$_t/waits")" $N
	# the wait figures: the maximum within EPS, the total within N * EPS
	near "$_k $_m wait_ns_max" "$(stat_of $_k.lock.$_m.wait_ns_max)" \
		"$(awk '$3 > x { x = $3 } END { print x + 0 }' "$_t/waits")" $EPS
	near "$_k $_m wait_ns_total" "$(stat_of $_k.lock.$_m.wait_ns_total)" \
		"$(awk '{ s += $3 } END { printf "%.0f", s }' "$_t/waits")" $((N * EPS))
	# the histogram, bucket by bucket: exact where no wait lies within EPS
	# of a bucket's edge (the slot of v >= 2 covers [2^(i-1), 2^i))
	awk -v eps=$EPS '{ for (lo = 1; lo * 2 <= $3; lo *= 2); if ($3 - lo <= eps || 2 * lo - $3 <= eps)
			{ print "edge", $3; exit 1 } print lo }' "$_t/waits" >"$_t/wait-slots" ||
		fail "$_k $_m: a wait lies within $EPS ns of a bucket edge: the histogram cannot be compared exactly"
	sort -n "$_t/wait-slots" | uniq -c | awk '{ print $2, $1 }' >"$_t/trace-hist"
	hist_rows "${_k}_${_m}_wait_ns" "$_t/hist" >"$_t/module-hist"
	expect "$_k $_m wait histogram (bucket low edge, waits) vs the trace" \
		"$(tr '\n' ' ' <"$_t/module-hist")" "$(tr '\n' ' ' <"$_t/trace-hist")"
	# the holder's hold (always a write): the longest write hold, both ways
	near "$_k write hold_ns_max" "$(stat_of $_k.lock.write.hold_ns_max)" \
		"$(awk '$1 == "hold" && $2 == "write" && $3 > x { x = $3 } END { print x + 0 }' "$_t/intervals")" $EPS
	hold_figures "$_t" "$_k"
	# top: anon_vma roots only. The held root's row carries every wait
	if [ "$_k" = anon_vma ]; then
		awk 'NR > 1 && !/^#/ && $3 > 0 { print $3 }' "$_t/top" >"$_t/top-waits"
		expect "$_k $_m: top rows with waits" "$(wc -l <"$_t/top-waits")" 1
		near "$_k $_m: top's wait_ns of the held root" "$(cat "$_t/top-waits")" \
			"$(awk '{ s += $3 } END { printf "%.0f", s }' "$_t/waits")" $((N * EPS))
	else
		expect "$_k $_m: top's wait_ns (top has anon_vma roots only)" \
			"$(awk 'NR > 1 && !/^#/ { s += $3 } END { print s + 0 }' "$_t/top")" 0
	fi
	unset STATS
}

# hold_figures DIR KIND: the module's hold figures of the window against
# the holds the trace pairs (lib/holds.awk: released in the window, wherever
# they began), per mode: holds_timed exactly; hold_ns_total within EPS + N *
# HOLD_GAP_NS (N holds: one deschedule of the vCPU, and the few us between
# the module's clock read and the trace's per interval); the longest hold
# within EPS both ways; and the hold histogram bucket by bucket, exact for
# each hold further than EPS from a bucket edge, either neighbour for the
# others (each bucket between the holds certainly in it and those possibly
# in it, the counts summing to N). The window's 2 s hold lies 147 ms below
# the edge of [1G, 2G), so the write histogram places it exactly.
hold_figures() {
	events_awk "$(cat "$LIB/hold-pairs.awk" "$LIB/holds.awk")" "$1/events.txt" |
		awk -v k="$2" '$2 == k { print $3, $4 }' >"$1/holds"
	for _hm in read write; do
		awk -v m=$_hm '$1 == m { print $2 }' "$1/holds" >"$1/holds-$_hm"
		_n=$(wc -l <"$1/holds-$_hm")
		expect "$2 $_hm holds_timed vs the holds the trace pairs" \
			"$(stat_of $2.lock.$_hm.holds_timed)" "$_n"
		[ "$_n" -gt 0 ] || continue
		near "$2 $_hm hold_ns_total" "$(stat_of $2.lock.$_hm.hold_ns_total)" \
			"$(awk '{ s += $1 } END { printf "%.0f", s }' "$1/holds-$_hm")" $((EPS + _n * HOLD_GAP_NS))
		near "$2 $_hm hold_ns_max" "$(stat_of $2.lock.$_hm.hold_ns_max)" \
			"$(awk '$1 > x { x = $1 } END { printf "%.0f", x }' "$1/holds-$_hm")" $EPS
		hist_rows "${2}_${_hm}_hold_ns" "$1/hist" >"$1/module-hold-$_hm"
		hist_vs_intervals "$2 $_hm hold histogram" "$1/module-hold-$_hm" "$1/holds-$_hm" $EPS
	done
}

# 2. N waiters behind a write holder, per lock and mode.
for k in anon_vma i_mmap; do
	for m in read write; do
		t=$d/$k-$m
		record_window "$t" $k-$m anon_vma i_mmap -- contend --lock $k --mode $m --waiters $N --hold-ms 2000
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
		lock_times "$t" $k $m
	done
done
echo "ok: $N forced waits read as exactly $N contended, for both locks and both modes"

# 3. N trylocks behind a write holder, for each traced trylock (i_mmap read
# and write, anon_vma read): each fails, and trylock_failed reads exactly N
# in the module and in the trace (acquired success=false on that lock).
for km in i_mmap:read i_mmap:write anon_vma:read; do
	k=${km%:*} m=${km#*:}
	t=$d/$k-try$m
	record_window "$t" $k-try$m anon_vma i_mmap -- \
		contend --lock $k --mode $m --waiters $N --hold-ms 500 --try
	in_window "$t/events.txt" "$t/window.txt"
	mw=false
	[ $m = write ] && mw=true
	STATS=$t/stats
	expect "module: $k $m trylock_failed" "$(stat_of $k.lock.$m.trylock_failed)" $N
	unset STATS
	expect "trace: $k $m: failed trylocks" \
		"$(count "$t/window.txt" ${k}_lock_acquired "f[\"success\"] == \"false\" && f[\"write\"] == \"$mw\"")" $N
done

# 4. top's lost line with waits in it: loaded with top_n=1, two anon_vma
# roots each get N waiters, the first behind a 2 s hold, the second behind
# a 1 s one. The first holds longer, so it is top's row, and the second's
# waits go to the lost line: non-zero there, and the row's waits plus the
# lost line's equal every wait the trace pairs in the window, within
# 2 * N * EPS.
unload_module
load_module top_n=1
t=$d/anon_vma-lost
record_window "$t" anon_vma-lost anon_vma i_mmap -- sh -c \
	"contend --lock anon_vma --mode write --waiters $N --hold-ms 2000 &&
	 contend --lock anon_vma --mode write --waiters $N --hold-ms 1000"
in_window "$t/events.txt" "$t/window.txt"
events_awk -v kind=anon_vma "$(cat "$LIB/hold-pairs.awk" "$LIB/lock-times.awk")" "$t/window.txt" >"$t/intervals"
expect "trace: waits paired in the two-root window" "$(awk '$1 == "wait"' "$t/intervals" | wc -l)" $((2 * N))
lost=$(awk '/^# in no row/ { for (i = 1; i <= NF; i++) if ($i == "wait_ns") print $(i + 1) }' "$t/top")
row=$(awk 'NR > 1 && !/^#/ { print $3 }' "$t/top")
[ "${lost:-0}" -gt 0 ] || fail "top_n=1: no wait in the lost line: the second root's waits went elsewhere"
near "top's row wait_ns + lost wait_ns" $((row + lost)) \
	"$(awk '$1 == "wait" { s += $3 } END { printf "%.0f", s }' "$t/intervals")" $((2 * N * EPS))
echo "ok: top's lost line: wait_ns $lost (the second root's $N waits)"
# later tests load the module with their own parameters
unload_module
