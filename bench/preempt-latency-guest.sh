#!/bin/sh
# The guest half of bench/preempt-latency.sh (see there). POSIX sh.
set -eu
DBG=/sys/kernel/debug
model=$DBG/sched/preempt
sw=$DBG/mm/tlb_preempt_points
[ -w $model ] || { echo "no $model (CONFIG_SCHED_DEBUG)" >&2; exit 1; }
[ -w $sw ] || { echo "no $sw (patches/0002)" >&2; exit 1; }
[ -e /dev/hmm_dmirror0 ] || insmod /mnt/art/modules/test_hmm.ko
trap 'echo full >$model; echo Y >$sw' EXIT
B=/tmp/bench-bin
mkdir -p $B
cp /mnt/art/bin/unmap /mnt/art/bin/forktree /mnt/art/bin/alllocks $B/	# no 9p I/O while timed
cd /tmp
MIB=${MIB:-1024} ROOTS=${ROOTS:-2000}
# one WORK: cyclictest (SCHED_FIFO 90, 1 ms period, a histogram in us) on
# CPU 0 while WORK runs there (the only CPU under bench/preempt-latency.sh);
# prints "max p99 samples overflows"
one() {
	cyclictest -q -m -t 1 -a 0 -p 90 -i 1000 -h 100000 >/tmp/cy.out 2>&1 &
	cy=$!
	sleep 1
	case $1 in
	munmap) taskset -c 0 $B/unmap --mib "$MIB" >/dev/null ;;
	exit) taskset -c 0 $B/forktree --depth 0 --mib "$MIB" >/dev/null ;;
	alllocks) taskset -c 0 $B/alllocks --roots "$ROOTS" --files 0 >/dev/null ;;
	esac
	sleep 1
	kill -INT $cy
	wait $cy || :
	awk '
	/^[0-9]+ +[0-9]+$/ { b = $1 + 0; c = $2 + 0; n[b] = c; tot += c; if (b > top) top = b; next }
	/^# Max Latencies:/ { max = $4 + 0 }
	/^# Histogram Overflows:/ { of = $4 + 0 }
	END {
		all = tot + of
		if (!all) { print "cyclictest printed no histogram" > "/dev/stderr"; exit 1 }
		want = all * 0.99; s = 0; p99 = -1
		for (b = 0; b <= top; b++) { s += n[b]; if (s >= want) { p99 = b; break } }
		printf "%d %s %d %d\n", max, p99 < 0 ? ">100000" : p99, all, of
	}' /tmp/cy.out
}
echo "cyclictest wake-up latency (us of guest time) on the one CPU that runs the work;"
echo "work: munmap = unmap --mib $MIB; exit = a process with $MIB MiB written exits;"
echo "alllocks = mm_take_all_locks over $ROOTS anon_vma roots (test_hmm's mmu_notifier)"
printf '%-10s %-7s %-9s %10s %9s %8s %9s\n' model points work max_us p99_us samples overflow
for m in none voluntary full; do
	for p in Y N; do
		echo $m >$model
		echo $p >$sw
		for w in munmap exit alllocks; do
			# shellcheck disable=SC2046 # one's four figures, as fields
			set -- $(one $w)
			printf '%-10s %-7s %-9s %10s %9s %8s %9s\n' $m $p $w "$1" "$2" "$3" "$4"
		done
	done
done
