#!/bin/sh
# description: a kernel WARN its header allows fails neither this test nor the boot
#   splat.ko action=warn WARNs at load (tests/modules/splat.c), on
#   purpose; the "# allow-splat:" line below allows that one report. In the
#   suite it passes both splat checks: tests/ktap.sh's over this test's
#   share of the kernel log, which reads the line itself, and guest/run.sh's
#   over the whole boot, which gets it from tests/boot-suite.sh (ALLOW_SPLAT).
#   The test checks that the WARN did reach the kernel log and that the
#   line matches it, so a pass is never a WARN that did not happen.
#   The host test runner-allow-splat boots it both ways: the suite's boot
#   passes, a plain guest/run.sh (no allow list) fails on the WARN. The
#   first allow-splat line matches no report: the one that allows the
#   WARN is the second, so a runner that read only a test's first line
#   would fail the suite's boot
# allow-splat: BUG: no kernel prints this, the first of two allow lines
# allow-splat: WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]*splat[.]c:[0-9]+ splat_init[+]
# requires: splat.ko
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/../requires.sh"
[ ! -d /sys/module/splat ] || rmmod splat || fail "splat.ko was loaded and does not unload"
# the ERE as the runners read it
allow=$(allow_splat "$0")
[ -n "$allow" ] || fail "no allow-splat line in this test's header"
before=$(dmesg | wc -l)
insmod "$ART/modules/splat.ko" action=warn || fail "insmod splat.ko action=warn failed"
rmmod splat || fail "rmmod splat failed"
new=$(dmesg | tail -n +$((before + 1)))
printf '%s\n' "$new" | grep -q 'splat: a warning on request' ||
	fail "splat.ko loaded without its warning in the kernel log: nothing was allowed"
line=$(printf '%s\n' "$new" | grep -E "$allow" | head -n 1)
[ -n "$line" ] || fail "no kernel log line of the load matches the header's allow-splat '$allow'"
echo "ok: the WARN is in the kernel log, and the header allows it: $line"
