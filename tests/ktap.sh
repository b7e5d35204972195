#!/bin/sh
# ktap.sh DIR [OUT]: run every DIR/*.sh test in name order, in the guest, and
# print KTAP: "TAP version 13", "1..N", then "ok N name", "not ok N name" or
# "ok N name # SKIP why" per test (kselftest: exit 4 means skip, and the test's
# last "SKIP: why" line says why). Each test's output goes to OUT/NAME.log;
# a failure also shows its last lines as "# " diagnostics. A test's header line
# "# timeout: S" bounds it (default 60 s; four times that on the debug kernel). A test that reports results of its
# own (a KUnit suite) prints them as KTAP subtests, indented by 4 spaces;
# they are passed on, before the test's own line, as KTAP nests them.
# A test during which the kernel log shows a splat (guest/splat.awk over the
# dmesg lines that test added, less the reports its "# allow-splat: ERE"
# header lines allow) fails, whatever its exit status, and its log ends with
# the splat's lines: the runner's whole-boot check says that the boot was
# dirty, this one says which test made it so.
# A test whose header has "# order: last" runs after all the others (the
# kmemleak scan, which must see everything the suite allocated).
# MMPREEMPT_DEBUG_SUITE=ci (make test on the debug kernel): a test whose
# header has "# debug-ci: skip WHY" (WHY may go on over "#   " lines) is
# skipped, saying WHY and that `make test-debug` (MMPREEMPT_DEBUG_SUITE=full,
# the default) runs it; the variable reaches the tests too (mod-load-cycles
# runs fewer cycles).
# A test's "# requires:" tokens are checked first (tests/requires.sh): one
# not met fails the test, or skips it for a kernel config or NUMA shape,
# saying which.
# MMPREEMPT_ONLY="name ...": run only those tests (make test T="..."); a
# name with no DIR/NAME.sh is reported "not ok" (no such test). Exits 1 when
# a name is unknown or nothing was selected, else 0.
set -u
dir=$1
out=${2:-/mnt/results/tests}
mkdir -p "$out"
selected() {
	[ -z "${MMPREEMPT_ONLY:-}" ] && return 0
	case " $MMPREEMPT_ONLY " in *" $(basename "$1" .sh) "*) return 0 ;; esac
	return 1
}
unknown=""
for u in ${MMPREEMPT_ONLY:-}; do
	case $u in */*) unknown="$unknown $u"; continue ;; esac
	[ -f "$dir/$u.sh" ] || unknown="$unknown $u"
done
splat_awk=$(dirname "$0")/../guest/splat.awk
ART=${MMPREEMPT_ART:-/mnt/art}
. "$(dirname "$0")/requires.sh"
requires_config >/dev/null	# read once here, not once per test
# the tests in name order, those marked "order: last" after the rest (one
# grep: a process costs a lot on the debug kernel under TCG)
last=" $(grep -l '^# order: last' "$dir"/*.sh 2>/dev/null | tr '\n' ' ') "
ordered() {
	for t in "$dir"/*.sh; do
		[ -f "$t" ] || continue
		case $last in *" $t "*) ;; *) echo "$t" ;; esac
	done
	for t in $last; do echo "$t"; done
}
# The debug kernel (lockdep, KASAN, kmemleak) runs everything several
# times slower: its tests get four times their header's timeout.
scale=1 cishare=""
case $(uname -r) in *-debug) scale=4 ;; esac
if [ $scale = 4 ] && [ "${MMPREEMPT_DEBUG_SUITE:-full}" = ci ]; then
	cishare=" $(grep -l '^# debug-ci: skip' "$dir"/*.sh 2>/dev/null | tr '\n' ' ') "
fi
n=0
for t in $(ordered); do selected "$t" && n=$((n + 1)); done
for u in $unknown; do n=$((n + 1)); done
echo "TAP version 13"
echo "1..$n"
i=0
for u in $unknown; do
	i=$((i + 1))
	echo "not ok $i $u # no such test in $dir"
done
for t in $(ordered); do
	selected "$t" || continue
	i=$((i + 1))
	name=$(basename "$t" .sh)
	case $cishare in *" $t "*)
		why=$(awk '/^# debug-ci: skip/ { sub(/^# debug-ci: skip */, ""); r = $0; on = 1; next }
			on && /^#   / { sub(/^# +/, ""); r = r " " $0; next } { on = 0 } END { print r }' "$t")
		echo "ok $i $name # SKIP left to make test-debug on the debug kernel: $why"
		continue ;;
	esac
	if unmet=$(requires_unmet "$t"); then :; else
		echo "$unmet" >"$out/$name.log"
		case $unmet in
		skip*) echo "ok $i $name # SKIP ${unmet#skip }" ;;
		*) echo "not ok $i $name # ${unmet#fail }" ;;
		esac
		continue
	fi
	tmo=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$t" | head -n 1)
	tmo=$((${tmo:-60} * scale))
	logf=$out/$name.log
	start=$(cut -d' ' -f1 /proc/uptime)
	klines=$(dmesg | wc -l)
	timeout -k 5 "${tmo:-60}" sh "$t" >"$logf" 2>&1 </dev/null
	rc=$?
	end=$(cut -d' ' -f1 /proc/uptime)
	allow=$(allow_splat "$t")
	# a header ERE awk cannot compile stops awk at once: say so, never a pass
	if ! dmesg | tail -n +$((klines + 1)) | awk -v allow="$allow" -f "$splat_awk" >"$out/$name.splat"; then
		echo "the splat check failed (is the allow-splat '$allow' an ERE awk accepts?)" >"$out/$name.splat"
	fi
	if [ -s "$out/$name.splat" ]; then
		{ echo "kernel splat during this test (exit status $rc):"; cat "$out/$name.splat"; } >>"$logf"
		rc=99
	else
		rm -f "$out/$name.splat"
	fi
	grep -E '^    (not )?ok [0-9]+ ' "$logf"
	dur=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	case $rc in
	0) echo "ok $i $name # ${dur} s" ;;
	4)
		why=$(sed -n 's/^SKIP: *//p' "$logf" | tail -n 1)
		echo "ok $i $name # SKIP ${why:-no reason given}"
		;;
	*)
		[ $rc -eq 124 ] && echo "timed out after ${tmo:-60} s" >>"$logf"
		if [ $rc -eq 99 ]; then
			echo "not ok $i $name # kernel splat: $(head -n 1 "$out/$name.splat" | cut -c1-120), ${dur} s"
		else
			echo "not ok $i $name # exit $rc, ${dur} s"
		fi
		tail -n 15 "$logf" | sed 's/^/# /'
		;;
	esac
done
[ -z "$unknown" ] && [ "$n" -gt 0 ]
