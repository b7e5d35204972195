#!/bin/sh
# description: SERIES rows 4-6 (put_anon_vma, refcount for all, refcount 0
#   means free). Readers race exiting owners: move_pages on children as
#   they exit (it pins their mm, so their teardown waits for it), and memory
#   compaction (migration by pfn, no mm pinned) while children exit. No get
#   and no put to 0 ever follows a free (a put that left a reference may be
#   traced late: it is counted), every free follows a put to 0, and a failed
#   inc-not-zero (anon_vma_get_failed) may only meet an anon_vma that had
#   reached 0. How many races the reader lost is reported as measured (the
#   window is a few instructions wide). Then the race is made to happen:
#   anon_vma_race.ko pauses folio_get_anon_vma() between its mapped check
#   and its inc-not-zero while the page's owner is killed, and the kernel's
#   inc-not-zero must fail on the anon_vma the owner's exit freed
# requires: trace-cmd, migrate, 2 NUMA nodes, anon_vma_race.ko (guest/testmods)
# timeout: 240
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
[ -d /sys/devices/system/node/node1 ] || skip "the guest has one NUMA node"
check() { # check RUN RACES
	awk -v races="$2" -v run="$1" '
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
{ x = f["anon_vma"]; v = f["refcount"] + 0 }
$5 == "anon_vma_alloc" { live[x] = 1; zero[x] = 0; delete dead[x]; next }
$5 == "anon_vma_get_failed" {
	failed++
	if (v != 0) { print "FAIL: get_failed with refcount " v; bad = 1 }
	if (!(x in dead) && !zero[x] && (x in live)) { print "FAIL: get_failed on live " x " before any put to 0"; bad = 1 }
	next
}
# A get can never be traced after the free: it precedes its own put. A put
# can: its event is emitted after its atomic decrement, and another CPU may
# drop the last reference and free the object in between. Such a late put
# must not be the one that reached 0.
(x in dead) && $5 == "anon_vma_get" { print "FAIL: get after free: " $0; bad = 1 }
(x in dead) && $5 == "anon_vma_put" { if (v == 0) { print "FAIL: a put to 0 after free: " $0; bad = 1 } else late++; next }
$5 == "anon_vma_put" && v == 0 { zero[x] = 1 }
$5 == "anon_vma_get" && (x in live) { gets++ }
$5 == "anon_vma_free" {
	if ((x in live) && !zero[x]) { print "FAIL: " x " freed without a put to 0"; bad = 1 }
	frees++; delete live[x]; dead[x] = 1
}
END {
	printf "measured: %s: %d gets, %d frees, %d failed inc-not-zero (races lost by the reader) in %d races, %d puts traced after the free they preceded\n", run, gets, frees, failed, races, late
	if (frees < races) { print "FAIL: " frees " frees: the children did not run"; bad = 1 }
	print failed + 0 > "/tmp/get_failed." run
	exit bad
}' "$d/$1/events.txt"
}
d=$RES/proof-refcount
events="anon_vma:anon_vma_alloc anon_vma:anon_vma_get anon_vma:anon_vma_put anon_vma:anon_vma_get_failed anon_vma:anon_vma_free"
cd /tmp
# shellcheck disable=SC2086
record "$d/plain" $events -- migrate --race 300 --pages 32
grep '^migrate:' "$d/plain/record.log"
check plain 300
# shellcheck disable=SC2086
record "$d/compact" $events -- migrate --compact-race 60 --pages 2048
grep '^migrate:' "$d/compact/record.log"
check compact 60
echo "measured: failed inc-not-zero: $(cat /tmp/get_failed.plain) in 300 move_pages races, $(cat /tmp/get_failed.compact) in 60 compaction races"

ko=$ART/modules/anon_vma_race.ko
[ -f "$ko" ] || fail "no $ko (make module builds guest/testmods)"
insmod "$ko" delay_ms=1000 || fail "insmod anon_vma_race.ko"
trap 'rmmod anon_vma_race 2>/dev/null || true' EXIT
lost=0
# The owner runs on CPU 1, the paused reader on CPU 0: the owner's exit
# must not need CPU 0 (a TLB shootdown IPI to a CPU that ran the mm would
# wait for the pause to end), and neither may the killer.
for try in 1 2 3 4 5; do
	taskset -c 1 sleep 1000 &
	victim=$!
	sleep 0.3
	end=$(awk '/\[stack\]/ { split($1, a, "-"); print a[2] }' /proc/$victim/maps)
	[ -n "$end" ] || fail "no stack mapping for pid $victim"
	addr=$(printf '%x' $((0x$end - 4096)))
	cat >/tmp/race.sh <<EOS
taskset -c 1 sh -c 'sleep 0.3; kill -9 $victim' &
taskset -c 0 sh -c 'echo "$victim $addr" >/sys/kernel/debug/anon_vma_race'
wait
EOS
	# shellcheck disable=SC2086
	record "$d/forced-$try" $events -- sh /tmp/race.sh
	wait $victim 2>/dev/null || true
	r=$(cat /sys/kernel/debug/anon_vma_race)
	check forced-$try 0
	n=$(cat /tmp/get_failed.forced-$try)
	echo "try $try: folio_get_anon_vma $r, $n anon_vma_get_failed in the trace"
	[ "$r" = failed ] && [ "$n" -ge 1 ] && lost=$((lost + 1))
done
rmmod anon_vma_race
echo "measured: with the window held open, the reader lost $lost of 5 races"
[ $lost -ge 1 ] || fail "the inc-not-zero never failed, even with the window held open"
