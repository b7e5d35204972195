#!/bin/sh
# description: patches and module sources pass checkpatch --strict, only known CHECKs
#   every patch in patches/ and tracepoints/, and every source
#   file of module/ and tests/modules/, passes the tree's
#   scripts/checkpatch.pl --strict with 0 errors and 0 warnings. Its exit
#   status counts: 0 (clean), or 1 with only CHECK lines and its total line
#   saying 0 errors and 0 warnings; the only CHECKs accepted are the
#   TRACE_EVENT macro layout ones ("Lines should not end with a '('",
#   "Alignment should match open parenthesis") on lines of
#   include/trace/events/; anything else (another CHECK, a file it could
#   not read, a crash) fails. Upstream commit ids are not looked up (the
#   cached tree has no upstream history), their form is checked
# requires: perl cache:src/linux/scripts/checkpatch.pl
. "$TOP/tests/guest/lib/common.sh"
. "$TOP/guest/lib.sh"
cp=$CACHE/src/linux/scripts/checkpatch.pl
[ -x "$cp" ] || fail "no checkpatch.pl at $cp"
n=0 bad=0
check() { # check FILE [OPTION...]
	f=$1
	shift
	n=$((n + 1))
	rc=0
	out=$("$cp" --strict --no-tree --terse "$@" "$f" 2>&1) || rc=$?
	if echo "$out" | grep -qE ': (ERROR|WARNING):'; then
		echo "$out"
		bad=$((bad + 1))
		return
	fi
	# The only CHECKs accepted: the TRACE_EVENT macro layout ones, on lines
	# of include/trace/events/ in a patch (the file each patch line is in:
	# the last "+++ b/PATH" above it)
	odd=$(echo "$out" | awk -F: -v f="$f" '
		BEGIN { while ((getline l < f) > 0) { n++; if (l ~ /^\+\+\+ b\//) cur = substr(l, 7); in_[n] = cur } }
		$3 ~ /CHECK/ {
			ok = ($4 ~ /^ (Lines should not end with a .\(.|Alignment should match open parenthesis)$/) &&
			     in_[$2 + 0] ~ /^include\/trace\/events\//
			if (!ok) print
		}')
	if [ -n "$odd" ]; then
		echo "$odd"
		echo "checkpatch: a CHECK other than the TRACE_EVENT layout ones in $f"
		bad=$((bad + 1))
		return
	fi
	case $rc in
	0) ;;
	1)
		echo "$out" | grep -qE 'total: 0 errors, 0 warnings, [1-9][0-9]* checks' && return
		echo "$out"
		echo "checkpatch exited 1 on $f with no error, warning or check to show for it"
		bad=$((bad + 1))
		;;
	*)
		echo "$out"
		echo "checkpatch failed on $f: exit $rc"
		bad=$((bad + 1))
		;;
	esac
}
for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
	for p in $(series_files "$s"); do
		# UNKNOWN_COMMIT_ID: the tree is Debian's source with a one-commit
		# history, so checkpatch cannot look up the upstream ids that the
		# backports and Fixes: tags cite; their form (GIT_COMMIT_ID) is
		# still checked
		check "$p" --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID
	done
done
# The module's sources, as files (generated *.mod.c excluded).
for f in "$TOP"/module/*.c "$TOP"/module/*.h "$TOP"/module/Kbuild "$TOP"/module/Makefile \
	"$TOP"/tests/modules/*.c "$TOP"/tests/modules/Kbuild "$TOP"/tests/modules/Makefile \
	"$TOP"/bench/event_bench/*.c "$TOP"/bench/event_bench/Kbuild; do
	case $f in *.mod.c) continue ;; esac
	[ -f "$f" ] || continue
	check "$f" -f
done
[ $n -gt 0 ] || skip "no patches in patches/series or tracepoints/series yet"
[ $bad -eq 0 ] || fail "$bad of $n patches and files have checkpatch errors or warnings, or checkpatch failed on them"
echo "ok: $n patches and module files clean"
