# Sourced by guest tests (after lib/hold-pairs.awk, over a whole events.txt
# with the window markers, recorded with RECORD_NS=1): the holds of both lock
# kinds the trace pairs (lib/hold-pairs.awk; the lock: the root, or the
# mapping). Prints one line per hold whose release lies in the window (the
# module times a hold at its release), whenever it began:
#   hold KIND read|write NS
/MMPREEMPT-WINDOW-START/ { on = 1; next }
/MMPREEMPT-WINDOW-END/ { on = 0; next }
$5 !~ /^(anon_vma|i_mmap)_lock_(acquired|released)$/ { next }
{
	kind = $5; sub(/_lock_.*/, "", kind)
	k = $3 SUBSEP kind SUBSEP (kind == "i_mmap" ? f["mapping"] : f["root"]) SUBSEP f["write"]
	t = $1 * 1e9
}
$5 ~ /_acquired$/ && f["success"] == "true" { hold_open(k, t); next }
$5 ~ /_released$/ && (ns = hold_close(k, t)) >= 0 && on {
	printf "hold %s %s %.0f\n", kind, f["write"] == "true" ? "write" : "read", ns
}
