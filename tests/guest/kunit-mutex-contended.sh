#!/bin/sh
# description: mutex_is_contended KUnit suite ran at boot, every case passed
#   the KUnit suite of patches/0001 (mutex_is_contended), built in
#   and run at boot: its KTAP results from the kernel log, one subtest each.
#   Fails if KUnit did not run, if a suite of its plan never reported (the
#   boot log's "1..N" against its suite lines), if mutex_is_contended is
#   missing, lacks one of its cases (unlocked, uncontended, contended and
#   released), or has a case or suite that failed or was skipped: a skipped
#   case proves nothing
# requires: CONFIG_MUTEX_CONTENDED_KUNIT_TEST=y CONFIG_KUNIT_DEFAULT_ENABLED=y
# timeout: 10
. "$(dirname "$0")/lib/common.sh"
suite=mutex_is_contended
cases="mutex_unlocked_not_contended mutex_uncontended_lock_not_contended mutex_waiter_contends"
# KUNIT_LOG=file: read that instead of the kernel log (to check this check)
if [ -n "${KUNIT_LOG:-}" ]; then
	sed 's/^\[[^]]*\] //' "$KUNIT_LOG" >/tmp/kunit.log
else
	dmesg | sed 's/^\[[^]]*\] //' >/tmp/kunit.log
fi
grep -q '^kunit: disabled' /tmp/kunit.log && fail "KUnit is disabled (kunit.enable=0)"
# The executor's document: "KTAP version 1", "1..N", then per suite its
# indented subtest lines and one unindented "ok|not ok K SUITE" line.
awk -v s="$suite" -v want="$cases" '
	/^KTAP version 1$/ && !top { top = 1; next }
	top == 1 && /^1\.\.[0-9]+$/ { plan = substr($1, 4) + 0; top = 2; next }
	top != 2 { next }
	$0 == "    # Subtest: " s { on = 1; next }
	on && /^    1\.\.[0-9]+$/ { cplan = substr($1, 4) + 0 }
	on && /^    (not )?ok [0-9]+ / { print; n++; name = ($1 == "ok") ? $3 : $4; seen[name] = 1 }
	on && $0 ~ "^# " s ": pass:" { print "stats:" substr($0, length(s) + 5) }
	/^(not )?ok [0-9]+ / {
		suites++
		nm = ($1 == "ok") ? $3 : $4
		if (nm == s) found = 1
		if ($1 != "ok" || / # SKIP/) print "bad suite: " $0
		on = 0
	}
	END {
		if (!top) { print "no KUnit run"; exit }
		printf "suites: %d of %d reported\n", suites, plan
		if (!found) { print "missing suite"; exit }
		printf "cases: %d of %d reported\n", n, cplan
		k = split(want, w, " ")
		for (i = 1; i <= k; i++) if (!(w[i] in seen)) print "missing case: " w[i]
	}
' /tmp/kunit.log >/tmp/kunit.res
cat /tmp/kunit.res
grep -q '^no KUnit run' /tmp/kunit.res && fail "no KUnit run in the kernel log"
sed -n 's/^suites: \([0-9]*\) of \([0-9]*\) reported$/\1 \2/p' /tmp/kunit.res | {
	read -r got plan || exit 1
	[ "$plan" -ge 1 ] && [ "$got" -eq "$plan" ]
} || fail "KUnit planned more suites than reported: a suite is missing from the kernel log"
grep -q '^missing suite' /tmp/kunit.res && fail "suite $suite not found in the kernel log"
grep '^bad suite: ' /tmp/kunit.res && fail "a KUnit suite failed or was skipped"
grep '^missing case: ' /tmp/kunit.res && fail "a case of $suite is missing"
plan=$(sed -n 's/^cases: [0-9]* of \([0-9]*\) reported$/\1/p' /tmp/kunit.res)
got=$(sed -n 's/^cases: \([0-9]*\) of [0-9]* reported$/\1/p' /tmp/kunit.res)
expect "cases reported" "$got" "$plan"
expect "cases planned" "$plan" "$(echo "$cases" | wc -w)"
grep -q '^    not ok' /tmp/kunit.res && fail "a case failed"
grep -q '^    ok .* # SKIP' /tmp/kunit.res && fail "a case was skipped: it proves nothing"
expect "suite stats" "$(sed -n 's/^stats://p' /tmp/kunit.res)" \
	"pass:$plan fail:0 skip:0 total:$plan"
