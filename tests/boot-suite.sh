#!/bin/sh
# boot-suite.sh RESULTS: one boot of the x86 guest (guest/run.sh -r RESULTS)
# running the guest tests (tests/guest/*.sh) under tests/ktap.sh: their KTAP
# in RESULTS/guest.tap, each test's output in RESULTS/tests/NAME.log. Exits
# with guest/run.sh's status. tests/test.sh boots each x86 kernel's suite
# with it.
# The "# allow-splat:" header lines of the tests it runs go to guest/run.sh
# as ALLOW_SPLAT (tests/requires.sh's allow_splat), so that a kernel report
# a test declares as expected does not fail the whole boot; ktap.sh still
# fails a test during which any other report appears. guest/run.sh itself
# reads no test: booted without this script, it allows nothing.
# Environment: T="name ..." (only those tests, as make test T=; a name with
# no tests/guest/NAME.sh is ktap.sh's "not ok"), DEBUG_SUITE=ci|full (see
# tests/test.sh), and guest/run.sh's own (VARIANT, TIMEOUT, QUIET, SMP, ...).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage="boot-suite.sh RESULTS (settings in the environment: T DEBUG_SUITE, guest/run.sh's)"
usage_check "$usage" 1 "$@"
[ $# -eq 1 ] || { printf 'usage: %s\n' "$usage" >&2; exit 2; }
. "$(dirname "$0")/../guest/lib.sh"
. "$TOP/tests/requires.sh"

# the tests that will run: those T names, else all (as arguments, so that
# a checkout path with spaces stays one word a file)
res=$1
set --
if [ -n "$(printf '%s' "${T:-}" | tr -d ' \t\n')" ]; then
	for n in $T; do
		[ -f "$TOP/tests/guest/$n.sh" ] && set -- "$@" "$TOP/tests/guest/$n.sh"
	done
else
	for f in "$TOP"/tests/guest/*.sh; do [ -f "$f" ] && set -- "$@" "$f"; done
fi
ALLOW_SPLAT=""
[ $# -eq 0 ] || ALLOW_SPLAT=$(allow_splat "$@")
export ALLOW_SPLAT
[ -z "$ALLOW_SPLAT" ] || log "reports the tests allow (ALLOW_SPLAT): $ALLOW_SPLAT"
exec "$TOP/guest/run.sh" -r "$res" -- \
	"MMPREEMPT_ONLY='${T:-}' MMPREEMPT_DEBUG_SUITE=${DEBUG_SUITE:-full} sh /mnt/repo/tests/ktap.sh /mnt/repo/tests/guest /mnt/results/tests | tee /mnt/results/guest.tap"
