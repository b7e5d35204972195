#!/bin/sh
# description: bench/summary.sh makes markdown and JSON of four tables, rows agreeing
#   bench/summary.sh turns the tables the guest test bench-smoke
#   printed (module-cost, root-contention, preempt-latency, and
#   workload-cost's, made from its raw lines by bench/workload-cost-table.sh:
#   off-cost's table is made on the host and needs the stock kernel) into
#   summary.md and summary.json: the JSON parses (perl's JSON::PP), has those
#   four tables
#   and as many rows in each as the markdown, and every row as many values
#   as its table has columns
# requires: perl
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ bench-smoke( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test bench-smoke did not run (T= selects others)"
s=$RES/bench-summary
rm -rf "$s" && mkdir -p "$s"
for b in module-cost root-contention preempt-latency; do
	[ -s "$RES/bench-$b.txt" ] || fail "bench-smoke left no $RES/bench-$b.txt"
	cp "$RES/bench-$b.txt" "$s/$b.txt"
done
[ -s "$RES/bench-workload-cost.raw" ] || fail "bench-smoke left no $RES/bench-workload-cost.raw"
sed 's/^/normal /' "$RES/bench-workload-cost.raw" | "$TOP/bench/workload-cost-table.sh" >"$s/workload-cost.txt" ||
	fail "bench/workload-cost-table.sh failed"
"$TOP/bench/summary.sh" "$s" || fail "bench/summary.sh failed"
got=$(perl -MJSON::PP -e '
	local $/; open(my $f, "<", $ARGV[0]) or die "$ARGV[0]: $!\n";
	my $t = decode_json(<$f>);
	for my $x (@$t) {
		for my $r (@{$x->{rows}}) {
			die "$x->{bench}: a row of " . @$r . " values, columns " . @{$x->{columns}} . "\n"
				if @$r != @{$x->{columns}};
		}
	}
	print join(" ", map { "$_->{bench}:" . @{$_->{rows}} } @$t), "\n"' "$s/summary.json") ||
	fail "summary.json does not parse or has a short row"
want=$(awk '/^## / { b = $2 } /^\| / && !/^\|---/ { n[b]++ } END {
	split("module-cost root-contention workload-cost preempt-latency", o, " ")
	for (i = 1; i <= 4; i++) printf "%s%s:%d", (i > 1 ? " " : ""), o[i], n[o[i]] - 1; print "" }' "$s/summary.md")
expect "tables and rows in summary.json (summary.md: the same)" "$got" "$want"
