#!/bin/sh
# test.sh: the whole suite. One guest boot runs guest/tests/*.sh under
# guest/ktap.sh; then the host checks in guest/host-tests/*.sh read what the
# guest left in the results folder (RESULTS, default results/test). Prints
# one KTAP report over both and ends with "N passed, N failed, N skipped"
# alone on a line; exits 1 on any failure.
# A guest test that was planned but never reported (the guest died) is failed.
# The suite's tests are listed in guest/expected-tests: a listed test without
# its file, or a test file not listed, is a failure.
# T="name ...": only those guest tests (the host checks always run); a name
# that is no guest test is an error, before anything boots.
# RESULTS=dir: where this run's results go (emptied first), so that two runs
# in one tree do not clash.
set -u
. "$(dirname "$0")/lib.sh"

res=${RESULTS:-$TOP/results/test}
case $res in /*) ;; *) res=$(pwd)/$res ;; esac
# It is emptied: refuse a folder that holds anything but an earlier run.
if [ -d "$res" ] && [ -n "$(ls -A "$res" 2>/dev/null)" ] &&
	[ ! -f "$res/.mmpreempt-test" ] && [ ! -f "$res/report.tap" ] && [ ! -f "$res/console.log" ]; then
	die "RESULTS=$res is not empty and holds no earlier test run: refusing to empty it"
fi
expected=$TOP/guest/expected-tests

# T: every name a guest test, and at least one name.
if [ -n "${T+set}" ] && [ -n "$T" ]; then
	[ -n "$(printf '%s' "$T" | tr -d ' \t\n')" ] || die "T='$T' selects no test"
	for n in $T; do
		case $n in */*) die "T: '$n' is no test name (a name is a file of guest/tests/ less .sh)" ;; esac
		[ -f "$TOP/guest/tests/$n.sh" ] && continue
		if [ -f "$TOP/guest/host-tests/$n.sh" ]; then
			die "T: $n is a host test (host tests always run; T selects guest tests)"
		fi
		die "T: no guest test named '$n' (see guest/tests/*.sh or guest/expected-tests)"
	done
fi

rm -rf "$res"
mkdir -p "$res/share"
: >"$res/.mmpreempt-test"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$res/share/nonce"
rel=${res#"$TOP"/}

t0=$(date +%s)
log "guest suite: one boot, console streamed below (saved in $rel/console.log)"
QUIET_KERNEL=${QUIET_KERNEL-quiet} "$TOP/guest/run.sh" -r "$res" -- \
	"MMPREEMPT_ONLY='${T:-}' sh /mnt/repo/guest/ktap.sh /mnt/repo/guest/tests /mnt/results/tests | tee /mnt/results/guest.tap"
runrc=$?
guest_secs=$(elapsed "$t0")

report=$res/report.tap
pass=0 failn=0 skipn=0 i=0
emit() { # emit ok|not-ok NAME [DIRECTIVE]
	i=$((i + 1))
	case $1 in
	ok) echo "ok $i $2${3:+ # $3}" ;;
	*) echo "not ok $i $2${3:+ # $3}" ;;
	esac >>"$report.body"
	case $1:${3:-} in
	ok:SKIP*) skipn=$((skipn + 1)) ;;
	ok:*) pass=$((pass + 1)) ;;
	*) failn=$((failn + 1)) ;;
	esac
}
: >"$report.body"

# The suite's tests against its list: a missing or an unlisted test fails.
ls_tests() { # ls_tests KIND DIR
	for f in "$2"/*.sh; do [ -f "$f" ] && echo "$1 $(basename "$f" .sh)"; done
}
if [ -f "$expected" ]; then
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$expected" | awk '{ print $1, $2 }' | sort >"$res/.want"
	{ ls_tests guest "$TOP/guest/tests"; ls_tests host "$TOP/guest/host-tests"; } | sort >"$res/.have"
	comm -23 "$res/.want" "$res/.have" >"$res/.missing"
	comm -13 "$res/.want" "$res/.have" >"$res/.unlisted"
	while IFS= read -r l; do
		case $l in
		"guest "*|"host "*) emit not-ok "suite: $l is on guest/expected-tests but has no file" "deleted or renamed?" ;;
		*) emit not-ok "suite: guest/expected-tests line '$l'" "want 'guest NAME' or 'host NAME'" ;;
		esac
	done <"$res/.missing"
	while IFS= read -r l; do
		emit not-ok "suite: $l is not on guest/expected-tests" "list it there"
	done <"$res/.unlisted"
	if [ ! -s "$res/.missing" ] && [ ! -s "$res/.unlisted" ]; then
		emit ok "suite: the $(grep -c '^guest ' "$res/.have") guest and $(grep -c '^host ' "$res/.have") host tests are those of guest/expected-tests"
	fi
	rm -f "$res/.want" "$res/.have" "$res/.missing" "$res/.unlisted"
else
	emit not-ok "suite: guest/expected-tests" "missing: the suite cannot tell a missing test"
fi

if [ $runrc -eq 0 ]; then
	emit ok "guest: boot, run, status returned, console clean" "$guest_secs s"
else
	emit not-ok "guest: boot, run, status returned, console clean" "run.sh exit $runrc"
fi

# Guest results, renumbered; a planned test without a result line failed.
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$res/guest.tap" 2>/dev/null | head -n 1)
seen=0
subs=""
if [ -f "$res/guest.tap" ]; then
	while IFS= read -r line; do
		case $line in
		"    ok "*|"    not ok "*)
			# a subtest: counted, named after its parent line below
			sub=$line
			subs="$subs$(printf '%s\n' "$sub" | sed 's/^ *//')
"
			;;
		"ok "*|"not ok "*)
			seen=$((seen + 1))
			body=${line#ok }
			body=${body#not ok }
			name=${body#* }
			dir=""
			case $name in *" # "*) dir=${name#* \# }; name=${name%% \# *} ;; esac
			printf '%s' "$subs" | while IFS= read -r sl; do
				[ -n "$sl" ] || continue
				sb=${sl#ok }
				sb=${sb#not ok }
				sb=${sb#* }
				case $sl in
				ok*) echo "ok $name: $sb" ;;
				*) echo "not ok $name: $sb" ;;
				esac
			done >"$res/.subs"
			subs=""
			# a subtest's own directive ("# SKIP why") stays one: a skipped
			# case is counted as skipped, not as passed
			while IFS= read -r sl; do
				case $sl in
				ok*) st=ok sb=${sl#ok } ;;
				*) st=not-ok sb=${sl#not ok } ;;
				esac
				sd=""
				case $sb in *" # "*) sd=${sb#* \# }; sb=${sb%% \# *} ;; esac
				emit $st "guest: $sb" "$sd"
			done <"$res/.subs"
			rm -f "$res/.subs"
			case $line in
			ok*) emit ok "guest: $name" "$dir" ;;
			*) emit not-ok "guest: $name" "$dir (see $rel/tests/$name.log)" ;;
			esac
			;;
		esac
	done <"$res/guest.tap"
fi
if [ -z "$planned" ]; then
	emit not-ok "guest: suite" "no KTAP plan came back from the guest"
elif [ "$planned" -eq 0 ]; then
	emit not-ok "guest: suite" "the guest ran no test (empty selection)"
else
	while [ "$seen" -lt "$planned" ]; do
		seen=$((seen + 1))
		emit not-ok "guest: test $seen of $planned" "never reported (guest died or hung)"
	done
fi

# Host checks over the same results.
for t in "$TOP"/guest/host-tests/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	logf=$res/host-$name.log
	MMPREEMPT_RESULTS=$res MMPREEMPT_TOP=$TOP TOP=$TOP CACHE=$CACHE sh "$t" >"$logf" 2>&1 </dev/null
	rc=$?
	case $rc in
	0) emit ok "host: $name" ;;
	4) emit ok "host: $name" "SKIP $(sed -n 's/^SKIP: *//p' "$logf" | tail -n 1)" ;;
	*) emit not-ok "host: $name" "exit $rc (see $rel/host-$name.log)"
	   tail -n 10 "$logf" | sed 's/^/# /' >>"$report.body" ;;
	esac
done

{ echo "TAP version 13"; echo "1..$i"; cat "$report.body"; } >"$report"
rm -f "$report.body"
echo
cat "$report"
log "total $(elapsed "$t0") s (guest boot and suite: $guest_secs s)"
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" -eq 0 ]
