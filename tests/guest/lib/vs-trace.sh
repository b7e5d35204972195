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
# runs in a child sh: it cannot be a function of the test.
vs_trace() {
	_vd=$1
	shift
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
