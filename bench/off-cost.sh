#!/bin/sh
# off-cost.sh: what the series costs mm paths with every trace event off,
# against stock linux-source-6.1 built with the same config.
#
# MEASURES: mmops (workloads) on every kind of mm operation whose code
#   the series or its events change (a matrix of 16 paths: the anon_vma
#   lifecycle per VMA and per fork, VMA split/merge, mremap, file mmap and
#   truncate, THP collapse, file and anonymous reclaim, KSM merge and
#   unmerge, migration, mm_take_all_locks, the gather on exit, munmap and
#   MADV_DONTNEED;
#   workloads/mmops.c says what each runs), ROUNDS
#   times each, in one boot of the stock kernel (VARIANT=stock) and one of
#   the patched kernel (events off: nothing enables them). mmops times each
#   operation alone; a round's figure is the median of those (its mean also
#   counts whatever else the guest did in some rounds and not others). The
#   KSM paths' figures are ksmd's own run time (mmops says how). Reports
#   per path the median of the rounds on
#   each kernel, with their spread, and the patched kernel's cost relative
#   to stock, in instructions per operation and in percent. A path the
#   guest cannot run says why in a "#" line.
# NEEDS: make kernel rootfs workloads, and the stock kernel (built here if
#   missing: VARIANT=stock guest/kernel.sh, about 30 CPU-minutes cold).
#   Boots with ICOUNT=1 (one guest ns per instruction: reproducible, not
#   real-hardware latencies), SMP=1, two NUMA nodes (the second memory only).
# OVERHEAD: two boots, 3 to 5 minutes at ROUNDS=5 (ICOUNT); SMOKE=1: the patched
#   kernel only, 1 round of 2 operations a path (bench-smoke in make test
#   runs the guest half so).
# Output: results/bench/off-cost.txt (and .raw, and .stamp: what it ran on);
#   the table goes to bench/RESULTS.md (bench/summary.sh).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "off-cost.sh (settings in the environment: ROUNDS SMOKE MEM PATHS)" 0 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench
mkdir -p "$res"
ROUNDS=${ROUNDS:-5}
kernels="stock normal"
[ "${SMOKE:-0}" = 1 ] && { kernels=normal ROUNDS=1; }
: >"$res/off-cost.raw"
for k in $kernels; do
	if [ "$k" = stock ]; then
		VARIANT=stock "$TOP/guest/kernel.sh" >/dev/null
	fi
	# the workloads, and this kernel's own test_hmm.ko (the notifier path)
	art=$res/off-cost-art-$k
	rm -rf "$art" && mkdir -p "$art/bin" "$art/modules"
	cp "$TOP/build/bin/mmops" "$art/bin/"
	kdir=${CACHE:-$HOME/.cache/mmpreempt}/kernel/current
	[ "$k" = normal ] || kdir=$kdir-$k
	cp "$kdir/test_hmm.ko" "$art/modules/"
	ART=$art VARIANT=$k ICOUNT=1 SMP=1 NUMA=2 MEM=${MEM:-1024} QUIET=1 "$TOP/guest/run.sh" -r "$res/off-cost-$k" -- "
ROUNDS=$ROUNDS SMOKE=${SMOKE:-0} PATHS='${PATHS:-}' sh /mnt/repo/bench/off-cost-guest.sh >/mnt/results/off-cost.txt 2>&1"
	sed "s/^/$k /" "$res/off-cost-$k/off-cost.txt" >>"$res/off-cost.raw"
	runs="${runs:-} $res/off-cost-$k"
done
# shellcheck disable=SC2086 # the run folders, one word each
"$TOP/bench/stamp.sh" "$res" off-cost $runs
{
	echo "rounds $ROUNDS per path and kernel; units: ns per operation under icount (= instructions),"
	echo "each round's figure the median of its operations timed one by one"
	echo "paths (workloads/mmops.c): fork (+COW +exit), fault (32 MiB +munmap), file (1 MiB mmap +truncate),"
	echo "migrate (128 pages there and back), page (1 anon page mmap +write +munmap), forkvmas (fork of 128"
	echo "one-page VMAs), split (mprotect a middle page and back), mremap (16 pages there and back),"
	echo "filepage (1 tmpfs page mmap +munmap), collapse (512 pages MADV_COLLAPSE), pageout (64 file pages),"
	echo "notifier (fork + mmu notifier: mm_take_all_locks), dontneed (256 pages), ksmmerge (64 pages,"
	echo "ksmd's run time), ksmunmerge (64 pages + ksmd's scan after), swapout (64 anon pages to zram)"
	awk '
	$1 !~ /^#/ && NF >= 4 { k = $1; p = $3; n[k, p]++; v[k, p, n[k, p]] = $4; paths[p] = 1; ks[k] = 1 }
	function med(k, p,   i, j, t, c, a) { c = n[k, p]
		for (i = 1; i <= c; i++) a[i] = v[k, p, i]
		for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		lo = a[1]; hi = a[c]
		return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2 }
	function fig(x) { return x ? sprintf("%.1f", x) : "-" }
	function span(x, l, h) { return x ? sprintf("%.1f-%.1f", l, h) : "-" }
	END {
		printf "%-10s %14s %22s %14s %22s %10s %10s\n", "path", "stock_ns", "stock_min-max", "patched_ns", "patched_min-max", "diff_ns", "diff_pct"
		np = split("fork fault file migrate page forkvmas split mremap filepage collapse pageout notifier dontneed ksmmerge ksmunmerge swapout", order, " ")
		for (i = 1; i <= np; i++) {
			p = order[i]
			if (!(p in paths))
				continue
			lo = hi = 0; s = ("stock", p) in n ? med("stock", p) : 0; slo = lo; shi = hi
			lo = hi = 0; q = ("normal", p) in n ? med("normal", p) : 0; qlo = lo; qhi = hi
			printf "%-10s %14s %22s %14s %22s %10s %10s\n", p, fig(s), span(s, slo, shi), fig(q), span(q, qlo, qhi),
				s && q ? sprintf("%+.1f", q - s) : "-", s && q ? sprintf("%+.3f%%", (q - s) * 100 / s) : "-"
			# the goal: within 0.1 % of stock, or a fixed cost below 20
			# instructions an operation (bench/README.md says which)
			if (s && q) {
				compared++
				if ((q - s) * 1000 > s && q - s >= 20)
					missed = missed " " p
				else if ((q - s) * 1000 > s)
					fixed = fixed " " p sprintf(" (%+.0f)", q - s)
			}
		}
		if (compared)
			printf "# goal (within 0.1 %% of stock, or under 20 instructions an operation): %s\n",
				missed != "" ? "missed by" missed : "met by all " compared " paths" (fixed != "" ? ", under 20 instructions by" fixed : "")
		if (fixed != "")
			print "# under 20: the patched-out branch of each hook the path passes, and code generation (bench/NOTES.md counts them per path)"
	}' "$res/off-cost.raw"
	grep -h '^#' "$res"/off-cost-*/off-cost.txt || :
} >"$res/off-cost.txt"
cat "$res/off-cost.txt"
