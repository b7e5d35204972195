#!/bin/sh
# The guest half of bench/bpf-overhead.sh (see there). POSIX sh.
set -eu
B=/mnt/art/bin
T=/mnt/repo/bpf-scripts
cd /tmp
work() {
	t0=$(date +%s%N)
	$B/forktree --depth 2 --width 3 --mib 1 >/dev/null
	$B/unmap --mib 64 >/dev/null
	$B/filemap --procs 4 --pages 64 >/dev/null
	echo $(($(date +%s%N) - t0))
}
tools=$(cd $T && ls *.bt | sed 's/\.bt$//')
work >/dev/null	# warm the page cache and the binaries
echo "workload: forktree --depth 2 --width 3 --mib 1; unmap --mib 64; filemap --procs 4 --pages 64"
echo "rounds: $ROUNDS, each tool's run between two runs without a tool (icount: ns = instructions)"
printf '%-16s %14s %14s %8s\n' tool "with (ms)" "without (ms)" ratio
for t in $tools; do
	with=0 without=0 r=0
	while [ $r -lt "$ROUNDS" ]; do
		a=$(work)
		bpftrace -B line $T/$t.bt >/tmp/$t.out 2>&1 &
		p=$!
		until grep -q '^Tracing' /tmp/$t.out; do sleep 0.2; done
		w=$(work)
		kill -INT $p
		while kill -0 $p 2>/dev/null; do sleep 1; kill -INT $p 2>/dev/null || true; done
		b=$(work)
		with=$((with + w))
		without=$((without + (a + b) / 2))
		r=$((r + 1))
	done
	awk -v t="$t" -v w="$with" -v o="$without" -v n="$ROUNDS" 'BEGIN {
		printf "%-16s %14.3f %14.3f %8.3f\n", t, w / n / 1e6, o / n / 1e6, w / o }'
done
