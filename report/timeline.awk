# timeline.awk: the data of the timeline plot (report/timeline.sh) from
# `mmreport --dump` lines, "ts cpu pid comm event key=value...". POSIX awk.
# -v dir=DIR (where the .dat files go)  -v rows=N (tasks in the timeline)
#
# A hold runs from a successful *_lock_acquired to the task's
# *_lock_released of the same lock and mode; its wait from the task's
# *_lock_start to that acquisition, when contended. A gather stretch runs
# from mmu_gather_start, a preemption point (mmu_gather_resched) or the
# task's return to a CPU, to the next point, its switch-out or
# mmu_gather_finish, as mmreport counts them: code that yields nowhere in
# between (under preempt=none or voluntary, not preemptible at all). Times are
# seconds from the first event.
#
# Files: rows.txt (row, label), holds.dat (row t0 t1 kind), waits.dat
# (row t0 t1 kind), switches.dat (row t: switched out while holding a
# lock), points.dat (row t: preemption points taken), stretches.dat (row
# t0 t1 length_us), heat.dat (time bin x log2 hold bucket: count, for every
# hold of every task), summary.txt (what the plot shows, in figures; and,
# between make record's MMPREEMPT-WINDOW markers, the holds released and
# the contended acquisitions: what mmpreempt.ko timed in the same window,
# its holds_timed and contended).
function kind(ev, w) { return (ev ~ /^anon_vma/ ? 0 : 2) + (w == "true" ? 1 : 0) }
function lbl(p) { return comm[p] "-" p }
/^#/ || NF < 5 { next }
{
	delete f
	for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
}
t0 == "" { t0 = $1 }
# make record's window (record/record-guest.sh): what mmpreempt.ko counted
$5 == "print" && f["marker"] == "MMPREEMPT-WINDOW-START" { inwin = 1; marked = 1 }
$5 == "print" && f["marker"] == "MMPREEMPT-WINDOW-END" { inwin = 0 }
{ t = $1 - t0; p = $3; comm[p] = $4; last = t }
$5 ~ /_lock_start$/ {
	lk = ($5 ~ /^anon_vma/ ? f["root"] : f["mapping"]) " " f["write"]
	start[p, lk] = t
}
# A task that takes a lock it already holds (a read lock, nested) holds it
# from its first acquisition to its last release, as mmreport counts it;
# each release still counts for the window, as mmpreempt.ko counts it.
$5 ~ /_lock_acquired$/ && f["success"] == "true" {
	lk = ($5 ~ /^anon_vma/ ? f["root"] : f["mapping"]) " " f["write"]
	if (!depth[p, lk]++) { acq[p, lk] = t; held[p]++ }
	if (f["contended"] == "true" && ((p, lk) in start)) {
		nw++; wp[nw] = p; w0[nw] = start[p, lk]; w1[nw] = t; wk[nw] = kind($5, f["write"])
	}
	if (inwin && f["contended"] == "true") wincont++
	delete start[p, lk]
}
$5 ~ /_lock_released$/ {
	lk = ($5 ~ /^anon_vma/ ? f["root"] : f["mapping"]) " " f["write"]
	if (depth[p, lk] > 0) {
		if (inwin) winholds++
		if (--depth[p, lk] == 0) {
			nh++; hp[nh] = p; h0[nh] = acq[p, lk]; h1[nh] = t; hk[nh] = kind($5, f["write"])
			d = ns_of(acq[p, lk], t)
			if (d > longest[p]) longest[p] = d
			if (d > maxhold) { maxhold = d; maxwho = p; maxat = acq[p, lk] }
			delete acq[p, lk]; delete depth[p, lk]
			held[p]--
		}
	}
}
# whole nanoseconds between two times in seconds (the trace's own unit)
function ns_of(a, b) { return int((b - a) * 1e9 + 0.5) }
# mmreport's fmt_ns(), so that the two print the same figure the same way
# (four significant digits, the unit glued on: 842ns 14.09us 8.448ms 2.698s)
function fmt_ns(n,    u, base, d, step, m, p) {
	if (n < 1000) return sprintf("%dns", n)
	split("us ms s", unit, " ")
	base = 1
	for (u = 1; u <= 3; u++) {
		base *= 1000
		for (d = 3; d >= 1; d--) {
			p = 10 ^ d; step = base / p
			m = int(n / step); if (step > 1 && n % step >= step / 2) m++
			if (m < 10000) return sprintf("%d.%0" d "d%s", int(m / p), m % p, unit[u])
		}
	}
	m = int(n / 1e9); if (n % 1e9 >= 5e8) m++
	return sprintf("%ds", m)
}
$5 == "sched_switch" && held[f["prev_pid"]] > 0 {
	ns++; sp[ns] = f["prev_pid"]; st[ns] = t
}
# gather stretches as mmreport's gather.c cuts them: a gather is keyed by
# (tlb, task), the task's innermost one runs until its switch-out and again
# from its switch-in
$5 == "mmu_gather_start" {
	k = f["tlb"] SUBSEP p; gopen[k] = 1; grun[k] = 1; glast[k] = t; gtask[p] = k
}
$5 == "mmu_gather_resched" && ((f["tlb"] SUBSEP p) in gopen) {
	endst(f["tlb"] SUBSEP p, p, t)
	np++; pp[np] = p; pt[np] = t
}
$5 == "mmu_gather_finish" && ((f["tlb"] SUBSEP p) in gopen) {
	endst(f["tlb"] SUBSEP p, p, t)
	delete gopen[f["tlb"] SUBSEP p]; delete gtask[p]
}
$5 == "sched_switch" {
	q = f["prev_pid"]
	if ((q in gtask) && (gtask[q] in gopen) && grun[gtask[q]]) { endst(gtask[q], q, t); grun[gtask[q]] = 0 }
	q = f["next_pid"]
	if ((q in gtask) && (gtask[q] in gopen) && !grun[gtask[q]]) { grun[gtask[q]] = 1; glast[gtask[q]] = t }
}
function endst(k, p, b,    d) {
	if (!grun[k]) return
	ng++; gp[ng] = p; g0[ng] = glast[k]; g1[ng] = b
	d = ns_of(glast[k], b)
	if (d > longest[p]) longest[p] = d
	if (d > maxstretch) { maxstretch = d; maxswho = p; maxsat = glast[k] }
	glast[k] = b
}
END {
	# the rows: the tasks with the longest hold or stretch, longest first
	for (p in longest) order[++nt] = p
	for (i = 2; i <= nt; i++)
		for (j = i; j > 1 && longest[order[j]] > longest[order[j - 1]]; j--) {
			x = order[j]; order[j] = order[j - 1]; order[j - 1] = x
		}
	if (nt > rows) nt = rows
	# row 1 at the bottom: the longest on the top row
	printf "" > (dir "/rows.txt")
	for (i = nt; i >= 1; i--) { row[order[i]] = nt - i + 1; print nt - i + 1, lbl(order[i]) > (dir "/rows.txt") }
	printf "" > (dir "/holds.dat"); printf "" > (dir "/waits.dat"); printf "" > (dir "/switches.dat")
	printf "" > (dir "/points.dat"); printf "" > (dir "/stretches.dat")
	# times to the nanosecond: print's %.6g would round a 100 s trace to 100 us
	for (i = 1; i <= nh; i++) if (hp[i] in row) printf "%d %.9f %.9f %d\n", row[hp[i]], h0[i], h1[i], hk[i] > (dir "/holds.dat")
	for (i = 1; i <= nw; i++) if (wp[i] in row) printf "%d %.9f %.9f %d\n", row[wp[i]], w0[i], w1[i], wk[i] > (dir "/waits.dat")
	for (i = 1; i <= ns; i++) if (sp[i] in row) printf "%d %.9f\n", row[sp[i]], st[i] > (dir "/switches.dat")
	for (i = 1; i <= np; i++) if (pp[i] in row) printf "%d %.9f\n", row[pp[i]], pt[i] > (dir "/points.dat")
	for (i = 1; i <= ng; i++) if (gp[i] in row) printf "%d %.9f %.9f %.1f\n", row[gp[i]], g0[i], g1[i], (g1[i] - g0[i]) * 1e6 > (dir "/stretches.dat")
	# the heat map: every hold, 100 time bins x log2(hold ns) buckets 8..30
	bins = 100; span = (last > 0 ? last : 1)
	for (i = 1; i <= nh; i++) {
		ns_ = (h1[i] - h0[i]) * 1e9; b = 0
		while (ns_ >= 2 && b < 30) { ns_ /= 2; b++ }
		if (b < 8) b = 8
		x = int(h0[i] / span * bins); if (x >= bins) x = bins - 1
		heat[x, b]++
	}
	for (x = 0; x < bins; x++) {
		for (b = 8; b <= 30; b++)
			printf "%.9f %d %s\n", (x + 0.5) * span / bins, b, ((x, b) in heat) ? heat[x, b] : "NaN" > (dir "/heat.dat")
		print "" > (dir "/heat.dat")
	}
	printf "span %.6f s, %d holds, %d contended waits, %d switch-outs holding a lock, %d gather stretches, %d preemption points\n", \
		last, nh, nw, ns, ng, np > (dir "/summary.txt")
	if (marked)
		printf "in the MMPREEMPT window: %d holds released, %d contended acquisitions\n", winholds, wincont > (dir "/summary.txt")
	if (nh) printf "longest hold %s by %s at %.6f s\n", fmt_ns(maxhold), lbl(maxwho), maxat > (dir "/summary.txt")
	if (ng) printf "longest gather stretch %s by %s at %.6f s\n", fmt_ns(maxstretch), lbl(maxswho), maxsat > (dir "/summary.txt")
	printf "%.9f\n", span > (dir "/span.txt")
}
