#!/bin/sh
# description: mmreport's invariant checker flags each broken invariant and no other
#   mmreport's invariant checker catches each broken invariant
#   and nothing else. A real trace (record-workloads' forktree) must be
#   clean with refcount, free, root and lock each checking at least one
#   event; dumped to a text event stream it reads back to the very same
#   report. Edited streams each break one invariant and must be reported
#   with the event that broke it: a refcount below 0, a free with no put
#   to 0 in its life, a root freed before its child, a reuse of an anon_vma
#   with 2 children, a lock released by a task that does not hold it, a
#   lock_start ended by an uncontended acquisition, and a put traced after
#   the free whose value does not fit the life's walk: each with exit status
#   1 and its VIOLATION lines on stdout, nothing on stderr. A put traced
#   after the free that fits by value (to 0, or above) must stay clean, and
#   so must a reuse that carries num_active_vmas, the field older kernels
#   traced. An invariant with nothing to check reads n/a, never ok, and
#   --require fails on it with exit status 16
# requires:
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ record-workloads( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test record-workloads did not run (T= selects others)"
R=$TOP/build/host/mmreport
src=$RES/record/forktree/trace.dat
[ -s "$src" ] || fail "no $src"
d=$RES/report-invariants
rm -rf "$d"
mkdir -p "$d"
"$R" --dump "$src" >"$d/base.txt" || fail "mmreport --dump failed"
# the status of mmreport itself, not of a pipe's last command
rc=0
"$R" --require refcount,free,root,lock "$src" >"$d/from-dat.full" 2>"$d/from-dat.err" || rc=$?
[ $rc -eq 0 ] || fail "the real trace is not clean (mmreport exit $rc): $(grep -E '^(VIOLATION|NOT EXERCISED|LOST)' \
	"$d/from-dat.full" | head -n 5) $(head -n 3 "$d/from-dat.err")"
rc=0
"$R" "$d/base.txt" >"$d/from-text.full" 2>"$d/from-text.err" || rc=$?
[ $rc -eq 0 ] || fail "the dumped stream is not clean (mmreport exit $rc)"
tail -n +2 "$d/from-dat.full" >"$d/from-dat.txt"
tail -n +2 "$d/from-text.full" >"$d/from-text.txt"
diff "$d/from-dat.txt" "$d/from-text.txt" >"$d/roundtrip.diff" ||
	fail "the text stream reports differently from its trace.dat: $(head "$d/roundtrip.diff")"
echo "ok: $(wc -l <"$d/base.txt") events dumped; the trace is clean and reads back to the same report"
grep -E '^(refcount|free|root|reuse|lock|wait) .* (ok|n/a|VIOLATED) \([0-9]+ checked' "$d/from-dat.txt" |
	sed 's/^/    /'

# F: the fields of a line as f[] (awk prelude). Pointers are compared as
# strings (f[..] ""): awk reads "0xffff..." as a number, and doubles cannot
# tell apart addresses closer than 2 KiB.
F='{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }'
bad=0
crafted_ok() {
	[ -s "$2" ] || { echo "FAIL: $1: could not craft $2 from the trace"; bad=1; return 1; }
	if cmp -s "$2" "$d/base.txt"; then echo "FAIL: $1: the edit changed nothing"; bad=1; return 1; fi
}
# crafted TAG FILE: FILE must be reported as breaking TAG: exit status 1
# (a violation, nothing else), the verdict on stdout, stderr empty
crafted() {
	crafted_ok "$1" "$2" || return 0
	rc=0
	"$R" --check "$2" >"$2.out" 2>"$2.err" || rc=$?
	if [ $rc -eq 1 ] && grep -q "^VIOLATION $1: " "$2.out" &&
		grep -Eq "^$1 .* VIOLATED " "$2.out" && [ ! -s "$2.err" ]; then
		echo "ok: $1 caught: $(grep -m1 "^VIOLATION $1: " "$2.out")"
		echo "    $(grep -m1 -A1 "^VIOLATION $1: " "$2.out" | tail -n 1)"
	else
		echo "FAIL: $1 not reported (exit $rc):"
		cat "$2.out" "$2.err"
		bad=1
	fi
}
# clean WHAT FILE: FILE must be reported clean
clean() {
	crafted_ok "$1" "$2" || return 0
	rc=0
	"$R" --check "$2" >"$2.out" 2>"$2.err" || rc=$?
	if [ $rc -eq 0 ] && ! grep -q '^VIOLATION' "$2.out" && [ ! -s "$2.err" ]; then
		echo "ok: clean: $1"
	else
		echo "FAIL: $1 must be clean (exit $rc):"
		cat "$2.out" "$2.err"
		bad=1
	fi
}

# 1. a put's refcount after the decrement made negative
awk "$F"' !done && $5 == "anon_vma_put" && f["refcount"] > 0 { sub(/refcount=[0-9]+/, "refcount=-1"); done = 1 } { print }' \
	"$d/base.txt" >"$d/refcount.txt"
crafted refcount "$d/refcount.txt"

# 2. the put to 0 of an anon_vma born and freed in the trace deleted
p=$(awk "$F"' $5 == "anon_vma_alloc" { born[f["anon_vma"]] = 1; delete zero[f["anon_vma"]] }
	$5 == "anon_vma_put" && f["refcount"] == 0 && born[f["anon_vma"]] { zero[f["anon_vma"]] = NR }
	$5 == "anon_vma_free" && (f["anon_vma"] in zero) { print zero[f["anon_vma"]]; exit }' "$d/base.txt")
awk -v p="${p:-0}" 'NR != p' "$d/base.txt" >"$d/free.txt"
[ -n "$p" ] || : >"$d/free.txt"
crafted free "$d/free.txt"

# 3. a root's free moved before the free of a child attached in the trace
# shellcheck disable=SC2046 # the two line numbers are meant to split
set -- $(awk "$F"' $5 == "anon_vma_alloc" { delete child[f["anon_vma"]] }
	$5 == "anon_vma_attach" { child[f["anon_vma"]] = f["root"] }
	$5 == "anon_vma_free" && (f["anon_vma"] in child) && !(f["anon_vma"] in cf) { cf[f["anon_vma"]] = NR; croot[NR] = child[f["anon_vma"]] }
	$5 == "anon_vma_free" && f["anon_vma"] "" == f["root"] "" { for (n in croot) if (croot[n] "" == f["anon_vma"] "") { print n, NR; exit } }' "$d/base.txt")
awk -v c="${1:-0}" -v r="${2:-0}" 'NR == r { next } NR == c { while ((getline l < FILENAME) > 0) if (++k == r) { print l; break } } { print }' \
	"$d/base.txt" >"$d/root.txt"
[ -n "${1:-}" ] || : >"$d/root.txt"
crafted root "$d/root.txt"

# 4. a reuse of a live anon_vma that has 2 children, inserted after its
# birth; and one with 1 child as an older kernel traced it, with the
# num_active_vmas field (0 by construction, dropped since): clean
reuse() { # CHILDREN [MORE FIELDS]
	awk "$F"' { print } !done && $5 == "anon_vma_alloc" {
		print $1, $2, $3, $4, "anon_vma_reuse anon_vma=" f["anon_vma"] " root=" f["anon_vma"] \
			" num_children=" n more
		done = 1 }' n="$1" more="${2:+ $2}" "$d/base.txt"
}
reuse 2 >"$d/reuse.txt"
crafted reuse "$d/reuse.txt"
reuse 1 num_active_vmas=0 >"$d/reuse-old-field.txt"
clean "a reuse with 1 child and the old num_active_vmas field" "$d/reuse-old-field.txt"

# 5. a release made by another task than the one holding the lock
awk "$F"' $5 == "anon_vma_lock_acquired" && f["success"] == "true" { held[$3, f["root"]] = 1 }
	!done && $5 == "anon_vma_lock_released" && held[$3, f["root"]] { $3 = 999999; $4 = "intruder"; done = 1 }
	{ print }' "$d/base.txt" >"$d/lock.txt"
crafted lock "$d/lock.txt"

# 6. a lock_start whose acquisition says it did not wait: the start is a
# copy of an uncontended acquired event, put just before it
awk "$F"' !done && $5 ~ /^(anon_vma|i_mmap)_lock_acquired$/ && f["success"] == "true" && f["contended"] == "false" {
	l = $0; sub(/_lock_acquired/, "_lock_start", l); gsub(/ (success|contended)=[a-z]+/, "", l)
	print l; done = 1 } { print }' "$d/base.txt" >"$d/wait.txt"
crafted wait "$d/wait.txt"

# 7. refcount transitions ordered by value, not by timestamp. In a life
# born and freed in the trace: a put to 1 or above moved after the free
# (it fits the walk: clean), the same with its value raised by one (it
# does not: refcount), and the put to 0 moved after the free (clean)
# shellcheck disable=SC2046 # the three line numbers are meant to split
set -- $(awk "$F"' $5 == "anon_vma_alloc" { born[f["anon_vma"]] = 1; delete up[f["anon_vma"]]; delete zero[f["anon_vma"]] }
	$5 == "anon_vma_put" && born[f["anon_vma"]] && f["refcount"] >= 1 && !(f["anon_vma"] in up) { up[f["anon_vma"]] = NR }
	$5 == "anon_vma_put" && born[f["anon_vma"]] && f["refcount"] == 0 { zero[f["anon_vma"]] = NR }
	$5 == "anon_vma_free" && (f["anon_vma"] in up) && (f["anon_vma"] in zero) { print up[f["anon_vma"]], zero[f["anon_vma"]], NR; exit }' "$d/base.txt")
late() { # LINE FREE BUMP: LINE moved just after FREE, its refcount raised by BUMP
	awk "$F"' NR == p { held = $0; if (bump) { v = f["refcount"] + bump; sub(/refcount=[0-9]+/, "refcount=" v, held) }; next }
		{ print } NR == q { print held }' p="$1" q="$2" bump="$3" "$d/base.txt"
}
if [ -n "${3:-}" ]; then
	late "$1" "$3" 0 >"$d/late-put.txt"
	late "$1" "$3" 1 >"$d/late-put-unbalanced.txt"
	late "$2" "$3" 0 >"$d/late-put-zero.txt"
else
	: >"$d/late-put.txt"
	: >"$d/late-put-unbalanced.txt"
	: >"$d/late-put-zero.txt"
fi
clean "a put to $(sed -n "${1:-1}s/.*refcount=//p" "$d/base.txt") traced after the free it preceded" "$d/late-put.txt"
clean "the put to 0 traced after the free" "$d/late-put-zero.txt"
crafted refcount "$d/late-put-unbalanced.txt"

# 8. nothing to check is not "ok": without anon_vma_reuse events the reuse
# line reads n/a, and --require fails on it with its own exit status, 16
grep -v ' anon_vma_reuse ' "$d/base.txt" >"$d/no-reuse.txt"
rc=0
"$R" --check "$d/no-reuse.txt" >"$d/no-reuse.out" 2>&1 || rc=$?
rq=0
"$R" --check --require reuse "$d/no-reuse.txt" >"$d/no-reuse-required.out" 2>&1 || rq=$?
if [ $rc -eq 0 ] && grep -Eq '^reuse .* n/a \(0 checked\)$' "$d/no-reuse.out" &&
	[ $rq -eq 16 ] && grep -q '^NOT EXERCISED reuse' "$d/no-reuse-required.out"; then
	echo "ok: reuse with nothing to check reads n/a; --require reuse exits 16"
else
	echo "FAIL: an invariant that checked nothing (exit $rc, with --require $rq):"
	cat "$d/no-reuse.out" "$d/no-reuse-required.out"
	bad=1
fi

[ $bad -eq 0 ] || fail "an invariant violation went unreported, or a clean trace was not"
