#!/bin/sh
# description: module/FIGURES.md has one row per figure the module prints, no other
#   module/FIGURES.md says, per figure of mmpreempt.ko's stats, hist/ and
#   top, which test compares it with the trace. This test takes what the
#   module printed in the guest (the window snapshot of contention-exact's
#   anon_vma read window: stats keys, histogram names, top's columns and
#   its "#" lines) and the table's first column (backticked names; KIND,
#   MODE and EVENT stand for the lock kinds, the modes and the events
#   printed; {a,b} for each of a and b), and fails on a printed figure
#   with no row, or a row naming a figure the module does not print
# requires: awk
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ contention-exact( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test contention-exact did not run (T= selects others)"
w=$RES/contention-exact/anon_vma-read
for f in stats hist top; do [ -s "$w/$f" ] || fail "no $f snapshot in $w"; done
# what the module printed, one figure a line
{
	awk '{ print $1 }' "$w/stats"
	awk '/^@/ { sub(/^@/, ""); sub(/:$/, ""); print }' "$w/hist"
	awk 'NR == 1 { for (i = 1; i <= NF; i++) print $i }
		/^#/ { sub(/:.*/, ""); print }' "$w/top"
} | sort -u >"$RES/figures-printed"
events=$(awk '/^events\./ { sub(/^events\./, "", $1); print $1 }' "$w/stats" | tr '\n' ' ')
# what the table names, expanded
awk -v events="$events" '
function expand(t,   i, n, a, pre, post, alts, out) {
	if (match(t, /\{[^}]*\}/)) {
		pre = substr(t, 1, RSTART - 1); post = substr(t, RSTART + RLENGTH)
		n = split(substr(t, RSTART + 1, RLENGTH - 2), a, ",")
		for (i = 1; i <= n; i++) expand(pre a[i] post)
		return
	}
	if (t ~ /KIND/) { expand2(t, "KIND", "anon_vma i_mmap"); return }
	if (t ~ /MODE/) { expand2(t, "MODE", "read write"); return }
	if (t ~ /EVENT/) { expand2(t, "EVENT", events); return }
	print t
}
function expand2(t, word, list,   n, a, i, u) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) { u = t; sub(word, a[i], u); expand(u) }
}
/^\| `/ {
	cell = $0; sub(/^\| /, "", cell); sub(/ \|.*/, "", cell)
	while (match(cell, /`[^`]*`/)) {
		name = substr(cell, RSTART + 1, RLENGTH - 2)
		cell = substr(cell, RSTART + RLENGTH)	# before expand() moves RSTART
		expand(name)
	}
}' "$TOP/module/FIGURES.md" | sort -u >"$RES/figures-table"
missing=$(comm -23 "$RES/figures-printed" "$RES/figures-table")
stale=$(comm -13 "$RES/figures-printed" "$RES/figures-table")
[ -z "$missing" ] || fail "printed by the module, no row in module/FIGURES.md: $(echo "$missing" | tr '\n' ' ')"
[ -z "$stale" ] || fail "rows of module/FIGURES.md the module does not print: $(echo "$stale" | tr '\n' ' ')"
echo "ok: $(wc -l <"$RES/figures-printed") figures printed, each with its row in module/FIGURES.md"
