# Sourced by guest tests (awk -f lib/fields.awk -f lib/top-roots.awk, over a
# whole events.txt with the window markers): what mmpreempt.ko's top should
# show for the window's anon_vma roots, one line per life of a root that
# had a hold released in the window, as top prints its columns:
#   HOLDS ANON_VMAS STATE
# HOLDS: anon_vma holds of the root released in the window (paired as
# lib/holds.awk pairs them); ANON_VMAS: 1 + the anon_vmas attached under it
# in the window; STATE: freed if the root's own free is in the window. A
# root's address begins a new life at each anon_vma_alloc of it.
/MMPREEMPT-WINDOW-START/ { on = 1; next }
/MMPREEMPT-WINDOW-END/ { on = 0; next }
$5 == "anon_vma_alloc" { life[f["anon_vma"]]++; next }
$5 == "anon_vma_attach" { if (on) att[f["root"] "#" life[f["root"]]]++; next }
$5 == "anon_vma_free" { if (on && f["anon_vma"] == f["root"]) freed[f["root"] "#" life[f["root"]]] = 1; next }
$5 !~ /^anon_vma_lock_(acquired|released)$/ { next }
{ k = $3 SUBSEP f["root"] SUBSEP f["write"] }
$5 ~ /_acquired$/ && f["success"] == "true" { d[k]++; next }
$5 ~ /_released$/ && d[k] > 0 {
	d[k]--
	if (on)
		holds[f["root"] "#" life[f["root"]]]++
}
END {
	for (r in holds)
		printf "%d %d %s\n", holds[r], 1 + att[r], (r in freed) ? "freed" : "alive"
}
