#!/bin/sh
# description: bench/summary.sh: markdown, JSON and RESULTS.md of four tables, provenance
#   bench/summary.sh turns the tables the guest test bench-smoke
#   printed (module-cost, root-contention, preempt-latency, and
#   workload-cost's, made from its raw lines by bench/workload-cost-table.sh:
#   off-cost's table is made on the host and needs the stock kernel) into
#   summary.md and summary.json: the JSON parses (perl's JSON::PP), has those
#   four tables
#   and as many rows in each as the markdown, and every row as many values
#   as its table has columns. Given a folder, it writes RESULTS.md there
#   (the repository's bench/RESULTS.md stays as it was) with: one
#   provenance line made from the benchmarks' .stamp files (bench/stamp.sh
#   over given run folders: TCG+icount, multi-threaded TCG, KVM, two
#   kernels in one benchmark, one benchmark of another day and commit),
#   equal to the line wanted; the line naming the benchmarks not run
#   (off-cost, setup-cost); and each table under its heading, its header
#   the .txt file's and as many rows as summary.json has
# requires: perl git
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

# Run folders as guest/run.sh leaves them (qemu.env, dmesg.txt), one per
# QEMU mode, and a stamp per benchmark from them
boot() {	# boot NAME ACCEL ICOUNT SMP RELEASE
	mkdir -p "$s/$1"
	printf 'accel=%s\nsmp=%s\nnuma=1\nmem_mib=1024\nicount=%s\nqemu=7.2\n' "$2" "$4" "$3" >"$s/$1/qemu.env"
	printf '[    0.000000] Linux version %s (mmpreempt@guest) (gcc 12.2.0) #1 SMP\n' "$5" >"$s/$1/dmesg.txt"
}
boot icount tcg,thread=single 1 1 6.1.192-mmpreempt
boot lockstat tcg,thread=single 1 1 6.1.192-mmpreempt-lockstat
boot multi tcg,thread=multi 0 2 6.1.192-mmpreempt
boot kvm kvm 0 2 6.1.192-mmpreempt
st() { "$TOP/bench/stamp.sh" "$s" "$@" || fail "bench/stamp.sh $* failed"; }
st module-cost "$s/icount"
st root-contention "$s/multi"
st workload-cost "$s/icount" "$s/lockstat"
st preempt-latency "$s/kvm"
sed -i 's/^date .*/date 2000-01-01/; s/^commit .*/commit abc1234/' "$s/preempt-latency.stamp"

sum0=$(cksum 2>/dev/null <"$TOP/bench/RESULTS.md" || :)
"$TOP/bench/summary.sh" "$s" || fail "bench/summary.sh failed"
expect "bench/RESULTS.md after summary.sh of another folder (its checksum)" \
	"$(cksum 2>/dev/null <"$TOP/bench/RESULTS.md" || :)" "$sum0"
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
rows() {	# rows FILE: "bench:N" per "## bench" section's table, in order
	awk '/^## / { b = $2; o[++n] = b } /^\| / && !/^\|---/ { c[b]++ }
		END { for (i = 1; i <= n; i++) printf "%s%s:%d", (i > 1 ? " " : ""), o[i], c[o[i]] - 1; print "" }' "$1"
}
expect "tables and rows in summary.json (summary.md: the same)" "$got" "$(rows "$s/summary.md")"
expect "tables and rows in RESULTS.md (summary.json: the same)" "$(rows "$s/RESULTS.md")" "$got"
expect "the tables in RESULTS.md" "$(sed -n 's/^## //p' "$s/RESULTS.md" | xargs)" \
	"module-cost root-contention workload-cost preempt-latency"

# the provenance line, as it should read from those stamps
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
want="Provenance: measured $(date -u +%Y-%m-%d) at $(git -C "$TOP" describe --always --dirty) on ${cpu:-$(uname -m)}, $(nproc) cores"
want="$want; module-cost: TCG+icount, 1 vCPU, guest kernel 6.1.192-mmpreempt"
want="$want; root-contention: TCG multi-threaded, 2 vCPUs, guest kernel 6.1.192-mmpreempt"
want="$want; workload-cost: TCG+icount, 1 vCPU, guest kernel 6.1.192-mmpreempt and 6.1.192-mmpreempt-lockstat"
want="$want; preempt-latency: (2000-01-01, abc1234) KVM, 2 vCPUs, guest kernel 6.1.192-mmpreempt"
expect "provenance lines in RESULTS.md" "$(grep -c '^Provenance: ' "$s/RESULTS.md")" 1
expect "RESULTS.md's provenance line" "$(grep '^Provenance: ' "$s/RESULTS.md")" "$want"
expect "RESULTS.md's line on what did not run" "$(grep '^Not in this file' "$s/RESULTS.md")" \
	"Not in this file (no results): off-cost, setup-cost."
expect "root-contention's provenance in summary.json" \
	"$(perl -MJSON::PP -e 'local $/; open(my $f, "<", $ARGV[0]) or die; print map { $_->{bench} eq "root-contention" ? $_->{provenance} : () } @{decode_json(<$f>)}' "$s/summary.json")" \
	"TCG multi-threaded, 2 vCPUs, guest kernel 6.1.192-mmpreempt"
# each table's header row is its .txt file's
for b in module-cost root-contention workload-cost preempt-latency; do
	h=$(awk '$1 ~ /^(configuration|path|model|tool|workload|setup)$/ { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; print ""; exit }' "$s/$b.txt")
	[ -n "$h" ] || fail "$b.txt has no header row"
	expect "$b's header row in RESULTS.md" \
		"$(awk -v b="$b" '/^## / { t = ($2 == b) } t && /^\| / { print; exit }' "$s/RESULTS.md")" "$h"
done
