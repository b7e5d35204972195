#!/bin/sh
# description: replay of every anon_vma life born in a fork, migration and
#   KSM run, each object's transitions ordered by the refcount each produced
#   (lib/replay.awk): a freed life is one walk from 1 to 0 with exactly one
#   put to 0, its free reads 0, a root is freed after every member attached
#   to it, and no write lock names an anon_vma after its free
# requires: trace-cmd, forktree, migrate, ksm
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-refcount-replay
wl='forktree --depth 2 --width 3 && ksm --pages 32'
[ -d /sys/devices/system/node/node1 ] && wl="$wl && migrate --pages 128 --rounds 2"
record "$d" anon_vma -- sh -c "$wl"
awk -v min_freed=10 -f "$(dirname "$0")/lib/replay.awk" "$d/events.txt"
