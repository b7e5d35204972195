#!/bin/sh
# description: replayed anon_vma lives walk refcount 1 to 0, one put to 0, root last
#   replay of every anon_vma life born in a fork, migration and
#   KSM run, each object's transitions ordered by the refcount each produced
#   (lib/replay.awk): a freed life is one walk from 1 to 0 with exactly one
#   put to 0, its free reads 0, a root is freed after every member attached
#   to it, and no write lock names an anon_vma after its free; references
#   were taken (anon_vma_get) and replayed, also on a kernel without KSM
#   (the debug kernel: SERIES.md row 5, the refcount outside CONFIG_KSM)
#   KSM's part runs where the kernel has KSM (not the debug kernel)
# requires: trace-cmd forktree migrate ksm
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-refcount-replay
wl='forktree --depth 2 --width 3'
# Without KSM (the debug kernel) the refcount still moves: forktree's and
# migrate's gets and puts replay there, which is SERIES.md row 5's proof.
if [ -e /sys/kernel/mm/ksm/run ]; then
	wl="$wl && ksm --pages 32"
else
	echo "no KSM in this kernel: forktree and migrate only (SERIES.md row 5)"
fi
[ -d /sys/devices/system/node/node1 ] && wl="$wl && migrate --pages 128 --rounds 2"
record "$d" anon_vma -- sh -c "$wl"
awk -v min_freed=10 -f "$(dirname "$0")/lib/replay.awk" "$d/events.txt"
g=$(count "$d/events.txt" anon_vma_get)
[ "$g" -ge 1 ] || fail "no anon_vma_get in the trace: no reference was taken"
echo "ok: $g references taken and replayed$( [ -e /sys/kernel/mm/ksm/run ] || echo ' on a kernel without KSM')"
