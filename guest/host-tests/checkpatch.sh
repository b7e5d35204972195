#!/bin/sh
# description: every patch in patches/ and tracepoints/, and every source
#   file of module/, passes the tree's scripts/checkpatch.pl --strict with 0
#   errors and 0 warnings
# requires: make kernel (for the tree's checkpatch.pl)
. "$TOP/guest/tests/lib/common.sh"
. "$TOP/guest/lib.sh"
cp=$CACHE/src/linux/scripts/checkpatch.pl
[ -x "$cp" ] || fail "no checkpatch.pl at $cp"
n=0 bad=0
for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
	for p in $(series_files "$s"); do
		n=$((n + 1))
		out=$("$cp" --strict --no-tree --ignore FILE_PATH_CHANGES --terse "$p" 2>&1 || true)
		if echo "$out" | grep -qE ': (ERROR|WARNING):'; then
			echo "$out"
			bad=$((bad + 1))
		fi
	done
done
# The module's sources, as files (generated *.mod.c excluded).
for f in "$TOP"/module/*.c "$TOP"/module/*.h "$TOP"/module/Kbuild "$TOP"/module/Makefile \
	"$TOP"/guest/testmods/*.c "$TOP"/guest/testmods/Kbuild "$TOP"/guest/testmods/Makefile; do
	case $f in *.mod.c) continue ;; esac
	[ -f "$f" ] || continue
	n=$((n + 1))
	out=$("$cp" --strict --no-tree --terse -f "$f" 2>&1 || true)
	if echo "$out" | grep -qE ': (ERROR|WARNING):'; then
		echo "$out"
		bad=$((bad + 1))
	fi
done
[ $n -gt 0 ] || skip "no patches in patches/series or tracepoints/series yet"
[ $bad -eq 0 ] || fail "$bad of $n patches and files have checkpatch errors or warnings"
echo "ok: $n patches and module files clean"
