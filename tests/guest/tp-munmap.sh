#!/bin/sh
# description: 64 MiB munmap frees >= 16384 pages, resched every <= 512; a THP is 1
#   munmap of a populated 64 MiB region is one mmu_gather whose
#   flushes free at least the region's 16384 pages, whose preemption points
#   come every <= 512 pages and add up to the pages it freed, whose batch
#   allocation stops at MAX_GATHER_BATCH_COUNT, and every gather of the
#   process has its start and finish paired, its flushes' pages equal to
#   its preemption points' pages; the munmap of two THPs (unmap --mib 4
#   --thp) reads pages=2: the events count the gather's entries, one per
#   page of any size
# requires: trace-cmd unmap /sys/kernel/tracing/events/mmu_gather
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
d=$RES/tp-munmap
record "$d" mmu_gather -- unmap --mib 64
events_awk -v want=16384 '
$4 != "unmap" { next }
{ k = $3 " " f["tlb"] }
$5 == "mmu_gather_start" { if (k in open) { print "FAIL: gather " k " started twice"; bad = 1 } open[k] = ++g; fl[g] = 0; fp[g] = 0; rp[g] = 0; nr[g] = 0; full[g] = f["fullmm"]; next }
!(k in open) { print "FAIL: " $5 " outside a gather: " $0; bad = 1; next }
{ c = open[k] }
$5 == "mmu_gather_flush" { fl[c]++; fp[c] += f["pages"] }
$5 == "mmu_gather_resched" { nr[c]++; rp[c] += f["pages"]; if (f["pages"] + 0 > 512) { print "FAIL: " f["pages"] " pages between preemption points"; bad = 1 } }
$5 == "mmu_gather_batch_alloc" { if (f["success"] == "true") { if (f["batch_count"] + 0 > maxok) maxok = f["batch_count"] } else { nfail++; failat[f["batch_count"]]++ } }
$5 == "mmu_gather_finish" {
	if (fp[c] != rp[c]) {
		printf "FAIL: gather %d: its flushes freed %d pages, its preemption points %d\n", c, fp[c], rp[c]; bad = 1
	}
	if (fp[c] > best) { best = fp[c]; bestc = c; bestfull = full[c] }
	delete open[k]; done++
}
END {
	for (k in open) { print "FAIL: gather " k " never finished"; bad = 1 }
	printf "ok: %d gathers paired; largest freed %d pages in %d flushes and %d preemption points (fullmm=%s)\n", done, best, fl[bestc], nr[bestc], bestfull
	printf "ok: batch allocations up to %d batches, %d refused\n", maxok, nfail
	if (best < want) { print "FAIL: largest gather freed " best " pages, want >= " want; bad = 1 }
	if (bestfull != "false") { print "FAIL: the largest gather is not the munmap one"; bad = 1 }
	if (nfail < 1) { print "FAIL: no batch allocation refused: MAX_GATHER_BATCH_COUNT never reached"; bad = 1 }
	for (b in failat) if (b != maxok) { print "FAIL: a batch allocation failed at " b " batches, below the limit " maxok; bad = 1 }
	exit bad
}' "$d/events.txt"

# "pages" counts the gather's entries: a PMD-mapped THP is one. unmap
# --mib 4 --thp faults in two THPs (thp_fault_alloc says so), and its
# munmap's gather (fullmm=false, the only one of unmap's with pages) must
# read pages=2 in its flushes, not 1,024 base pages.
thp0=$(awk '$1 == "thp_fault_alloc" { print $2 }' /proc/vmstat)
record "$d/thp" mmu_gather -- unmap --mib 4 --thp
thp=$(($(awk '$1 == "thp_fault_alloc" { print $2 }' /proc/vmstat) - thp0))
expect "THPs unmap --mib 4 --thp faulted in" "$thp" 2
events_awk '$4 != "unmap" { next }
{ k = $3 " " f["tlb"] }
$5 == "mmu_gather_start" { full[k] = f["fullmm"]; pages[k] = 0 }
$5 == "mmu_gather_flush" { pages[k] += f["pages"] }
$5 == "mmu_gather_finish" && full[k] == "false" && pages[k] > 0 { print pages[k] }' \
	"$d/thp/events.txt" >"$d/thp/gather-pages"
expect "unmap's gathers that freed anything, fullmm=false" "$(wc -l <"$d/thp/gather-pages")" 1
expect "the THP munmap's gather: pages (entries)" "$(cat "$d/thp/gather-pages")" 2
