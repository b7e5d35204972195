#!/bin/sh
# description: guest/run.sh fails with its panic message when the guest kernel panics
#   guest/run.sh fails with its panic message when the guest
#   kernel panics (tests/modules' splat.ko action=panic, at load): the
#   guest dies at once (panic=-1, -no-reboot), the command never goes on
#   (its marker after the insmod is absent) and no status comes back
# requires: splat.ko
# overhead: one short guest boot (~5 s under TCG)
. "$TOP/tests/host/lib/runner.sh"
need_splat
boot panic 120 'insmod /mnt/art/modules/splat.ko action=panic; echo survived >/mnt/results/survived'
[ "$rc" -ne 0 ] || fail "run.sh exited 0 on a guest whose kernel panicked"
[ ! -f "$dir/survived" ] || fail "the command went on after the panic: the module did not panic"
said 'Kernel panic - not syncing: splat: a panic on request'
said 'error: the guest kernel panicked'
echo "ok: a panic in the guest fails the run (exit $rc) with the panic message"
