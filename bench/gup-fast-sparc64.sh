#!/bin/sh
# gup-fast-sparc64.sh: what GUP-fast buys on sparc64, stock 6.1 against the
# series, side by side, with deterministic guest time.
#
# MEASURES: the tree's gup_test selftest, `gup_test -u -m 128 -r REPEATS`
#   (get_user_pages_fast() over a touched 128 MiB buffer, one 8K page per
#   call: 16,384 calls), on the stock 6.1 kernel (no HAVE_FAST_GUP on
#   sparc64: every call takes mmap_lock and walks the VMAs) and on the
#   series' kernel (the lockless walk), one boot each of the same shape;
#   and how many of those pages the lockless walk pins on its own
#   (gupcheck -s: FOLL_FAST_ONLY). Prints each repeat's get/put times, the
#   medians and the stock/series ratio of the get times.
# NEEDS: make sparc64 sparc64-stock (both cross-built; the stock one is the
#   same config on the unpatched tree). Boots with ICOUNT=1 (TCG, -icount
#   shift=0: one guest nanosecond per instruction, so the times are
#   instruction counts, reproducible, not UltraSPARC latencies), one CPU (all
#   QEMU's sun4u has), 512 MiB.
# OVERHEAD: two boots, a few minutes of wall time.
# Output: results/bench/gup-fast-sparc64.txt
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "gup-fast-sparc64.sh (settings in the environment)" 0 "$@"
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$TOP/results/bench/gup-fast-sparc64
out=$TOP/results/bench/gup-fast-sparc64.txt
REPEATS=${REPEATS:-5}
mkdir -p "$res"
printf '# gup-fast-sparc64: gup_test -u -m 128 -r %s, one page per call, ICOUNT=1\n' "$REPEATS" >"$res/list"
printf 'gup-test 1200 /bin/gup_test -u -m 128 -r %s\n' "$REPEATS" >>"$res/list"
printf 'fast-only 600 /bin/gupcheck -s 128\n' >>"$res/list"
for v in sparc64-stock sparc64; do
	ICOUNT=1 QUIET=1 TIMEOUT=${TIMEOUT:-1800} VARIANT=$v LIST="$res/list" \
		"$TOP/guest/run-sparc64.sh" -r "$res/$v"
done
# "# GUP_FAST_BENCHMARK: Time: get:123 put:45 us": the get and put columns
get_put() { sed -n 's/^# .*Time: get:\([0-9]*\) put:\([0-9]*\) us.*/\1 \2/p' "$1"; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
{
	echo "gup_test -u -m 128 -r $REPEATS on sparc64 (qemu-system-sparc64 -M sun4u, ICOUNT=1, 512 MiB)"
	for v in sparc64-stock sparc64; do
		echo "$v: $(cat "$res/$v/boot.txt" | sed -n 's/^kernel=//p')"
		get_put "$res/$v/guest.tap" | awk '{ printf "  get %8d us   put %8d us\n", $1, $2 }'
		sed -n 's/^# measured: /  /p' "$res/$v/guest.tap"
	done
	s=$(get_put "$res/sparc64-stock/guest.tap" | cut -d' ' -f1 | median)
	f=$(get_put "$res/sparc64/guest.tap" | cut -d' ' -f1 | median)
	[ -n "$s" ] && [ -n "$f" ] && [ "$f" != 0 ] &&
		awk -v s="$s" -v f="$f" 'BEGIN { printf "median get: stock %d us, series %d us: stock/series %.1f\n", s, f, s / f }'
} >"$out"
cat "$out"
