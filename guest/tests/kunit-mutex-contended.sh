#!/bin/sh
# description: the KUnit suite of patches/0001 (mutex_is_contended), built in
#   and run at boot: its KTAP results from the kernel log, one subtest each;
#   fails if the suite is missing, incomplete or has a failing case
# requires: CONFIG_MUTEX_CONTENDED_KUNIT_TEST=y
# timeout: 10
. "$(dirname "$0")/lib/common.sh"
suite=mutex_is_contended
dmesg | sed 's/^\[[^]]*\] //' >/tmp/kunit.log
awk -v s="$suite" '
	$0 ~ "^    # Subtest: " s "$" { on = 1; next }
	on && /^    1\.\.[0-9]+$/ { plan = substr($1, 4) }
	on && /^    (not )?ok [0-9]+ / { print; n++ }
	on && /^(not )?ok [0-9]+ / { print "suite: " $0; exit }
	END { if (!plan) print "no plan"; else print "plan: " plan " cases, " n " results" }
' /tmp/kunit.log >/tmp/kunit.res
cat /tmp/kunit.res
grep -q "^plan: " /tmp/kunit.res || fail "suite $suite not found in the kernel log"
plan=$(sed -n 's/^plan: \([0-9]*\) cases, .*/\1/p' /tmp/kunit.res)
got=$(sed -n 's/^plan: [0-9]* cases, \([0-9]*\) results/\1/p' /tmp/kunit.res)
expect "cases reported" "$got" "$plan"
grep -q '^    not ok' /tmp/kunit.res && fail "a case failed"
grep -q '^suite: ok ' /tmp/kunit.res || fail "the suite did not pass"
