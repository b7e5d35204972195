#!/bin/sh
# stamp.sh: what a benchmark's figures were measured on, beside them.
#
# Usage: stamp.sh RESULTS_DIR NAME RUN_DIR...
# Writes RESULTS_DIR/NAME.stamp: the date (UTC), the commit
# (git describe --always --dirty: "-dirty" when the tree had changes;
# STAMP_COMMIT, when set, instead: setup-cost.sh measures a clone), the
# host's CPU model and core count, and one "boot" line per RUN_DIR that
# guest/run.sh wrote: its QEMU mode (qemu.env: accel, icount, vCPUs) and the
# guest kernel's release (dmesg.txt: "Linux version"). Each bench script
# calls it right after its boots, before another boot can overwrite a
# shared run folder; bench/summary.sh turns the stamps into RESULTS.md's
# provenance line.
# NEEDS: git. OVERHEAD: none.
set -eu
[ $# -ge 3 ] || { echo "usage: stamp.sh RESULTS_DIR NAME RUN_DIR..." >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/.." && pwd)
res=$1 name=$2
shift 2
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
{
	echo "date $(date -u +%Y-%m-%d)"
	echo "commit ${STAMP_COMMIT:-$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)}"
	echo "machine ${cpu:-$(uname -m)}, $(nproc) cores"
	for d in "$@"; do
		[ -f "$d/qemu.env" ] || { echo "stamp: $d: no qemu.env (not a guest/run.sh folder)" >&2; exit 1; }
		rel=$(sed -n 's/.*Linux version \([^ ]*\).*/\1/p' "$d/dmesg.txt" "$d/console.log" 2>/dev/null | head -n 1)
		awk -v rel="${rel:-unknown}" '
			{ k = $0; sub(/=.*/, "", k); x = $0; sub(/^[^=]*=/, "", x) }
			k == "accel" || k == "icount" || k == "smp" { v[k] = x }
			END { printf "boot accel=%s icount=%s smp=%s kernel=%s\n", v["accel"], v["icount"], v["smp"], rel }' "$d/qemu.env"
	done
} >"$res/$name.stamp.tmp"
mv "$res/$name.stamp.tmp" "$res/$name.stamp"
