# Sourced by guest tests (after lib/hold-pairs.awk, over a window of
# events.txt recorded with RECORD_NS=1): the waits and holds of one
# lock kind as the trace pairs them, in ns.
#   -v kind=anon_vma|i_mmap
# A wait: a task's ${kind}_lock_start to its next ${kind}_lock_acquired with
# contended=true on the same lock (the root, or the mapping), in the start's
# mode. A hold: as lib/hold-pairs.awk pairs them. Prints one line per
# interval:
#   wait|hold read|write NS LOCK
{
	key = kind == "i_mmap" ? "mapping" : "root"
	lk = f[key]; w = f["write"] == "true" ? "write" : "read"
	t = $1 * 1e9
}
$5 == kind "_lock_start" { ws[$3, lk, w] = t; next }
$5 == kind "_lock_acquired" && f["success"] == "true" {
	if (f["contended"] == "true" && (($3, lk, w) in ws)) {
		printf "wait %s %.0f %s\n", w, t - ws[$3, lk, w], lk
		delete ws[$3, lk, w]
	}
	hold_open($3 SUBSEP lk SUBSEP w, t)
	next
}
$5 == kind "_lock_released" && (h = hold_close($3 SUBSEP lk SUBSEP w, t)) >= 0 {
	printf "hold %s %.0f %s\n", w, h, lk
}
