#!/bin/sh
# description: the guest's init logs its errors in the kernel log at error level
#   A boot with an empty command: guest/init finds nothing to run and says
#   so through /dev/kmsg at KERN_ERR, then ends the run with status 125.
#   The line must reach the console of a "quiet" boot (only error level
#   and worse does) carrying printk's timestamp (so it went through the
#   kernel log, not straight to the console), and dmesg.txt
# requires:
# overhead: one short guest boot (~5 s under TCG)
. "$TOP/tests/host/lib/runner.sh"
boot init-error 120 ''
expect "run.sh exit status" "$rc" 125
msg='mmpreempt-init: no command in /mnt/results/.cmd'
grep -Eq "^\[ *[0-9]+\.[0-9]+\] $msg" "$dir/console.log" ||
	fail "the quiet console has no kernel-log line '[ time] $msg' (logged below error level, or not through /dev/kmsg?)"
echo "ok: the quiet console shows it as a kernel-log line: $(grep -m1 "$msg" "$dir/console.log")"
grep -q "$msg" "$dir/dmesg.txt" || fail "dmesg.txt lacks '$msg'"
echo "ok: dmesg.txt has it"
