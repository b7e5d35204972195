#!/bin/sh
# description: a splat a guest test header allows passes the suite's boot, not a plain one
#   tests/guest/allow-splat.sh WARNs on purpose (splat.ko action=warn)
#   and allows that WARNING in its "# allow-splat:" header line. Booted
#   as the suite boots it (tests/boot-suite.sh, T=allow-splat), the line
#   travels to guest/run.sh (ALLOW_SPLAT): the boot passes, the test is
#   "ok" and the WARNING is in the kernel log. Booted by a plain
#   guest/run.sh, which reads no test's header and is given no list, the
#   same test passes in the guest but its WARNING fails the boot with the
#   splat message, and so does one given an allow list that does not
#   match it (a list allows what it matches, not the whole log). An
#   ALLOW_SPLAT that matches an empty line is refused before any boot
# requires: splat.ko
# overhead: three short guest boots (~15 s under TCG)
. "$TOP/tests/host/lib/runner.sh"
need_splat
warn='^\[ *[0-9]+\.[0-9]+\] WARNING: .*splat_init'

boot_suite allow-suite 180 allow-splat
expect "tests/boot-suite.sh exit status" "$rc" 0
# what run.sh's check reads: the console and the guest's dmesg.txt (a quiet
# console shows errors only)
grep -Eqh "$warn" "$dir/console.log" "$dir/dmesg.txt" ||
	fail "no WARNING from splat_init in the guest's kernel log: the suite's boot allowed nothing"
echo "ok: the kernel log shows the WARNING: $(grep -Ehm1 "$warn" "$dir/console.log" "$dir/dmesg.txt" | head -n 1)"
grep -q '^ok 1 allow-splat' "$dir/guest.tap" ||
	fail "allow-splat is not 'ok 1' in the guest's KTAP: $(grep 'allow-splat' "$dir/guest.tap")"
echo "ok: $(grep '^ok 1 allow-splat' "$dir/guest.tap")"

boot allow-plain 120 'sh /mnt/repo/tests/guest/allow-splat.sh && echo done >/mnt/results/command-done'
[ -f "$dir/command-done" ] || fail "the test failed in the guest: the WARN is not all that went wrong"
[ "$rc" -ne 0 ] || fail "a plain run.sh exited 0 on a WARN only a test's header allows"
said 'error: the kernel log shows a splat'
said 'WARNING: .*splat_init'
echo "ok: the header's allow reaches the suite's boot (exit 0) and no plain one (exit $rc)"

export ALLOW_SPLAT='BUG: no kernel prints this'
boot allow-other 120 'sh /mnt/repo/tests/guest/allow-splat.sh && echo done >/mnt/results/command-done'
[ -f "$dir/command-done" ] || fail "the test failed in the guest: the WARN is not all that went wrong"
[ "$rc" -ne 0 ] || fail "run.sh exited 0 on a WARN its allow list does not match"
said 'error: the kernel log shows a splat'
echo "ok: an allow list that does not match the WARN fails the boot (exit $rc)"

ALLOW_SPLAT='WARNING|x*'
boot allow-empty 30 true
unset ALLOW_SPLAT
[ "$rc" -ne 0 ] || fail "run.sh took ALLOW_SPLAT='WARNING|x*', which matches every line"
said "matches an empty line"
[ ! -s "$dir/console.log" ] || fail "run.sh booted with ALLOW_SPLAT='WARNING|x*' before refusing it"
echo "ok: an allow list matching an empty line is refused before the boot"
