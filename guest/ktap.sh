#!/bin/sh
# ktap.sh DIR [OUT]: run every DIR/*.sh test in name order, in the guest, and
# print KTAP: "TAP version 13", "1..N", then "ok N name", "not ok N name" or
# "ok N name # SKIP why" per test (kselftest: exit 4 means skip, and the test's
# last "SKIP: why" line says why). Each test's output goes to OUT/NAME.log;
# a failure also shows its last lines as "# " diagnostics. A test's header line
# "# timeout: S" bounds it (default 60 s). A test that reports results of its
# own (a KUnit suite) prints them as KTAP subtests, indented by 4 spaces;
# they are passed on, before the test's own line, as KTAP nests them.
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
n=0
for t in "$dir"/*.sh; do [ -f "$t" ] && selected "$t" && n=$((n + 1)); done
for u in $unknown; do n=$((n + 1)); done
echo "TAP version 13"
echo "1..$n"
i=0
for u in $unknown; do
	i=$((i + 1))
	echo "not ok $i $u # no such test in $dir"
done
for t in "$dir"/*.sh; do
	[ -f "$t" ] && selected "$t" || continue
	i=$((i + 1))
	name=$(basename "$t" .sh)
	tmo=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$t" | head -n 1)
	logf=$out/$name.log
	start=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 5 "${tmo:-60}" sh "$t" >"$logf" 2>&1 </dev/null
	rc=$?
	end=$(cut -d' ' -f1 /proc/uptime)
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
		echo "not ok $i $name # exit $rc, ${dur} s"
		tail -n 15 "$logf" | sed 's/^/# /'
		;;
	esac
done
[ -z "$unknown" ] && [ "$n" -gt 0 ]
