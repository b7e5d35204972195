#!/bin/sh
# description: dbgfuzz: every bad debugfs write fails with EINVAL and changes nothing
#   dbgfuzz writes 12,000 values (random bytes of 0..64 KiB,
#   numeric edges 0, -1, 2^31, 2^32, 2^64 with leading and trailing junk,
#   and now and then a valid value) to every writable file of mmpreempt.ko
#   and to the series' tlb_preempt_points, one writer checking each write,
#   then 4 concurrent writers as many again: every bad write fails with
#   EINVAL and changes nothing (the file's value, or no event counter
#   lowered by a refused reset); every readable file is read in random
#   pieces, with seeks and preads, and the stable ones read the same as
#   whole. On the debug kernel this is also a KASAN/lockdep run of every
#   write path (a splat fails the test)
# requires: mmpreempt.ko dbgfuzz
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
d=$RES/mod-fuzz
mkdir -p "$d"
tpp=/sys/kernel/debug/mm/tlb_preempt_points
[ -f $tpp ] || fail "no $tpp: the series' patches/0002 is missing"
cd /tmp || exit 1
# the busy files are read while something happens
forktree --depth 2 --width 2 >/dev/null
dbgfuzz --writes 12000 --writers 4 --seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" \
	--read $DBG/enable=stable --read $tpp=stable --read $DBG/take_all_locks=stable \
	--read $DBG/stats --read $DBG/top --read $DBG/hist/anon_vma_write_hold_ns \
	--read $DBG/hist/mmu_gather_flush_pages \
	$DBG/enable=enable $DBG/reset=reset $DBG/take_all_locks=pid \
	$tpp=bool >"$d/fuzz.out" 2>&1
rc=$?
grep -v '^FAIL' "$d/fuzz.out"
grep '^FAIL' "$d/fuzz.out" | head -n 20
[ $rc -eq 0 ] || fail "dbgfuzz found broken rules (above; all in $d/fuzz.out)"
# put the switches back as the suite expects them
echo 1 >$DBG/enable && echo Y >$tpp || fail "cannot restore enable and tlb_preempt_points"
w=$(sed -n 's/^dbgfuzz: \([0-9]*\) sequential writes.*/\1/p' "$d/fuzz.out")
[ "${w:-0}" -ge 10000 ] || fail "only ${w:-0} writes checked one by one, want >= 10000"
echo "ok: $w writes checked one by one, as many by 4 concurrent writers, no rule broken"
