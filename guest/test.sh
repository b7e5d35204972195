#!/bin/sh
# test.sh: the whole suite. One guest boot runs guest/tests/*.sh under
# guest/ktap.sh; then the host checks in guest/host-tests/*.sh read what the
# guest left in results/test/. Prints one KTAP report over both and ends with
# "N passed, N failed, N skipped" alone on a line; exits 1 on any failure.
# A guest test that was planned but never reported (the guest died) is failed.
set -u
. "$(dirname "$0")/lib.sh"

res=$TOP/results/test
rm -rf "$res"
mkdir -p "$res/share"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$res/share/nonce"

t0=$(date +%s)
log "guest suite: one boot, console streamed below (saved in results/test/console.log)"
# T="name ...": only those guest tests (the host checks always run).
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
			while IFS= read -r sl; do
				case $sl in
				ok*) emit ok "guest: ${sl#ok }" ;;
				*) emit not-ok "guest: ${sl#not ok }" ;;
				esac
			done <"$res/.subs"
			rm -f "$res/.subs"
			case $line in
			ok*) emit ok "guest: $name" "$dir" ;;
			*) emit not-ok "guest: $name" "$dir (see results/test/tests/$name.log)" ;;
			esac
			;;
		esac
	done <"$res/guest.tap"
fi
if [ -z "$planned" ]; then
	emit not-ok "guest: suite" "no KTAP plan came back from the guest"
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
	*) emit not-ok "host: $name" "exit $rc (see results/test/host-$name.log)"
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
