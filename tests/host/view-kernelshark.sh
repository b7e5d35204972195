#!/bin/sh
# description: make view opens kernelshark on the recorded trace and draws its events
#   `make view` opens the trace make-record recorded in
#   kernelshark (under Xvfb); the window is there, titled with that trace,
#   and drew that trace's events: over 2 % of it saturated colour (the CPU
#   plots), and at least 1.5 points more than the same kernelshark draws for
#   a baseline, the same trace.dat cut down to its first microsecond
#   (trace-cmd split: same header, CPUs and event formats, one event). The
#   colour is the trace's events, not the window's own widgets. The
#   screenshots stay in the results folder: kernelshark.png and
#   kernelshark-baseline.png
# requires: Xvfb xwininfo xwd xwdtopnm pnmtopng pnmfile pnmnoraw kernelshark trace-cmd
. "$TOP/tests/guest/lib/common.sh"
dat=$RES/make-record/trace.dat
[ -s "$dat" ] || skip "no trace from make-record to view"
# shot NAME RUN: kernelshark-shot.sh of `make view RUN=RUN` into $RES/NAME.png;
# sets out (its report) and sat (the saturated percentage)
shot() {
	out=$("$TOP/record/kernelshark-shot.sh" "$RES/$1.png" env RUN="$2" \
		make -C "$TOP" --no-print-directory view 2>&1) || { echo "$out"; fail "kernelshark-shot.sh failed on $2"; }
	echo "$out"
	echo "$out" | grep -q "^window: Kernel Shark ($2/trace.dat)$" || fail "no kernelshark window titled with $2/trace.dat"
	sat=$(echo "$out" | sed -n 's/^saturated: \([0-9.]*\) %.*/\1/p')
	[ -n "$sat" ] || fail "no saturation measured for $2"
	[ "$(head -c 8 "$RES/$1.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG at $RES/$1.png"
}
shot kernelshark "$RES/make-record"
real=$sat
# the baseline: the first microseconds of the same trace
base_dir=$RES/kernelshark-baseline
rm -rf "$base_dir"
mkdir -p "$base_dir"
first=$(trace-cmd report -i "$dat" 2>/dev/null | awk '$3 ~ /^[0-9]+\.[0-9]+:$/ { print substr($3, 1, length($3) - 1); exit }')
[ -n "$first" ] || fail "trace-cmd report shows no event in $dat"
# report rounds to the microsecond: start one before it, so the first
# event is inside the cut whichever way it was rounded
start=$(awk -v t="$first" 'BEGIN { printf "%.6f", t - 0.000001 }')
end=$(awk -v t="$first" 'BEGIN { printf "%.6f", t + 0.000002 }')
(cd "$base_dir" && trace-cmd split -i "$dat" -o cut.dat "$start" "$end") >"$base_dir/split.log" 2>&1 ||
	{ cat "$base_dir/split.log"; fail "trace-cmd split failed"; }
mv "$base_dir/cut.dat.1" "$base_dir/trace.dat" || fail "trace-cmd split wrote no cut.dat.1"
n=$(trace-cmd report -i "$base_dir/trace.dat" 2>/dev/null | grep -c '^ *[^ ].* \[[0-9]*\] *[0-9.]*: ' || true)
[ "$n" -ge 1 ] || fail "the baseline trace has no event"
shot kernelshark-baseline "$base_dir"
base=$sat
echo "measured: $real % saturated with the trace's events, $base % for its first microsecond"
awk -v s="$real" 'BEGIN { exit !(s > 2) }' || fail "the window looks empty: $real % saturated, want > 2"
awk -v s="$real" -v b="$base" 'BEGIN { exit !(s >= b + 1.5) }' ||
	fail "the window has no more colour ($real %) than the baseline without the trace's events ($base %): the colour is not the trace's"
echo "ok: kernelshark drew the trace's events ($real % saturated against $base %), screenshot $RES/kernelshark.png"
