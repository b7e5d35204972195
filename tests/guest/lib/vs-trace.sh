# Sourced by guest tests that compare mmpreempt.ko's event counts with a
# trace of the same window (lib/window.sh). POSIX sh.
#
# vs_trace DIR CMD...: trace-cmd records every event system while CMD runs
# inside a window (lib/window.sh record_window: a module reset and a start
# marker before it, an end marker and a snapshot of the stats after it);
# then each of the 21 events.* counts of the snapshot must equal the number
# of those events in the window, and trace-cmd must have lost none (record,
# lib/trace.sh). Fails the test otherwise; prints one "ok:" line with the
# window's event total. Needs lib/trace.sh and lib/window.sh sourced. CMD
# runs in a child sh: it cannot be a function of the test. Records with
# ns timestamps (RECORD_NS=1) for vs_trace_figures.
. "$LIB/hist.sh"
vs_trace() {
	_vd=$1
	shift
	RECORD_NS=1
	record_window "$_vd" vs-trace anon_vma i_mmap mmu_gather mm_all_locks -- "$@"
	in_window "$_vd/events.txt" "$_vd/window.txt"
	awk '{ n[$5]++ } END { for (e in n) print e, n[e] }' "$_vd/window.txt" | sort >"$_vd/trace-counts"
	_bad=0 _n=0
	while read -r _name _count; do
		_ev=${_name#events.}
		[ "$_ev" = "$_name" ] && continue
		_t=$(awk -v e="$_ev" '$1 == e { print $2 }' "$_vd/trace-counts")
		_n=$((_n + 1))
		if [ "${_t:-0}" != "$_count" ]; then echo "FAIL: $_ev: module $_count, trace ${_t:-0}"; _bad=1; fi
	done <"$_vd/stats"
	[ $_n -eq 21 ] || fail "$_n events in stats, want 21"
	[ $_bad -eq 0 ] || fail "module and trace disagree ($_vd)"
	echo "ok: 21 event counts equal ($(awk '{ s += $2 } END { print s }' "$_vd/trace-counts") events in the window)"
}

# vs_trace_figures DIR: after vs_trace, the figures the trace of the window
# gives besides the event counts. Exact: each page histogram (the entries of
# each flush and of each preemption point, no clock in them) and each kind
# and mode's holds_timed (the holds the trace pairs, lib/holds.awk). Within
# CLOCK_GAP_NS: gather_ns_max against the longest gather the trace pairs,
# and the gather length histogram (hist_vs_intervals). Printed, unchecked:
# hold_ns_total per kind and mode beside the trace's sum of the same holds
# (their holds are a few us: the bound would exceed the sums).
vs_trace_figures() {
	_vd=$1
	STATS=$_vd/stats
	for _h in flush resched; do
		events_awk -v ev=mmu_gather_$_h '$5 == ev { print f["pages"] }' "$_vd/window.txt" |
			slot_rows >"$_vd/trace-$_h-pages"
		hist_rows mmu_gather_${_h}_pages "$_vd/hist" >"$_vd/module-$_h-pages"
		[ -s "$_vd/trace-$_h-pages" ] ||
			fail "no mmu_gather_$_h event in the window: its page histogram compares nothing"
		expect "mmu_gather_${_h}_pages (slot low edge, count) vs the trace" \
			"$(tr '\n' ' ' <"$_vd/module-$_h-pages")" "$(tr '\n' ' ' <"$_vd/trace-$_h-pages")"
	done
	events_awk "$(cat "$LIB/hold-pairs.awk" "$LIB/holds.awk")" "$_vd/events.txt" >"$_vd/holds"
	_all=0
	for _k in anon_vma i_mmap; do
		for _m in read write; do
			awk -v k=$_k -v m=$_m '$2 == k && $3 == m { print $4 }' "$_vd/holds" >"$_vd/holds-$_k-$_m"
			_n=$(wc -l <"$_vd/holds-$_k-$_m")
			_all=$((_all + _n))
			expect "$_k $_m holds_timed vs the holds the trace pairs" \
				"$(stat_of $_k.lock.$_m.holds_timed)" "$_n"
			_tns=$(awk '{ s += $1 } END { printf "%.0f", s }' "$_vd/holds-$_k-$_m")
			_mns=$(stat_of $_k.lock.$_m.hold_ns_total)
			echo "measured: $_k $_m: $_n holds, hold_ns_total module $_mns, trace $_tns ($((_mns - _tns)) ns apart)"
		done
	done
	# gathers: start to finish of one (task, tlb), finished in the window
	events_awk '/MMPREEMPT-WINDOW-START/ { on = 1; next } /MMPREEMPT-WINDOW-END/ { on = 0; next }
		$5 == "mmu_gather_start" { st[$3, f["tlb"]] = $1 * 1e9; next }
		$5 == "mmu_gather_finish" && (($3, f["tlb"]) in st) {
			if (on) printf "%.0f\n", $1 * 1e9 - st[$3, f["tlb"]]
			delete st[$3, f["tlb"]] }' "$_vd/events.txt" >"$_vd/gathers"
	[ -s "$_vd/gathers" ] || fail "no gather in the window: the gather figures compare nothing"
	near "mmu_gather.gather_ns_max" "$(stat_of mmu_gather.gather_ns_max)" \
		"$(awk '$1 > x { x = $1 } END { printf "%.0f", x }' "$_vd/gathers")" "$CLOCK_GAP_NS"
	hist_rows mmu_gather_gather_ns "$_vd/hist" >"$_vd/module-gathers"
	hist_vs_intervals "mmu_gather_gather_ns" "$_vd/module-gathers" "$_vd/gathers" "$CLOCK_GAP_NS"
	unset STATS
	[ $_all -gt 0 ] || fail "no hold in the window: holds_timed compares nothing"
}


# vs_trace_counts DIR: the counters the event counts do not give, each
# exact against the window's events: gathers_nested (finish nested=true),
# preemption_points_pending (resched need_resched=true) and each kind and
# mode's trylock_failed (acquired success=false). Prints them; a test that
# needs one non-zero checks it.
vs_trace_counts() {
	_vd=$1
	STATS=$_vd/stats
	expect "mmu_gather.gathers_nested vs the finish events with nested=true" \
		"$(stat_of mmu_gather.gathers_nested)" \
		"$(count "$_vd/window.txt" mmu_gather_finish 'f["nested"] == "true"')"
	expect "mmu_gather.preemption_points_pending vs the resched events with need_resched=true" \
		"$(stat_of mmu_gather.preemption_points_pending)" \
		"$(count "$_vd/window.txt" mmu_gather_resched 'f["need_resched"] == "true"')"
	for _k in anon_vma i_mmap; do
		for _m in read write; do
			_w=false
			[ $_m = write ] && _w=true
			expect "$_k $_m trylock_failed vs the acquired events with success=false" \
				"$(stat_of $_k.lock.$_m.trylock_failed)" \
				"$(count "$_vd/window.txt" ${_k}_lock_acquired "f[\"success\"] == \"false\" && f[\"write\"] == \"$_w\"")"
		done
	done
	unset STATS
}

# vs_trace_top DIR: top's rows of the window against the trace's anon_vma
# roots (lib/top-roots.awk): the same multiset of (holds, anon_vmas,
# state), exactly, and no hold outside the rows. Needs the module loaded
# with top_n large enough for every root (the "in no row" line must read 0
# holds); a root's id is not its address, so rows match by their columns.
vs_trace_top() {
	_vd=$1
	awk 'NR > 1 && !/^#/ { print $4, $5, $6, $2 }' "$_vd/top" | sort >"$_vd/top-rows-ns"
	events_awk "$(cat "$LIB/hold-pairs.awk" "$LIB/top-roots.awk")" "$_vd/events.txt" | sort >"$_vd/trace-roots-ns"
	cut -d' ' -f1-3 "$_vd/top-rows-ns" >"$_vd/top-rows"
	cut -d' ' -f1-3 "$_vd/trace-roots-ns" >"$_vd/trace-roots"
	[ -s "$_vd/trace-roots" ] || fail "no anon_vma hold in the window: top compares nothing"
	expect "top: holds in no row" \
		"$(awk '/^# in no row/ { for (i = 1; i <= NF; i++) if ($i == "holds") print $(i + 1) }' "$_vd/top")" 0
	if ! cmp -s "$_vd/top-rows" "$_vd/trace-roots"; then
		diff "$_vd/top-rows" "$_vd/trace-roots" | head -20
		fail "top's rows (holds anon_vmas state) differ from the trace's roots (< top, > trace)"
	fi
	echo "ok: top: $(wc -l <"$_vd/top-rows") rows equal the trace's roots in holds, anon_vmas and state ($(grep -c freed "$_vd/top-rows") freed)"
	# hold_ns: the rows that share their (holds, anon_vmas, state) are the
	# same number of roots in the trace (above), but which is which cannot
	# be told: per such group, the rows' hold_ns summed within CLOCK_GAP_NS +
	# its holds * HOLD_GAP_NS of the group's holds summed in the trace (a
	# group of one is one row against one root)
	awk -v eps="$CLOCK_GAP_NS" -v gap="$HOLD_GAP_NS" '
		{ k = $1 " " $2 " " $3; n[FILENAME, k]++; v[FILENAME, k] += $4; keys[k] = $1 }
		END {
			for (k in keys) {
				d = v[ARGV[1], k] - v[ARGV[2], k]
				if (d < 0) d = -d
				c++
				if (n[ARGV[1], k] == 1) one++
				if (d > eps + keys[k] * n[ARGV[1], k] * gap) { printf "FAIL: top rows %s (%d): hold_ns %s, trace %s\n", k, n[ARGV[1], k], v[ARGV[1], k], v[ARGV[2], k]; bad = 1 }
				if (d > worst) worst = d
			}
			printf "%d groups of rows (%d of one row), the farthest %d ns from the trace\n", c, one, worst
			exit bad || !c
		}' "$_vd/top-rows-ns" "$_vd/trace-roots-ns" >"$_vd/top-ns" ||
		{ cat "$_vd/top-ns"; fail "top's hold_ns per root against the trace (or no row to compare)"; }
	echo "ok: top hold_ns: $(cat "$_vd/top-ns")"
}

# vs_trace_lost DIR: a window of a module loaded with top_n=1, so that the
# "in no row" line carries every root but one: its holds plus the row's
# equal the anon_vma holds the trace pairs (exact, the lost ones non-zero),
# and its hold_ns plus the row's their sum within CLOCK_GAP_NS + holds *
# HOLD_GAP_NS
vs_trace_lost() {
	_vd=$1
	events_awk "$(cat "$LIB/hold-pairs.awk" "$LIB/top-roots.awk")" "$_vd/events.txt" >"$_vd/trace-roots-ns"
	# shellcheck disable=SC2046 # its figures as fields
	set -- $(awk '/^# in no row/ { for (i = 1; i <= NF; i++) { if ($i == "holds") h = $(i + 1); if ($i == "hold_ns") n = $(i + 1) } }
		NR > 1 && !/^#/ { rh += $4; rn += $2; rows++ }
		END { print h + 0, n + 0, rh + 0, rn + 0, rows + 0 }' "$_vd/top")
	_lh=$1 _ln=$2 _rh=$3 _rn=$4
	expect "top_n=1: rows" "$5" 1
	[ "$_lh" -gt 0 ] || fail "top_n=1: no hold in the lost line: it compares nothing"
	# shellcheck disable=SC2046 # as above
	set -- $(awk '{ h += $1; n += $4 } END { printf "%d %.0f\n", h, n }' "$_vd/trace-roots-ns")
	expect "top's lost holds + its row's vs the trace's anon_vma holds" $((_lh + _rh)) "$1"
	near "top's lost hold_ns + its row's vs the trace" $((_ln + _rn)) "$2" $((CLOCK_GAP_NS + $1 * HOLD_GAP_NS))
	echo "ok: top's lost line: $_lh holds, $_ln ns"
}
