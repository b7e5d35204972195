# replay.awk: replays every anon_vma life in a record events.txt ("ts cpu
# pid comm event key=value..."), ordering each object's refcount
# transitions by the value each produced, not by timestamp: an event
# follows its atomic, so two CPUs' events of one object can be recorded in
# the other order (EVENTS.md). Used by guest tests; POSIX awk (mawk).
#
# A life runs from anon_vma_alloc (refcount 1) to the next alloc at that
# address (whose event always follows the previous free's). Within a freed
# life, with G[v] gets and P[v] puts producing v, the transitions form one
# walk from 1 to 0 exactly when G[1] = 0, P[0] = 1 and G[v + 1] = P[v] for
# every v >= 1, with no level skipped; the free reads 0. A put or get traced
# after the free it preceded is still part of that walk. Also checked: a
# root is freed after every member attached to it; no write lock names an
# anon_vma after its free (anon_vma_free() locks before its event).
#
# Variables: min_freed (fail if fewer lives were freed: the workload did
# not run). Prints one summary line; exits 1 on any violation.
# Pointers compare as strings (x ""): mawk reads "0xffff..." as a number.
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
$5 !~ /^anon_vma_/ { next }
{ x = f["anon_vma"] ""; v = f["refcount"] + 0; L = x SUBSEP ((x in life) ? life[x] : 0) }
function bad_(msg) { print "FAIL: " msg; bad = 1 }
function settle(y, l,    k, v, top) {
	if (!freed[k = y SUBSEP l]) { alive_end++; return }
	top = maxv[k]
	if (G[k, 1] > 0) bad_(y " life " l ": " G[k, 1] " gets produced 1 (a get on a dead object)")
	if (P[k, 0] != 1) bad_(y " life " l ": freed after " P[k, 0] + 0 " puts to 0")
	for (v = 1; v <= top; v++) {
		if (G[k, v + 1] + 0 != P[k, v] + 0)
			bad_(y " life " l ": " G[k, v + 1] + 0 " gets to " v + 1 " but " P[k, v] + 0 " puts to " v)
		if (v >= 2 && G[k, v + 1] > 0 && G[k, v] + 0 == 0)
			bad_(y " life " l ": gets to " v + 1 " without one to " v)
	}
}
$5 == "anon_vma_alloc" {
	if (x in life) settle(x, life[x])
	life[x]++; L = x SUBSEP life[x]; born[L] = 1; cur[L] = 1; lives++
	delete dead[x]
	next
}
# an inc-not-zero that found 0, on any object (born before the trace too)
$5 == "anon_vma_get_failed" { failed++; next }
!(L in born) { next }	# born before the trace: not ours to replay
$5 ~ /^anon_vma_lock_/ && f["write"] == "true" && (x in dead) {
	bad_("a write lock names " x " after its free: " $0)
	next
}
$5 == "anon_vma_attach" {
	r = f["root"] ""
	rootof[L] = r; members[r SUBSEP ((r in life) ? life[r] : 0)]++
	next
}
$5 == "anon_vma_get" || $5 == "anon_vma_put" {
	if (v < 0) bad_("refcount below 0: " $0)
	if ($5 == "anon_vma_get") { G[L, v]++; gets++ } else { P[L, v]++; puts++ }
	if (v > maxv[L]) maxv[L] = v
	# in timestamp order, did this event follow the previous value by one?
	if (v != cur[L] + 1 && v != cur[L] - 1) reordered++
	cur[L] = v
	if (x in dead) late++
	next
}
$5 == "anon_vma_free" {
	if (x in dead) { bad_(x " freed twice: " $0); next }
	if (v != 0) bad_(x " freed with refcount " v ": " $0)
	r = rootof[L]
	if (r != "" && r != x) {
		R = r SUBSEP ((r in life) ? life[r] : 0)
		members[R]--
		if (r in dead) bad_("root " r " freed before its member " x)
	} else if (members[L] > 0) {
		bad_("root " x " freed with " members[L] " members alive")
	}
	freed[L] = 1; freedn++; dead[x] = 1
}
END {
	for (y in life) if ((y SUBSEP life[y]) in born) settle(y, life[y])
	printf "replayed: %d lives, %d freed, %d alive at the end; %d gets, %d puts, %d failed inc-not-zero; %d transitions recorded out of value order, %d traced after their object's free\n", lives, freedn, alive_end, gets, puts, failed, reordered, late
	if (freedn < min_freed + 0) bad_("only " freedn + 0 " lives freed, want >= " min_freed ": the workload did not run as expected")
	exit bad
}
