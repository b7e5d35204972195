#!/bin/sh
# description: guest/run.sh fails on a kernel module WARN though the command succeeded
#   guest/run.sh fails with its splat message when a guest
#   kernel module WARNs (tests/modules' splat.ko action=warn, at load)
#   although the command itself succeeded (it leaves a marker after
#   unloading the module): a kernel warning alone fails a run, and the
#   splat lines it shows are the module's
# requires: splat.ko
# overhead: one short guest boot (~5 s under TCG)
. "$TOP/tests/host/lib/runner.sh"
need_splat
boot warn 120 'insmod /mnt/art/modules/splat.ko action=warn && rmmod splat &&
	echo done >/mnt/results/command-done'
[ -f "$dir/command-done" ] || fail "the command did not complete: the WARN is not all that went wrong"
[ "$rc" -ne 0 ] || fail "run.sh exited 0 on a guest whose kernel WARNed"
said 'error: the kernel log shows a splat'
said 'WARNING: .*splat_init'
echo "ok: a WARN in the guest fails the run (exit $rc) with the splat message"
