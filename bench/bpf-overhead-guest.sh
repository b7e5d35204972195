#!/bin/sh
# The guest half of bench/bpf-overhead.sh (see there). POSIX sh.
set -eu
# The workloads run from tmpfs: under icount, guest time stays a count of
# instructions only while no I/O to the host (9p, disk) is in the timed part.
B=/tmp/bench-bin
mkdir -p $B
cp /mnt/art/bin/forktree /mnt/art/bin/unmap /mnt/art/bin/filemap $B/
T=/mnt/repo/bpf-scripts
cd /tmp
# A quiet guest before each timed run: what loading or unloading BPF
# programs leaves to workqueues and RCU must not be charged to the next run
# (idle costs nothing under icount with sleep=off).
work() {
	sync
	sleep 2
	t0=$(date +%s%N)
	$B/forktree --depth 2 --width 3 --mib 1 >/dev/null
	$B/unmap --mib 64 >/dev/null
	$B/filemap --file /tmp/bench-filemap --procs 4 --pages 64 >/dev/null
	echo $(($(date +%s%N) - t0))
}
tools=$(cd $T && ls *.bt | sed 's/\.bt$//')
work >/dev/null	# warm the page cache and the binaries
echo "workload: forktree --depth 2 --width 3 --mib 1; unmap --mib 64; filemap --procs 4 --pages 64"
echo "rounds: $ROUNDS, each tool's run between two runs without a tool (icount: ns = instructions)"
echo "medians; the spread is min-max over the runs of that column"
printf '%-16s %10s %14s %11s %14s %8s\n' tool with_ms with_min-max without_ms without_min-max ratio
for t in $tools; do
	with="" without="" r=0
	while [ $r -lt "$ROUNDS" ]; do
		a=$(work)
		: >/tmp/$t.out
		bpftrace -B line $T/$t.bt >/tmp/$t.out 2>&1 &
		p=$!
		until grep -q '^Tracing' /tmp/$t.out; do sleep 0.2; done
		w=$(work)
		kill -INT $p
		while kill -0 $p 2>/dev/null; do sleep 1; kill -INT $p 2>/dev/null || true; done
		b=$(work)
		echo "# $t round $((r + 1)): without $a, with $w, without $b ns"
		with="$with $w"
		without="$without $a $b"
		r=$((r + 1))
	done
	echo "$t | $with | $without" | awk -F'|' '
	function med(s, v,   n, i, j, x) { n = split(s, v, " ")
		for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		lo = v[1]; hi = v[n]
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
	{ mw = med($2, a); wl = lo; wh = hi; mo = med($3, b)
	  printf "%-16s %10.1f %14s %11.1f %14s %8.3f\n", $1, mw / 1e6, sprintf("%.1f-%.1f", wl / 1e6, wh / 1e6),
		mo / 1e6, sprintf("%.1f-%.1f", lo / 1e6, hi / 1e6), mw / mo }'
done
