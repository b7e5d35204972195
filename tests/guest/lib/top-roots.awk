# Sourced by guest tests (after lib/hold-pairs.awk, over a whole events.txt
# with the window markers): what mmpreempt.ko's top should
# show for the window's anon_vma roots, one line per life of a root that
# had a hold released in the window, as top prints its columns:
#   HOLDS ANON_VMAS STATE NS
# HOLDS: anon_vma holds of the root released in the window (paired by
# lib/hold-pairs.awk); ANON_VMAS: 1 + the anon_vmas attached under it
# in the window; STATE: freed if the root's own free is in the window; NS:
# the sum of those holds (RECORD_NS=1 timestamps). A root's address begins a
# new life at each anon_vma_alloc of it.
/MMPREEMPT-WINDOW-START/ { on = 1; next }
/MMPREEMPT-WINDOW-END/ { on = 0; next }
$5 == "anon_vma_alloc" { life[f["anon_vma"]]++; next }
$5 == "anon_vma_attach" { if (on) att[f["root"] "#" life[f["root"]]]++; next }
$5 == "anon_vma_free" { if (on && f["anon_vma"] == f["root"]) freed[f["root"] "#" life[f["root"]]] = 1; next }
$5 !~ /^anon_vma_lock_(acquired|released)$/ { next }
{ k = $3 SUBSEP f["root"] SUBSEP f["write"]; t = $1 * 1e9 }
$5 ~ /_acquired$/ && f["success"] == "true" { hold_open(k, t); next }
$5 ~ /_released$/ && (h = hold_close(k, t)) >= 0 && on {
	r = f["root"] "#" life[f["root"]]
	holds[r]++
	ns[r] += h
}
END {
	for (r in holds)
		printf "%d %d %s %.0f\n", holds[r], 1 + att[r], (r in freed) ? "freed" : "alive", ns[r]
}
