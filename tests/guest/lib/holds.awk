# Sourced by guest tests (awk -f lib/fields.awk -f lib/holds.awk, over a
# whole events.txt with the window markers, recorded with RECORD_NS=1): the
# holds of both lock kinds the trace pairs, as mmpreempt.ko times them: a
# task's acquired with success=true to its next release of that lock (the
# root, or the mapping) in that mode, the last one taken first when it holds
# a read lock twice. Prints one line per hold whose release lies in the
# window (the module times a hold at its release), whenever it began:
#   hold KIND read|write NS
/MMPREEMPT-WINDOW-START/ { on = 1; next }
/MMPREEMPT-WINDOW-END/ { on = 0; next }
$5 !~ /^(anon_vma|i_mmap)_lock_(acquired|released)$/ { next }
{
	kind = $5; sub(/_lock_.*/, "", kind)
	k = $3 SUBSEP kind SUBSEP (kind == "i_mmap" ? f["mapping"] : f["root"]) SUBSEP f["write"]
	t = $1 * 1e9
}
$5 ~ /_acquired$/ && f["success"] == "true" { st[k, ++d[k]] = t; next }
$5 ~ /_released$/ && d[k] > 0 {
	t0 = st[k, d[k]]
	delete st[k, d[k]]
	d[k]--
	if (on)
		printf "hold %s %s %.0f\n", kind, f["write"] == "true" ? "write" : "read", t - t0
}
