#!/bin/sh
# description: guest/run.sh passes back the guest command's exit status (42)
#   guest/run.sh passes the guest command's own exit status back
#   (42 here, from 'exit 42' after a marker) and says that the command
#   failed; the kernel log is clean, so that is the only failure
# requires:
# overhead: one short guest boot (~5 s under TCG)
. "$TOP/tests/host/lib/runner.sh"
boot exit 120 'echo ran >/mnt/results/command-ran; exit 42'
[ -f "$dir/command-ran" ] || fail "the guest never ran the command"
expect "run.sh exit status" "$rc" 42
said 'error: the command failed in the guest: exit status 42'
if grep -q 'splat\|panicked\|timed out\|died' "$dir/run.out"; then
	fail "run.sh reported another failure besides the exit status"
fi
echo "ok: a failing command fails the run with its own status and message"
