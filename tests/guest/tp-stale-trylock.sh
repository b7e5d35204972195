#!/bin/sh
# description: a stale reader's read trylock may follow the free; no write lock does
#   what EVENTS.md says of the free, shown: folio_lock_anon_vma_read()
#   reads folio->mapping and checks the folio is mapped, then try-locks the
#   root in read mode. anon_vma_race.ko ("PID ADDR lock") pauses it 1 s
#   between the two while the page's owner is killed on CPU 1: the exit
#   frees the anon_vma (a root of its own), and the reader's trylock then
#   takes the freed object's rwsem. The trace must show, after the
#   anon_vma_free and before any new anon_vma_alloc at that address, the
#   reader's anon_vma_lock_acquired (read, success, not contended) and its
#   anon_vma_lock_released (read); no write lock names the object after
#   its free (lib/replay.awk), and the replay stays clean. About 5 s
# requires: anon_vma_race.ko trace-cmd taskset cpus=2
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/race.sh"
d=$RES/tp-stale-trylock
load_race delay_ms=1000
cd /tmp || exit 1
start_victim
race_script /tmp/stale.sh lock
record "$d" anon_vma -- sh /tmp/stale.sh
wait $VICTIM 2>/dev/null || true
r=$(cat /sys/kernel/debug/anon_vma_race)
echo "folio_lock_anon_vma_read: $r"
awk -v min_freed=1 -f "$(dirname "$0")/lib/replay.awk" "$d/events.txt" | tee "$d/replay.txt"
grep -q '^FAIL' "$d/replay.txt" && fail "the replay found violations"
# the reader (CPU 0) on the victim's freed anon_vma, before its next birth
after_free 'freed && $2 == 0 && $5 ~ /^anon_vma_lock_/ { print $1, $5, "write=" f["write"], "success=" f["success"], "contended=" f["contended"] }' "$d/events.txt" | tee "$d/after-free.txt"
grep -q 'anon_vma_lock_acquired write=false success=true contended=false' "$d/after-free.txt" ||
	fail "no read trylock of the freed anon_vma by the reader after its free (result: $r)"
grep -q 'anon_vma_lock_released write=false' "$d/after-free.txt" ||
	fail "the reader's read lock of the freed anon_vma was never released"
grep -q 'write=true' "$d/after-free.txt" && fail "a write lock names the freed anon_vma"
[ "$r" = none ] || fail "folio_lock_anon_vma_read returned an anon_vma of an unmapped folio ($r)"
echo "ok: the stale reader read-locked and released the freed anon_vma after its free, and returned none"
