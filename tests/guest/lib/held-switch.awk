# Reads events.txt. Pairs each <sys>_lock_acquired (success) with the next
# <sys>_lock_released by the same task on the same lock (anon_vma: the root;
# i_mmap: the mapping) and counts the holds during which that task was
# switched out (a sched_switch with prev_pid == holder), split by whether it
# was preempted (prev_state R) or slept. A release with no traced acquire
# (the hold began before the trace) is ignored, and leaves nothing behind: a
# key only exists while held, and a switch marks only keys held at that
# moment. Output, per system:
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
function hold(s, k,    key) {
	key = s SUBSEP k
	# a first hold starts with no switch seen
	if (!(key in held)) { held[key] = 0; delete sw[key]; delete st[key] }
	held[key]++; n[s]++
}
function release(s, k,    key) {
	key = s SUBSEP k
	# "key in": a lookup like held[key] would create the key
	if (!(key in held)) return
	if (key in sw) { swn[s]++; if (st[key] ~ /^R/) pre[s]++; else slp[s]++ }
	if (!--held[key]) { delete held[key]; delete sw[key]; delete st[key] }
}
END { for (s in n) printf "%s holds=%d switched=%d preempted=%d slept=%d\n", s, n[s], swn[s], pre[s], slp[s] }
