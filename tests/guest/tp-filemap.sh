#!/bin/sh
# description: i_mmap holds on a truncated shared file pair up; contended iff start
#   4 processes map one file shared and it is truncated under
#   them: i_mmap write holds (mmap, munmap) and read holds (the truncate's
#   unmap_mapping_range) appear for that file's mapping, each acquired lock
#   is released by the same task in the same mode, and an acquisition is
#   contended exactly when a start of the same task and mode preceded it
# requires: trace-cmd filemap /sys/kernel/tracing/events/i_mmap
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-filemap
record "$d" i_mmap -- filemap --procs 4 --pages 256
ino=$(sed -n 's/^filemap: .* ino=\([0-9]*\) .*/\1/p' "$d/record.log")
[ -n "$ino" ] || fail "filemap printed no inode number"
events_awk -v ino="$ino" -v procs=4 '
f["ino"] != ino { next }
{ k = $3 " " f["mapping"] " " f["write"] }
$5 == "i_mmap_lock_start" { started[k]++ }
$5 == "i_mmap_lock_acquired" && f["success"] == "true" {
	if ((f["contended"] == "true") != (started[k] > 0)) { print "FAIL: contended=" f["contended"] " after " started[k] + 0 " starts: " $0; bad = 1 }
	if (started[k]) { started[k]--; contended++ }
	held[k]++; t0[k] = $1; if (f["write"] == "true") w++; else r++
}
$5 == "i_mmap_lock_released" {
	if (!held[k]) { print "FAIL: released by a task that does not hold it: " $0; bad = 1 } else held[k]--
	if ($1 - t0[k] > longest) longest = $1 - t0[k]
}
END {
	for (k in held) if (held[k]) { print "FAIL: never released: " k; bad = 1 }
	for (k in started) if (started[k]) { print "FAIL: a start never acquired: " k; bad = 1 }
	printf "ok: ino %s: %d write holds, %d read holds (%d contended), longest %.6f s\n", ino, w, r, contended, longest
	if (w < 2 * procs) { print "FAIL: " w " write holds, want >= " 2 * procs " (an mmap and a munmap per process)"; bad = 1 }
	if (r < 1) { print "FAIL: no read hold (the truncate walks the mappings under it)"; bad = 1 }
	exit bad
}' "$d/events.txt"
