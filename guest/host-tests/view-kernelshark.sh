#!/bin/sh
# description: `make view` opens the trace make-record recorded in
#   kernelshark (under Xvfb); the window is there, titled with that trace,
#   and drew its CPU plots (over 2 % of it saturated colour; the window
#   without a trace has under 1 %). The screenshot stays in
#   results/test/kernelshark.png
# requires: xvfb, x11-apps, x11-utils, netpbm, kernelshark
. "$TOP/guest/tests/lib/common.sh"
dat=$RES/make-record/trace.dat
[ -s "$dat" ] || skip "no trace from make-record to view"
shot=$RES/kernelshark.png
out=$("$TOP/guest/kernelshark-shot.sh" "$shot" env RUN="$RES/make-record" \
	make -C "$TOP" --no-print-directory view 2>&1) || { echo "$out"; fail "kernelshark-shot.sh failed"; }
echo "$out"
echo "$out" | grep -q "^window: Kernel Shark ($dat)$" || fail "no kernelshark window titled with $dat"
sat=$(echo "$out" | sed -n 's/^saturated: \([0-9.]*\) %.*/\1/p')
awk -v s="$sat" 'BEGIN { exit !(s > 2) }' || fail "the window looks empty: $sat % saturated, want > 2"
[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG at $shot"
echo "ok: kernelshark drew the trace ($sat % saturated), screenshot $shot"
