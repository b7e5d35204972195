#!/bin/sh
# description: the module's count of every event equals the number of
#   those events trace-cmd recorded over the same window (trace markers
#   around a reset and a snapshot taken with shell builtins into a file
#   opened beforehand, which fire no mm event); trace-cmd must have lost
#   no event
# requires: mmpreempt.ko, trace-cmd, forktree, unmap, filemap
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
load_module
d=$RES/mod-vs-trace
mkdir -p "$d"
cd /tmp
trace-cmd record -C mono -b 16384 -o "$d/trace.dat" -e anon_vma -e i_mmap -e mmu_gather \
	-e mm_all_locks >"$d/record.log" 2>&1 &
tc=$!
sleep 5
wl() { forktree --depth 2 --width 3 && unmap --mib 32 && filemap --procs 3 --pages 32; }
window mod-vs-trace wl || fail "the workload failed"
cp /tmp/mod-vs-trace.stats "$d/stats"
kill -INT $tc
wait $tc || { cat "$d/record.log"; fail "trace-cmd record failed"; }
lost=$(sh "$REPO/guest/trace-lost.sh" "$d/trace.dat") || fail "no buffer statistics in the trace"
[ "$lost" = 0 ] || fail "trace-cmd lost $lost events (ring-buffer statistics)"
trace-cmd report -N -i "$d/trace.dat" >"$d/report.txt" 2>/dev/null || fail "trace-cmd report"
grep -q LOST "$d/report.txt" && fail "trace-cmd report shows lost events"
awk '/MMPREEMPT-WINDOW-START/ { on = 1; next } /MMPREEMPT-WINDOW-END/ { on = 0 }
	on && $4 ~ /:$/ { e = substr($4, 1, length($4) - 1); n[e]++ }
	END { for (e in n) print e, n[e] }' "$d/report.txt" | sort >"$d/trace-counts"
bad=0 n=0
while read -r name count; do
	ev=${name#events.}
	[ "$ev" = "$name" ] && continue
	t=$(awk -v e="$ev" '$1 == e { print $2 }' "$d/trace-counts")
	n=$((n + 1))
	if [ "${t:-0}" != "$count" ]; then echo "FAIL: $ev: module $count, trace ${t:-0}"; bad=1; fi
done <"$d/stats"
[ $n -eq 21 ] || fail "$n events in stats, want 21"
[ $bad -eq 0 ] || fail "module and trace disagree"
echo "ok: 21 event counts equal ($(awk '{ s += $2 } END { print s }' "$d/trace-counts") events in the window)"
