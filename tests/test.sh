#!/bin/sh
# test.sh: the whole suite. Makes each kernel's guest (make guest,
# make guest-debug, make sparc64), then one guest boot per kernel (KERNELS,
# default "normal"): the x86 ones run tests/guest/*.sh under tests/ktap.sh
# (tests/boot-suite.sh, which passes guest/run.sh their "# allow-splat:" lines),
# the sparc64 one the programs of tests/sparc64/list (guest/run-sparc64.sh);
# then the host checks in tests/host/*.sh read what the normal
# kernel's boot left in the results folder (RESULTS, default results/test;
# the other boots' results are in its debug/ and sparc64/ subfolders).
# Prints one KTAP report over all of it, each guest result named for its
# kernel ("guest:" normal, "guest debug:", "guest sparc64:"), and ends with
# "N passed, N failed, N skipped" alone on a line; exits 1 on any failure.
# A guest test that was planned but never reported (the guest died) is failed.
# The suite's tests are listed in tests/expected-tests: a listed test without
# its file, or a test file not listed, is a failure.
# T="name ...": only those x86 guest tests (the host checks always run, the
# sparc64 list is whole); a name that is no guest test is an error, before
# anything boots.
# KERNELS: any of normal, debug, sparc64. With more than one, they are made
# and booted as a pipeline: the debug kernel first, each next one made beside
# the running suites and booted when made, unless SERIAL=1 (one after the
# other). A kernel whose make fails is a failed result; the others still run.
# DEBUG_SUITE=ci | full (default full): on the debug kernel, ci skips the
# tests marked "# debug-ci: skip WHY" and runs fewer load cycles and proof
# rounds (make test, which CI runs); full runs everything (make test-debug).
# RESULTS=dir: where this run's results go (emptied first), so that two runs
# in one tree do not clash.
set -u
. "$(dirname "$0")/../guest/usage.sh"
usage_check "test.sh (settings in the environment: KERNELS T DEBUG_SUITE RESULTS)" 0 "$@"
. "$(dirname "$0")/../guest/lib.sh"
. "$(dirname "$0")/requires.sh"

res=${RESULTS:-$TOP/results/test}
case $res in /*) ;; *) res=$(pwd)/$res ;; esac
# It is emptied: refuse a folder that holds anything but an earlier run.
if [ -d "$res" ] && [ -n "$(ls -A "$res" 2>/dev/null)" ] &&
	[ ! -f "$res/.mmpreempt-test" ] && [ ! -f "$res/report.tap" ] && [ ! -f "$res/console.log" ]; then
	die "RESULTS=$res is not empty and holds no earlier test run: refusing to empty it"
fi
expected=$TOP/tests/expected-tests

# T: every name a guest test, and at least one name.
if [ -n "${T+set}" ] && [ -n "$T" ]; then
	[ -n "$(printf '%s' "$T" | tr -d ' \t\n')" ] || die "T='$T' selects no test"
	for n in $T; do
		case $n in */*) die "T: '$n' is no test name (a name is a file of tests/guest/ less .sh)" ;; esac
		[ -f "$TOP/tests/guest/$n.sh" ] && continue
		if [ -f "$TOP/tests/host/$n.sh" ]; then
			die "T: $n is a host test (host tests always run; T selects guest tests)"
		fi
		die "T: no guest test named '$n' (see tests/guest/*.sh or tests/expected-tests)"
	done
fi

kernels=${KERNELS:-normal}
for v in $kernels; do
	case $v in normal|debug|sparc64) ;; *) die "KERNELS: '$v' is no kernel (normal, debug, sparc64)" ;; esac
done
[ -n "$(printf '%s' "$kernels" | tr -d ' ')" ] || die "KERNELS='$KERNELS' selects no kernel"
dsuite=${DEBUG_SUITE:-full}
case $dsuite in ci|full) ;; *) die "DEBUG_SUITE: '$dsuite' is neither ci nor full" ;; esac

rm -rf "$res"
mkdir -p "$res"
normal_pid=""
: >"$res/.mmpreempt-test"
rel=${res#"$TOP"/}

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
	{ ls_tests guest "$TOP/tests/guest"; ls_tests host "$TOP/tests/host"; } | sort >"$res/.have"
	comm -23 "$res/.want" "$res/.have" >"$res/.missing"
	comm -13 "$res/.want" "$res/.have" >"$res/.unlisted"
	while IFS= read -r l; do
		case $l in
		"guest "*|"host "*) emit not-ok "suite: $l is on tests/expected-tests but has no file" "deleted or renamed?" ;;
		*) emit not-ok "suite: tests/expected-tests line '$l'" "want 'guest NAME' or 'host NAME'" ;;
		esac
	done <"$res/.missing"
	while IFS= read -r l; do
		emit not-ok "suite: $l is not on tests/expected-tests" "list it there"
	done <"$res/.unlisted"
	if [ ! -s "$res/.missing" ] && [ ! -s "$res/.unlisted" ]; then
		emit ok "suite: the $(grep -c '^guest ' "$res/.have") guest and $(grep -c '^host ' "$res/.have") host tests are those of tests/expected-tests"
	fi
	rm -f "$res/.want" "$res/.have" "$res/.missing" "$res/.unlisted"
else
	emit not-ok "suite: tests/expected-tests" "missing: the suite cannot tell a missing test"
fi

kdir() { if [ "$1" = normal ]; then echo "$res"; else echo "$res/$1"; fi; }
label_of() { if [ "$1" = normal ]; then echo guest; else echo "guest $1"; fi; }

# boot_suite V: one boot of kernel V running the guest suite into its folder;
# the run's status and time are left in the folder.
boot_suite() {
	bd=$(kdir "$1")
	mkdir -p "$bd/share"
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$bd/share/nonce"
	bt0=$(date +%s)
	brc=0
	# the whole boot's bound (guest/run.sh TIMEOUT) unless given: the debug
	# kernel runs the suite several times slower, and all of it (1,000 load
	# cycles) far longer than CI's share
	case $1:$dsuite in
	debug:full) btmo=${TIMEOUT:-10800} ;;
	debug:*) btmo=${TIMEOUT:-4800} ;;
	sparc64:*) btmo=${TIMEOUT:-300} ;;
	*) btmo=${TIMEOUT:-2400} ;;
	esac
	# sparc64: its own runner and test list (tests/sparc64/list); T does
	# not select there. Its boot takes ~10 s; an oops there hangs it (the
	# sun4u reset after panic does not end QEMU), so the bound is short.
	if [ "$1" = sparc64 ]; then
		TIMEOUT=$btmo VARIANT=sparc64 QUIET=1 "$TOP/guest/run-sparc64.sh" -r "$bd" || brc=$?
		echo "$brc" >"$bd/.runrc"
		elapsed "$bt0" >"$bd/.guest-seconds"
		return
	fi
	# x86: tests/boot-suite.sh, which gives guest/run.sh the allow-splat
	# lines of the tests it runs
	TIMEOUT=$btmo VARIANT=$1 ART="" QUIET_KERNEL=${QUIET_KERNEL-quiet} DEBUG_SUITE=$dsuite \
		"$TOP/tests/boot-suite.sh" "$bd" || brc=$?
	echo "$brc" >"$bd/.runrc"
	elapsed "$bt0" >"$bd/.guest-seconds"
}

# suite_on V: the results of kernel V's boot, each named for V.
suite_on() {
	v=$1
	dir=$(kdir "$v")
	label=$(label_of "$v")
	drel=${dir#"$TOP"/}
	runrc=$(cat "$dir/.runrc" 2>/dev/null || echo 125)
	guest_secs=$(cat "$dir/.guest-seconds" 2>/dev/null || echo 0)
	if [ $runrc -eq 0 ]; then
		emit ok "$label: boot, run, status returned, console clean" "$guest_secs s"
	else
		emit not-ok "$label: boot, run, status returned, console clean" "run.sh exit $runrc"
	fi

	# Guest results, renumbered; a planned test without a result line failed.
	planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$dir/guest.tap" 2>/dev/null | head -n 1)
	seen=0
	subs=""
	if [ -f "$dir/guest.tap" ]; then
		while IFS= read -r line; do
			case $line in
			"    ok "*|"    not ok "*)
				# a subtest: counted, named after its parent line below
				sub=$line
				subs="$subs$(printf '%s\n' "$sub" | sed 's/^ *//')$nl"
				;;
			"ok "*|"not ok "*)
				seen=$((seen + 1))
				body=${line#ok }
				body=${body#not ok }
				name=${body#* }
				dirv=""
				case $name in *" # "*) dirv=${name#* \# }; name=${name%% \# *} ;; esac
				printf '%s' "$subs" | while IFS= read -r sl; do
					[ -n "$sl" ] || continue
					sb=${sl#ok }
					sb=${sb#not ok }
					sb=${sb#* }
					case $sl in
					ok*) echo "ok $name: $sb" ;;
					*) echo "not ok $name: $sb" ;;
					esac
				done >"$dir/.subs"
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
					emit $st "$label: $sb" "$sd"
				done <"$dir/.subs"
				rm -f "$dir/.subs"
				case $line in
				ok*) emit ok "$label: $name" "$dirv" ;;
				*) emit not-ok "$label: $name" "$dirv (see $drel/tests/$name.log)" ;;
				esac
				;;
			esac
		done <"$dir/guest.tap"
	fi
	if [ -z "$planned" ]; then
		emit not-ok "$label: suite" "no KTAP plan came back from the guest"
	elif [ "$planned" -eq 0 ]; then
		emit not-ok "$label: suite" "the guest ran no test (empty selection)"
	else
		while [ "$seen" -lt "$planned" ]; do
			seen=$((seen + 1))
			emit not-ok "$label: test $seen of $planned" "never reported (guest died or hung)"
		done
	fi
}
nl='
'
# build_guest V [NICE [PREFIX]]: make what kernel V's boot needs (make guest
# or guest-debug) at that niceness; its output is shown (each line prefixed
# [V] if PREFIX is given) and kept in V's folder, and its status left there.
build_guest() {
	bd=$(kdir "$1")
	mkdir -p "$bd"
	case $1 in normal) tgt=guest ;; debug) tgt=guest-debug ;; *) tgt=$1 ;; esac
	t0=$(date +%s)
	{ nice -n "${2:-0}" ${MAKE:-make} --no-print-directory -C "$TOP" $tgt 2>&1; echo $? >"$bd/.buildrc"; } |
		tee "$bd/build.log" | sed -u "${3:+s/^/[$1] /}"
	echo "$tgt" >"$bd/.buildtarget"
	log "make $tgt: exit $(cat "$bd/.buildrc"), $(elapsed "$t0") s"
}
built() { [ "$(cat "$(kdir "$1")/.buildrc" 2>/dev/null)" = 0 ]; }

# run_host FILE: one host check, its output in host-NAME.log and its exit
# status in host-NAME.rc; its "# requires:" checked first, on the host
# (tests/requires.sh).
run_host() {
	hn=$(basename "$1" .sh)
	hrc=0
	if unmet=$(ART=$TOP/build requires_unmet "$1"); then :; else
		case $unmet in
		skip*) echo "SKIP: ${unmet#skip }" >"$res/host-$hn.log"; echo 4 >"$res/host-$hn.rc" ;;
		*) echo "FAIL: ${unmet#fail }" >"$res/host-$hn.log"; echo 1 >"$res/host-$hn.rc" ;;
		esac
		return 0
	fi
	env MMPREEMPT_RESULTS="$res" MMPREEMPT_TOP="$TOP" TOP="$TOP" CACHE="$CACHE" sh "$1" >"$res/host-$hn.log" 2>&1 </dev/null || hrc=$?
	echo "$hrc" >"$res/host-$hn.rc"
}

tall=$(date +%s)
# The kernels are made and booted as a pipeline: QEMU's TCG runs a guest on
# one host thread, so while the debug kernel's suite (the longest) runs, the
# others build on the other core (niced, so that the guests keep theirs) and
# boot there when made. Each guest's results are shown as they come,
# prefixed with its kernel.
nk=$(echo $kernels | wc -w)
if [ "$nk" -gt 1 ] && [ "$(nproc)" -ge 2 ] && [ "${SERIAL:-0}" != 1 ]; then
	order=$(for v in debug normal sparc64; do case " $kernels " in *" $v "*) echo $v ;; esac; done)
	log "kernels $(echo $order | sed 's/ / then /g'): each boots its suite once made, beside the next one's build; consoles in $rel/console.log and $rel/KERNEL/console.log"
	pids=""
	first=1
	for v in $order; do
		bd=$(kdir "$v")
		mkdir -p "$bd"
		if [ $first = 1 ]; then
			build_guest "$v"
		else
			log "making the $v kernel's guest beside the running suite (niced; its output prefixed [$v])"
			build_guest "$v" 19 prefix
		fi
		first=0
		built "$v" || continue
		: >"$bd/guest.tap"
		QUIET=1 boot_suite "$v" >"$bd/run.log" 2>&1 &
		bp=$!
		pids="$pids $bp"
		[ "$v" = normal ] && normal_pid=$bp
		tail -n +1 -f --pid="$bp" "$bd/guest.tap" 2>/dev/null | sed -u "s/^/[$v] /" &
	done
	# The host checks read only the normal boot's results: they run as soon
	# as it is over, beside the suites still running.
	# (The boot's end is its .runrc: a finished boot stays a zombie, alive
	# to kill -0, until the wait below reaps it.)
	if [ -n "$normal_pid" ]; then
		(
			while [ ! -f "$res/.runrc" ] && kill -0 "$normal_pid" 2>/dev/null; do sleep 5; done
			: >"$res/.hosts-started"
			for t in "$TOP"/tests/host/*.sh; do [ -f "$t" ] && run_host "$t"; done
			log "host checks done, beside the suites"
		) &
		pids="$pids $!"
	fi
	for p in $pids; do wait "$p"; done
	sleep 1
	for v in $order; do built "$v" && sed "s/^/[$v] /" "$(kdir "$v")/run.log" >&2; done
else
	for v in $kernels; do
		build_guest "$v"
		built "$v" || continue
		log "guest suite on the $v kernel: one boot, console streamed below (saved in ${rel}$( [ $v = normal ] || echo "/$v")/console.log)"
		boot_suite "$v"
	done
fi
for v in $kernels; do
	if built "$v"; then
		suite_on "$v"
	else
		label=$(label_of "$v")
		d=$(kdir "$v")
		emit not-ok "$label: make $(cat "$d/.buildtarget")" "exit $(cat "$d/.buildrc" 2>/dev/null) (see ${d#"$TOP"/}/build.log): nothing booted"
		tail -n 10 "$d/build.log" | sed 's/^/# /' >>"$report.body"
	fi
done

# Host checks over the normal boot's results.
case " $kernels " in
*" normal "*) hosts="$TOP/tests/host/*.sh" ;;
*) hosts=""; emit ok "host: checks" "SKIP they read the normal kernel's boot, and KERNELS=$kernels" ;;
esac
for t in $hosts; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	logf=$res/host-$name.log
	if [ ! -f "$res/host-$name.rc" ]; then
		[ -f "$res/.hosts-started" ] && log "host check $name: no result from the run beside the suites; running it now"
		run_host "$t"
	fi
	rc=$(cat "$res/host-$name.rc")
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
log "total $(elapsed "$tall") s (guest boots and suites:$(for v in $kernels; do d=$(kdir "$v"); if [ -f "$d/.guest-seconds" ]; then printf ' %s %s s' "$v" "$(cat "$d/.guest-seconds")"; else printf ' %s not booted' "$v"; fi; done))"
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" -eq 0 ]
