#!/bin/sh
# description: a recycled anon_vma's birth is traced before a stale reader can get it
#   anon_vma_alloc must come out before the refcount goes live: a reader
#   holding a stale folio->mapping (SLAB_TYPESAFE_BY_RCU) may inc-not-zero
#   the object as soon as it is non-zero. anon_vma_race.ko holds both
#   windows open: folio_get_anon_vma() pauses 1 s between its mapped check
#   and its inc-not-zero (reader on CPU 0) while the page's owner is killed
#   and exec's on CPU 1 recycle its freed anon_vma; that object's next
#   anon_vma_alloc spins 1.5 s before it is recorded (birth_delay_ms), so
#   the reader resumes inside the birth. The reader's inc-not-zero on the
#   freed object must be traced as failed (the refcount is still 0), never
#   as an anon_vma_get between the free and the next anon_vma_alloc, which
#   is what a birth traced after the refcount gives (the get, and its put,
#   booked to the freed life; the replay by value cannot tell, as the pair
#   balances); and the replay (lib/replay.awk) stays clean. Up to 4 tries
#   until the object is recycled during the pause; about 5 s each. Skipped
#   under KASAN, whose quarantine keeps freed objects from the slab
# requires: anon_vma_race.ko trace-cmd taskset cpus=2
# timeout: 240
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/race.sh"
. "$(dirname "$0")/lib/debug.sh"
# KASAN holds freed objects in its quarantine: the slab does not hand the
# freed anon_vma back within the pause (4 tries of 4 on the debug kernel)
kconfig CONFIG_KASAN && skip "KASAN's quarantine keeps the freed anon_vma from being recycled: nothing to race"
d=$RES/tp-birth-order
load_race delay_ms=1000 birth_delay_ms=1500
events="anon_vma:anon_vma_alloc anon_vma:anon_vma_attach anon_vma:anon_vma_get anon_vma:anon_vma_put anon_vma:anon_vma_get_failed anon_vma:anon_vma_free"
cd /tmp || exit 1
reborn=0
for try in 1 2 3 4; do
	start_victim
	# then exec's that allocate anon_vmas, on CPU 1: the victim's freed
	# anon_vma is on CPU 1's free list
	race_script /tmp/birth.sh "" 'for j in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true; done'
	# shellcheck disable=SC2086
	record "$d/try-$try" $events -- sh /tmp/birth.sh
	wait $VICTIM 2>/dev/null || true
	r=$(cat /sys/kernel/debug/anon_vma_race)
	awk -v min_freed=1 -f "$(dirname "$0")/lib/replay.awk" "$d/try-$try/events.txt" | tee "$d/try-$try/replay.txt"
	echo "try $try: folio_get_anon_vma: $r"
	grep -q '^FAIL' "$d/try-$try/replay.txt" && fail "try $try ($r): the replay found violations"
	case $r in
	*reborn*)
		reborn=$((reborn + 1))
		# the reader (CPU 0) on the victim's freed anon_vma: its
		# inc-not-zero, traced after the free, must have failed, or
		# come after a birth of that object; not a get before it
		after_free 'freed && $2 == 0 && ($5 == "anon_vma_get" || $5 == "anon_vma_get_failed") {
				print $5, $1; n++
				if ($5 == "anon_vma_get") bad = 1
			}
			END { if (!n) print "none"; exit bad }' "$d/try-$try/events.txt" >"$d/try-$try/reader.txt" || {
			cat "$d/try-$try/reader.txt"
			fail "try $try: the reader got the recycled anon_vma before its birth was traced (refcount live first)"
		}
		echo "the reader on the freed anon_vma: $(tr '\n' ' ' <"$d/try-$try/reader.txt")"
		grep -q '^anon_vma_get_failed ' "$d/try-$try/reader.txt" ||
			fail "try $try: no failed inc-not-zero of the reader on the freed anon_vma: the windows missed"
		break ;;
	esac
done
rmmod anon_vma_race
trap - EXIT
[ $reborn -ge 1 ] || fail "the anon_vma was not recycled during the pause in 4 tries: nothing was tested"
echo "measured: the freed anon_vma was recycled during the reader's pause in try $try of 4"
echo "ok: the reader met refcount 0 inside the recycled object's birth; replay clean"
