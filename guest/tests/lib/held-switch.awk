# Reads events.txt. Pairs each <sys>_lock_acquired (success) with the next
# <sys>_lock_released by the same task on the same lock (anon_vma: the root;
# i_mmap: the mapping) and counts the holds during which that task was
# switched out (a sched_switch with prev_pid == holder), split by whether it
# was preempted (prev_state R) or slept. Output, per system:
#   "<sys> holds=N switched=K preempted=P slept=S"
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$5 == "anon_vma_lock_acquired" && f["success"] == "true" { hold("anon_vma", $3 " " f["root"]) }
$5 == "i_mmap_lock_acquired" && f["success"] == "true" { hold("i_mmap", $3 " " f["mapping"]) }
$5 == "anon_vma_lock_released" { release("anon_vma", $3 " " f["root"]) }
$5 == "i_mmap_lock_released" { release("i_mmap", $3 " " f["mapping"]) }
$5 == "sched_switch" {
	p = f["prev_pid"]
	for (k in held) {
		split(k, kk, SUBSEP)
		split(kk[2], pk, " ")
		if (pk[1] == p && !(k in sw)) { sw[k] = 1; st[k] = f["prev_state"] }
	}
}
function hold(s, k) { held[s, k]++; n[s]++ }
function release(s, k,    key) {
	key = s SUBSEP k
	if (!held[key]) return
	if (key in sw) { swn[s]++; if (st[key] ~ /^R/) pre[s]++; else slp[s]++ }
	if (!--held[key]) { delete held[key]; delete sw[key]; delete st[key] }
}
END { for (s in n) printf "%s holds=%d switched=%d preempted=%d slept=%d\n", s, n[s], swn[s], pre[s], slp[s] }
