# Sourced by guest tests that compare mmpreempt.ko's event counts with a
# trace of the same window (lib/window.sh). POSIX sh.
#
# vs_trace DIR CMD...: trace-cmd records every event system in the
# background while CMD runs inside a window (a module reset and a start
# marker before it, an end marker and a snapshot of the stats after it);
# then each of the 21 events.* counts of the snapshot must equal the number
# of those events in the window, and trace-cmd must have lost none. Fails
# the test otherwise; prints one "ok:" line with the window's event total.
vs_trace() {
	_vd=$1
	shift
	mkdir -p "$_vd"
	trace-cmd record -C mono -b 16384 -o "$_vd/trace.dat" -e anon_vma -e i_mmap -e mmu_gather \
		-e mm_all_locks >"$_vd/record.log" 2>&1 &
	_tc=$!
	# trace-cmd has started recording once its per-CPU recorders run
	sleep 5
	window vs-trace "$@" || { kill -INT $_tc; wait $_tc; fail "the workload failed: $*"; }
	cp /tmp/vs-trace.stats "$_vd/stats"
	kill -INT $_tc
	wait $_tc || { cat "$_vd/record.log"; fail "trace-cmd record failed"; }
	_lost=$(sh "$REPO/guest/trace-lost.sh" "$_vd/trace.dat") || fail "no buffer statistics in the trace"
	[ "$_lost" = 0 ] || fail "trace-cmd lost $_lost events (ring-buffer statistics)"
	trace-cmd report -N -i "$_vd/trace.dat" >"$_vd/report.txt" 2>/dev/null || fail "trace-cmd report"
	grep -q LOST "$_vd/report.txt" && fail "trace-cmd report shows lost events"
	awk '/MMPREEMPT-WINDOW-START/ { on = 1; next } /MMPREEMPT-WINDOW-END/ { on = 0 }
		on && $4 ~ /:$/ { e = substr($4, 1, length($4) - 1); n[e]++ }
		END { for (e in n) print e, n[e] }' "$_vd/report.txt" | sort >"$_vd/trace-counts"
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
