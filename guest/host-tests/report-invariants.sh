#!/bin/sh
# description: mmreport's invariant checker catches each broken invariant.
#   A real trace (record-workloads' forktree) is dumped to a text event
#   stream; the stream reads back to the very same report as the trace.dat;
#   then five edited streams each break one invariant (a refcount below 0,
#   a free before the last put, a root freed before its child, a reuse of
#   an anon_vma with 2 children, a lock released by a task that does not
#   hold it) and each must be reported with the event that broke it
# requires: build/host/mmreport
. "$TOP/guest/tests/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ record-workloads( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test record-workloads did not run (T= selects others)"
R=$TOP/build/host/mmreport
src=$RES/record/forktree/trace.dat
[ -s "$src" ] || fail "no $src"
d=$RES/report-invariants
rm -rf "$d"
mkdir -p "$d"
"$R" --dump "$src" >"$d/base.txt" || fail "mmreport --dump failed"
"$R" "$src" | tail -n +2 >"$d/from-dat.txt" || fail "the real trace is not clean: $(cat "$d/from-dat.txt")"
"$R" "$d/base.txt" | tail -n +2 >"$d/from-text.txt" || fail "the dumped stream is not clean"
diff "$d/from-dat.txt" "$d/from-text.txt" >"$d/roundtrip.diff" ||
	fail "the text stream reports differently from its trace.dat: $(head "$d/roundtrip.diff")"
echo "ok: $(wc -l <"$d/base.txt") events dumped; the stream's report equals the trace.dat's"

# F: the fields of a line as f[] (awk prelude). Pointers are compared as
# strings (f[..] ""): awk reads "0xffff..." as a number, and doubles cannot
# tell apart addresses closer than 2 KiB.
F='{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }'
bad=0
# crafted TAG FILE: FILE must be reported as breaking TAG, and nothing be
# reported for a clean input
crafted() {
	[ -s "$2" ] || { echo "FAIL: $1: could not craft $2 from the trace"; bad=1; return; }
	if cmp -s "$2" "$d/base.txt"; then echo "FAIL: $1: the edit changed nothing"; bad=1; return; fi
	rc=0
	"$R" --check "$2" >"$2.out" 2>"$2.err" || rc=$?
	if [ $rc -eq 1 ] && grep -q "^VIOLATION $1: " "$2.err" &&
		grep -Eq "^$1 .* VIOLATED " "$2.out"; then
		echo "ok: $1 caught: $(grep -m1 "^VIOLATION $1: " "$2.err")"
		echo "    $(grep -m1 -A1 "^VIOLATION $1: " "$2.err" | tail -n 1)"
	else
		echo "FAIL: $1 not reported (exit $rc):"
		cat "$2.out" "$2.err"
		bad=1
	fi
}

# 1. a put's refcount after the decrement made negative
awk "$F"' !done && $5 == "anon_vma_put" && f["refcount"] > 0 { sub(/refcount=[0-9]+/, "refcount=-1"); done = 1 } { print }' \
	"$d/base.txt" >"$d/refcount.txt"
crafted refcount "$d/refcount.txt"

# 2. the free of an anon_vma born in the trace moved before its last put
set -- $(awk "$F"' $5 == "anon_vma_alloc" { born[f["anon_vma"]] = 1 }
	$5 == "anon_vma_put" && f["refcount"] == 0 { last[f["anon_vma"]] = NR }
	$5 == "anon_vma_free" && born[f["anon_vma"]] && (f["anon_vma"] in last) { print last[f["anon_vma"]], NR; exit }' "$d/base.txt")
awk -v p="${1:-0}" -v q="${2:-0}" 'NR == p { held = $0; next } { print } NR == q { print held }' \
	"$d/base.txt" >"$d/free.txt"
[ -n "${1:-}" ] || : >"$d/free.txt"
crafted free "$d/free.txt"

# 3. a root's free moved before the free of a child born in the trace
set -- $(awk "$F"' $5 == "anon_vma_alloc" && f["root"] "" != f["anon_vma"] "" { child[f["anon_vma"]] = f["root"] }
	$5 == "anon_vma_free" && (f["anon_vma"] in child) && !(f["anon_vma"] in cf) { cf[f["anon_vma"]] = NR; croot[NR] = child[f["anon_vma"]] }
	$5 == "anon_vma_free" && f["anon_vma"] "" == f["root"] "" { for (n in croot) if (croot[n] "" == f["anon_vma"] "") { print n, NR; exit } }' "$d/base.txt")
awk -v c="${1:-0}" -v r="${2:-0}" 'NR == r { next } NR == c { while ((getline l < FILENAME) > 0) if (++k == r) { print l; break } } { print }' \
	"$d/base.txt" >"$d/root.txt"
[ -n "${1:-}" ] || : >"$d/root.txt"
crafted root "$d/root.txt"

# 4. a reuse of a live anon_vma that has 2 children, inserted after its birth
awk "$F"' { print } !done && $5 == "anon_vma_alloc" {
	print $1, $2, $3, $4, "anon_vma_reuse anon_vma=" f["anon_vma"] " root=" f["root"] " num_children=2 num_active_vmas=0"
	done = 1 }' "$d/base.txt" >"$d/reuse.txt"
crafted reuse "$d/reuse.txt"

# 5. a release made by another task than the one holding the lock
awk "$F"' $5 == "anon_vma_lock_acquired" && f["success"] == "true" { held[$3, f["root"]] = 1 }
	!done && $5 == "anon_vma_lock_released" && held[$3, f["root"]] { $3 = 999999; $4 = "intruder"; done = 1 }
	{ print }' "$d/base.txt" >"$d/lock.txt"
crafted lock "$d/lock.txt"

[ $bad -eq 0 ] || fail "an invariant violation went unreported"
