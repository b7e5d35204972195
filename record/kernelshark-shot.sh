#!/bin/sh
# kernelshark-shot.sh PNG [CMD...]: runs CMD (default: record/view.sh, i.e.
# `make view`) on a private Xvfb display, waits for the kernelshark main
# window, lets it draw, and saves that window as PNG. Prints the window's
# title and how much of it is saturated colour (the CPU and task plots;
# the empty window has only the green "Marker A" button, under 1 %).
# KS_USER_CACHE_DIR points kernelshark at a fresh settings folder that
# skips its "running as root" dialog, which would cover the window.
# Needs: xvfb, x11-utils (xwininfo), x11-apps (xwd), netpbm, kernelshark.
# Overhead: an X server and kernelshark for ~10 s.
set -eu
. "$(dirname "$0")/../guest/lib.sh"
[ $# -ge 1 ] || die "usage: kernelshark-shot.sh PNG [CMD...]"
png=$1
shift
[ $# -gt 0 ] || set -- "$TOP/record/view.sh"
for c in Xvfb xwininfo xwd xwdtopnm pnmtopng kernelshark; do
	command -v $c >/dev/null || die "$c missing: run 'make deps'"
done
tmp=$(mktemp -d)
xpid="" kpid=""
cleanup() {
	[ -n "$kpid" ] && kill -- "-$kpid" 2>/dev/null	# its whole group: make, kernelshark
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xpid=$!
i=0
until [ -s "$tmp/display" ]; do
	i=$((i + 1)); [ $i -lt 100 ] || die "Xvfb did not start: $(cat "$tmp/xvfb.log")"; sleep 0.1
done
DISPLAY=:$(cat "$tmp/display")
export DISPLAY
mkdir -p "$tmp/ks"
printf '[General]\nnoRootWarn=true\n' >"$tmp/ks/setting.ini"
KS_USER_CACHE_DIR=$tmp/ks XDG_RUNTIME_DIR=$tmp setsid "$@" >"$tmp/ks.log" 2>&1 &
kpid=$!
i=0
while :; do
	wid=$(xwininfo -root -tree | awk '/"Kernel Shark \(/ { print $1; exit }')
	[ -n "$wid" ] && break
	kill -0 $kpid 2>/dev/null || die "kernelshark exited: $(cat "$tmp/ks.log")"
	i=$((i + 1)); [ $i -lt 600 ] || die "no kernelshark window with a trace after 60 s"
	sleep 0.1
done
sleep 5	# loading and the first paint of the plots
title=$(xwininfo -id "$wid" | sed -n 's/^xwininfo: Window id: [^ ]* "\(.*\)"$/\1/p')
xwd -id "$wid" -silent >"$tmp/win.xwd"
xwdtopnm "$tmp/win.xwd" 2>/dev/null >"$tmp/win.ppm"
pnmtopng "$tmp/win.ppm" >"$png" 2>/dev/null
echo "window: $title"
echo "size: $(pnmfile "$tmp/win.ppm" | sed 's/.*, \([0-9]* by [0-9]*\).*/\1/')"
# saturated: max - min channel > 80, what plots and coloured bars are
pnmnoraw "$tmp/win.ppm" 2>/dev/null | awk '
NR <= 3 { next }
{ for (i = 1; i <= NF; i++) { c[k++ % 3] = $i
	if (k % 3 == 0) { mx = c[0]; mn = c[0]
		for (j = 1; j < 3; j++) { if (c[j] > mx) mx = c[j]; if (c[j] < mn) mn = c[j] }
		n++; if (mx - mn > 80) s++ } } }
END { printf "saturated: %.2f %% of %d pixels\n", n ? 100 * s / n : 0, n }'
echo "png: $png"
