#!/bin/sh
# description: mmreport prints durations one way, aligned, skipped buckets shown
#   mmreport's one rule for durations (report/README.md, OUTPUT): four
#   significant digits with the unit glued on, ns us ms or s, in every
#   table cell and every n=/p50= line. A crafted event stream holds one
#   anon_vma root per duration at the rule's edges (999 ns, 1 us, 99.995
#   us, 999.95 us, ...): the roots table must print each exactly as the
#   rule says, the lock tables' duration columns must carry no unit in
#   their names and be right-aligned under them, a mode with no waits must
#   print "-" for its wait figures, a gather of 999.95 us must read
#   1.000ms in its n= line, and the report's span must follow the rule too.
#   A histogram cut to its fullest buckets (--summary) must show each run
#   of the others as a "..." row: every row's lower bound is the previous
#   row's upper bound, and the rows' counts add up to the holds; the rows
#   shown are the fullest buckets, never an empty one. The timeline's
#   window line counts the last of two windows, as --stats does, and a
#   crafted holder, waiter and switch-out give one wait, one switch-out
#   and rows ordered by longest hold.
# requires:
. "$TOP/tests/guest/lib/common.sh"
R=$TOP/build/host/mmreport
[ -x "$R" ] || fail "no $R (make report-tool)"
d=$RES/report-units
rm -rf "$d"
mkdir -p "$d"
# "NS WANT": one write hold of NS nanoseconds on a root of its own, and how
# the rule prints it
cat >"$d/cases" <<'EOF'
999 999ns
1000 1.000us
14090 14.09us
99994 99.99us
99995 100.0us
999949 999.9us
999950 1.000ms
9999500 10.00ms
37439230 37.44ms
2698427290 2.698s
999950000000 1000s
EOF
# the stream: holds one after another, 1 s apart, task 100; then a wait of
# 8448450 ns for a write lock, a read hold (no wait), a gather of 999950 ns
# (a figure of the n= lines) and, for the histogram, 2^k + 1 ns holds
# on one more root, k = 10..24, 2^(24-k) + 1 of each but 5001 of 2^20 + 1:
# its bucket among the 4 fullest, far from the other three
awk 'function ts(ns) { return sprintf("%d.%09d", int(ns / 1e9), ns % 1e9) }
	function hold(t, root, ns, w) {
		printf "%s 0 100 crafted anon_vma_lock_acquired anon_vma=%s root=%s write=%s success=true contended=false\n", ts(t), root, root, w
		printf "%s 0 100 crafted anon_vma_lock_released anon_vma=%s root=%s write=%s\n", ts(t + ns), root, root, w
	}
	{ hold(t, sprintf("0xffff8880%08x", NR * 4096), $1, "true"); t += $1 + 1e9 }
	END {
		r = "0xffff888000100000"
		printf "%s 0 101 waiter anon_vma_lock_start anon_vma=%s root=%s write=true\n", ts(t), r, r
		printf "%s 0 101 waiter anon_vma_lock_acquired anon_vma=%s root=%s write=true success=true contended=true\n", ts(t + 8448450), r, r
		printf "%s 0 101 waiter anon_vma_lock_released anon_vma=%s root=%s write=true\n", ts(t + 8448450 + 5000), r, r
		t += 1e9
		hold(t, r, 20000, "false"); t += 1e9
		printf "%s 1 102 gatherer mmu_gather_start tlb=0xffff888000200000 mm=0xffff888000300000 fullmm=false\n", ts(t)
		printf "%s 1 102 gatherer mmu_gather_finish tlb=0xffff888000200000 mm=0xffff888000300000 fullmm=false nested=false\n", ts(t + 999950)
		t += 1e9
		r = "0xffff888000400000"
		for (k = 10; k <= 24; k++)
			for (i = 0; i <= (k == 20 ? 5000 : 2 ^ (24 - k)); i++) { hold(t, r, 2 ^ k + 1, "true"); t += 2 ^ k + 1000 }
	}' "$d/cases" >"$d/stream.txt"
rc=0
"$R" --top 20 "$d/stream.txt" >"$d/report.txt" 2>"$d/report.err" || rc=$?
[ $rc -eq 0 ] || fail "mmreport exit $rc on the crafted stream: $(head -n 3 "$d/report.err")"

# 1. each duration of the cases, as the roots table's total_hold and max_hold
bad=0
while read -r ns want; do
	root=$(awk -v n="$ns" '$1 == n { printf "0xffff8880%08x", NR * 4096 }' "$d/cases")
	got=$(awk -v r="$root" '$1 == "root" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == r { print $c["total_hold"], $c["max_hold"] }' "$d/report.txt")
	if [ "$got" = "$want $want" ]; then
		echo "ok: $ns ns prints $want"
	else
		echo "FAIL: $ns ns printed '$got' (total_hold max_hold), want '$want $want'"
		bad=1
	fi
done <"$d/cases"
[ $bad -eq 0 ] || fail "a duration broke the rule"

# 2. the lock and roots tables: no unit in a column's name; every
# duration cell one word of the rule (or "-" where nothing was timed),
# right-aligned under its name; every other cell a count, pointer or name
D='^([0-9]ns|[0-9][0-9]ns|[0-9][0-9][0-9]ns|[0-9][.][0-9][0-9][0-9](us|ms|s)|[0-9][0-9][.][0-9][0-9](us|ms|s)|[0-9][0-9][0-9][.][0-9](us|ms|s)|[0-9][0-9][0-9][0-9]+s)$'
awk -v D="$D" '
	# ends[i]: the column where field i of the line ends
	function ends(line, e,    n, p, rest) {
		n = 0; p = 0; rest = line
		while (match(rest, /[^ ]+/)) { p += RSTART + RLENGTH - 1; e[++n] = p; rest = substr(rest, RSTART + RLENGTH) }
		return n
	}
	($1 == "lock" && $2 == "mode") || $1 == "root" {
		delete he; delete dur; ends($0, he); t = 1; tables++
		for (i = 1; i <= NF; i++) {
			if ($i ~ /_(ns|us|ms|s)$/) { print "a unit in the column name " $i; bad = 1 }
			dur[i] = $i ~ /^(wait_p|hold_p|max_|total_)/
		}
		next
	}
	t && !NF { t = 0 }
	t {
		delete ce; ends($0, ce)
		for (i = 1; i <= NF; i++) {
			if (dur[i]) {
				cells++
				if ($i !~ D && $i != "-") { print "not a duration of the rule: " $i " in: " $0; bad = 1 }
				if (ce[i] != he[i]) { print "not right-aligned under its name: " $i " in: " $0; bad = 1 }
			}
		}
	}
	END { print tables " tables, " cells " duration cells checked"; exit bad || !cells }' \
	"$d/report.txt" >"$d/tables.out" || { cat "$d/tables.out"; fail "a table broke the rule"; }
echo "ok: $(tail -n 1 "$d/tables.out")"
expect "anon_vma read's wait figures, with no wait" \
	"$(awk '$1 == "lock" && $2 == "mode" { for (i = 1; i <= NF; i++) c[$i] = i; w = ("wait_p50" in c); next }
		!NF { w = 0; delete c } w && $1 == "anon_vma" && $2 == "read" {
		print $c["wait_p50"], $c["wait_p90"], $c["wait_p99"], $c["max_wait"], $c["total_wait"] }' "$d/report.txt")" \
	"- - - - -"
expect "anon_vma write's one wait of 8448450 ns, as max_wait" \
	"$(awk '$1 == "lock" && $2 == "mode" { for (i = 1; i <= NF; i++) c[$i] = i; w = ("wait_p50" in c); next }
		!NF { w = 0; delete c } w && $1 == "anon_vma" && $2 == "write" { print $c["max_wait"] }' "$d/report.txt")" \
	8.448ms
expect "the gather of 999950 ns, in its n= line" \
	"$(sed -n 's/^gather duration: //p' "$d/report.txt")" \
	"n=1 p50=1.000ms p90=1.000ms p99=1.000ms max=1.000ms"
span=$(sed -n '1s/.* events on [0-9]* CPUs over \([^ ]*\), .*/\1/p' "$d/report.txt")
printf '%s\n' "$span" | grep -Eq "$D" || fail "the report's span '$span' breaks the rule"
echo "ok: the report's span reads $span"

# 3. the histogram cut to 4 buckets: a "..." row for each run of the others
"$R" --summary "$d/stream.txt" >"$d/summary.txt" 2>&1 || fail "mmreport --summary failed"
awk '/^@anon_vma_write_hold_ns:$/ { h = 1; next } h && !NF { exit } h { print }' "$d/summary.txt" >"$d/hist.txt"
sed 's/^/    /' "$d/hist.txt"
holds=$(awk '$1 == "lock" && $2 == "mode" && $3 == "holds" { h = 1; next } !NF { h = 0 }
	h && $1 == "anon_vma" && $2 == "write" { print $3 }' "$d/summary.txt")
# each row's bounds: "[LO, HI)", "[N]" or "...  COUNT  K buckets not shown: [LO, HI)"
awk -v holds="$holds" '
	/^ *\(/ { next }
	/^\.\.\. / { gaps++; n += $2; lo = $(NF - 1); sub(/^\[/, "", lo); sub(/,$/, "", lo)
		hi = $NF; sub(/\)$/, "", hi) }
	/^\[[0-9]+\] / { x = $1; gsub(/[][]/, "", x); lo = x; hi = x + 1; n += $2 }
	/^\[[0-9]+[KMG]?, / { lo = $1; sub(/^\[/, "", lo); sub(/,$/, "", lo); hi = $2; sub(/\)$/, "", hi); n += $3 }
	{ if (prev != "" && lo != prev) { print "row starting at " lo " after one ending at " prev ": " $0; bad = 1 }
	  prev = hi; rows++ }
	END { print rows " rows, " gaps " of them \"...\" rows, " n " holds of " holds
		exit bad || !gaps || n != holds }' "$d/hist.txt" >"$d/hist.out" ||
	{ cat "$d/hist.out"; fail "the cut histogram hides a gap or loses holds"; }
echo "ok: cut histogram: $(tail -n 1 "$d/hist.out"), every row beginning where the last ended"
# the rows shown are the 4 fullest buckets of the full histogram, none empty
# a bucket row's count: the number before its bar
count='match($0, /[0-9]+ \|/) { print substr($0, RSTART, RLENGTH - 2) }'
full=$(awk "/^@anon_vma_write_hold_ns:\$/ { h = 1; next } h && !NF { exit } h && /^\\[/ && $count" \
	"$d/report.txt" | sort -n | tail -n 4 | paste -sd' ')
expect "the counts of the rows the cut histogram shows (the 4 fullest, bucket order aside)" \
	"$(awk "/^\\[/ && $count" "$d/hist.txt" | sort -n | paste -sd' ')" "$full"
# two holds far apart (1 us, 1 s): only their two buckets show, no empty row
printf '%s\n' \
	"1.000000000 0 100 crafted anon_vma_lock_acquired anon_vma=0xffff888000500000 root=0xffff888000500000 write=true success=true contended=false" \
	"1.000001000 0 100 crafted anon_vma_lock_released anon_vma=0xffff888000500000 root=0xffff888000500000 write=true" \
	"2.000000000 0 100 crafted anon_vma_lock_acquired anon_vma=0xffff888000500000 root=0xffff888000500000 write=true success=true contended=false" \
	"3.000000000 0 100 crafted anon_vma_lock_released anon_vma=0xffff888000500000 root=0xffff888000500000 write=true" \
	>"$d/two.txt"
"$R" --summary "$d/two.txt" >"$d/two.out" 2>&1 || fail "mmreport --summary failed on two holds"
two=$(awk '/^@anon_vma_write_hold_ns:$/ { h = 1; next } h && !NF { exit } h' "$d/two.out")
expect "rows of two holds' cut histogram: bucket rows, empty bucket rows, footer" \
	"$(printf '%s\n' "$two" | awk '/^\[/ { r++; if (match($0, /[0-9]+ \|/) && substr($0, RSTART, RLENGTH - 2) == 0) z++ }
		/fullest/ { f = $0 }
		END { sub(/^ */, "", f); print r + 0, z + 0, f }')" "2 0 (2 fullest of 21 buckets shown)"
echo "ok: a cut histogram shows its fullest buckets and never an empty one"

# 4. the timeline's window counts: two windows, as --stats takes the last
{
	echo "0.500000000 0 77 sh print marker=MMPREEMPT-WINDOW-START"
	sed -n 1,2p "$d/two.txt"
	echo "1.500000000 0 77 sh print marker=MMPREEMPT-WINDOW-END"
	echo "1.600000000 0 77 sh print marker=MMPREEMPT-WINDOW-START"
	sed -n 3,4p "$d/two.txt"
	echo "3.500000000 0 77 sh print marker=MMPREEMPT-WINDOW-END"
} >"$d/windows.txt"
"$R" --timeline "$d/tl" "$d/windows.txt" >/dev/null 2>&1 || fail "mmreport --timeline failed on two windows"
expect "the timeline's window line over two windows (the last one's holds)" \
	"$(sed -n 's/^in the MMPREEMPT window: //p' "$d/tl/summary.txt")" "1 holds released, 0 contended acquisitions"

# 5. the timeline's marks: a holder switched out, a waiter behind it, a
# short hold elsewhere: one wait, one switch-out, rows by longest hold
r=0xffff888000600000 q=0xffff888000700000
cat >"$d/marks.txt" <<EOF
10.000000000 0 200 holder anon_vma_lock_acquired anon_vma=$r root=$r write=true success=true contended=false
10.050000000 1 201 waiter anon_vma_lock_start anon_vma=$r root=$r write=true
10.100000000 0 200 holder sched_switch prev_pid=200 prev_state=R next_pid=0
10.200000000 0 0 swapper sched_switch prev_pid=0 prev_state=R next_pid=200
10.500000000 0 200 holder anon_vma_lock_released anon_vma=$r root=$r write=true
10.500100000 1 201 waiter anon_vma_lock_acquired anon_vma=$r root=$r write=true success=true contended=true
10.600100000 1 201 waiter anon_vma_lock_released anon_vma=$r root=$r write=true
11.000000000 0 202 short anon_vma_lock_acquired anon_vma=$q root=$q write=false success=true contended=false
11.001000000 0 202 short anon_vma_lock_released anon_vma=$q root=$q write=false
EOF
"$R" --timeline "$d/marks" "$d/marks.txt" >/dev/null 2>&1 || fail "mmreport --timeline failed on the marks stream"
expect "the marks' waits, switch-outs and rows (top row first)" \
	"$(wc -l <"$d/marks/waits.dat") $(wc -l <"$d/marks/switches.dat") $(sort -rn "$d/marks/rows.txt" | paste -sd,)" \
	"1 1 3 holder-200,2 waiter-201,1 short-202"
