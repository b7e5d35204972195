#!/bin/sh
# description: guest/run.sh fails with its timeout message when the guest command hangs
#   guest/run.sh fails with its timeout message when the guest
#   command hangs: the command leaves a marker, then sleeps for an hour,
#   under TIMEOUT=20 (RUNNER_HANG_TIMEOUT); the marker shows the guest
#   reached the command, so the timeout struck the command, not the boot
# requires:
# overhead: one guest boot killed after TIMEOUT (20 s)
. "$TOP/tests/host/lib/runner.sh"
tmo=${RUNNER_HANG_TIMEOUT:-20}
boot hang "$tmo" 'echo started >/mnt/results/command-started; sleep 3600'
[ "$rc" -ne 0 ] || fail "run.sh exited 0 on a guest that hung"
[ -f "$dir/command-started" ] ||
	fail "the guest never reached the command in $tmo s (raise RUNNER_HANG_TIMEOUT on a slow host)"
said "error: guest timed out after $tmo s"
echo "ok: a hung command fails the run (exit $rc) with the timeout message"
