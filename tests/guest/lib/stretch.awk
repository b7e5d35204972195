# Reads events.txt lines ("ts cpu pid comm event key=value..."). For the
# gathers of task PID, finds the one that freed the most pages and reports,
# inside it (mmu_gather_start to _finish of the same tlb; its pages are the
# sum of its mmu_gather_flush events, which the recording must include):
#   switchouts  sched_switch events with prev_pid == PID
#   longest     longest stretch the task ran without being switched out (s)
#   span        the gather's duration (s), pages
# Output: one line "pages=N span=S switchouts=K longest=L".
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$5 == "mmu_gather_start" && $3 == pid { open[f["tlb"]] = $1; on[f["tlb"]] = $1; so[f["tlb"]] = 0; lg[f["tlb"]] = 0; pg[f["tlb"]] = 0; running = 1 }
$5 == "mmu_gather_flush" && $3 == pid && (f["tlb"] in open) { pg[f["tlb"]] += f["pages"] }
$5 == "sched_switch" && f["prev_pid"] == pid {
	for (t in open) { so[t]++; if ($1 - on[t] > lg[t]) lg[t] = $1 - on[t] }
	running = 0
}
$5 == "sched_switch" && f["next_pid"] == pid { for (t in open) on[t] = $1; running = 1 }
$5 == "mmu_gather_finish" && $3 == pid && (f["tlb"] in open) {
	t = f["tlb"]
	if ($1 - on[t] > lg[t]) lg[t] = $1 - on[t]
	if (pg[t] > best) { best = pg[t]; bspan = $1 - open[t]; bso = so[t]; blg = lg[t] }
	delete open[t]
}
END { printf "pages=%d span=%.6f switchouts=%d longest=%.6f\n", best, bspan, bso, blg }
