#!/bin/sh
# demo.sh: the short end-to-end demo. Boots the patched guest, records a
# forktree workload with trace-cmd (sched and mm events: the mmpreempt event
# systems join as they land), and leaves results/demo/trace.dat for
# kernelshark. Overhead: one guest boot plus a few seconds of tracing.
set -eu
. "$(dirname "$0")/lib.sh"

res=$TOP/results/demo
rm -rf "$res"
mkdir -p "$res"
# Record every event system of the kit that this kernel has, plus the
# scheduler events that make preemption visible on the timeline.
"$TOP/guest/run.sh" -r "$res" -- '
	ev="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_fork -e sched:sched_process_exit"
	for sys in anon_vma i_mmap mmu_gather mm_all_locks; do
		[ -d /sys/kernel/tracing/events/$sys ] && ev="$ev -e $sys"
	done
	echo "demo: trace-cmd record $ev"
	trace-cmd record -q -o /mnt/results/trace.dat $ev forktree --depth 3 --width 2 --mib 4 &&
	trace-cmd report --stat -i /mnt/results/trace.dat >/mnt/results/trace-stat.txt 2>&1 &&
	uname -r >/mnt/results/kernel.release'
events=$(trace-cmd report -i "$res/trace.dat" 2>/dev/null | grep -c ': *[a-z_]*: ' || true)
echo
echo "demo: $events events recorded on $(cat "$res/kernel.release") in $res/trace.dat"
trace-cmd report -i "$res/trace.dat" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_]+:$/ && i > 3) { n[$i]++; break } }
	END { for (e in n) printf "  %-24s %d\n", e, n[e] }' | sort
echo "demo: open it with: kernelshark $res/trace.dat"
