#!/bin/sh
# description: failed tlb_next_batch allocs flush early; trace and module counts agree
#   tlb_next_batch()'s GFP_NOWAIT batch page allocation fails
#   for one unmapping task (fail_page_alloc, task filter, order 0, no
#   waiting allocations): the gather falls back to flushing early (more
#   tlb_flush_mmu() calls than the same unmap without failures, and its
#   16 MiB munmap frees as many pages), every failure is traced as mmu_gather_batch_alloc
#   success=false below MAX_GATHER_BATCH_COUNT, and mmpreempt.ko's
#   mmu_gather.batch_alloc_failed and its event counts equal the trace's
#   over the window
# requires: CONFIG_FAIL_PAGE_ALLOC mmpreempt.ko trace-cmd unmap
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
. "$(dirname "$0")/lib/debug.sh"
need_config CONFIG_FAIL_PAGE_ALLOC
load_module
d=$RES/fi-tlb-batch
mkdir -p "$d"
cd /tmp || exit 1
restore() {
	fi_set fail_page_alloc probability=0 task-filter=N min-order=1 verbose=2 times=1
}
trap restore EXIT
fi_set fail_page_alloc task-filter=Y probability=100 interval=1 times=-1 \
	ignore-gfp-wait=Y ignore-gfp-highmem=Y min-order=0 verbose=0
for run in clean inject; do
	if [ $run = inject ]; then
		record_window "$d/$run" $run mmu_gather -- \
			sh -c 'echo 1 >/proc/self/make-it-fail && exec unmap --mib 16'
	else
		record_window "$d/$run" $run mmu_gather -- unmap --mib 16
	fi
done
restore
trap - EXIT
# per run: the window's events; unmap's own pages, flushes, failures
# (pages: the largest gather of unmap, its 16 MiB munmap)
sum() { # sum RUN: "allocfail flushes pages all_batch all_fail all_flush" in the window
	awk '/MMPREEMPT-WINDOW-START/ { on = 1; next } /MMPREEMPT-WINDOW-END/ { on = 0 }
	!on || $4 !~ /:$/ { next }
	{ ev = substr($4, 1, length($4) - 1); delete f
	  for (i = 5; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
	ev == "mmu_gather_batch_alloc" { ab++; if (f["success"] == "false") { af++; if (f["batch_count"] < 19) mine_af += ($1 ~ /^unmap-/) } }
	ev == "mmu_gather_flush" { afl++; if ($1 ~ /^unmap-/) { fl++; gp[f["tlb"]] += f["pages"] } }
	ev == "mmu_gather_finish" && $1 ~ /^unmap-/ { if (gp[f["tlb"]] > pg) pg = gp[f["tlb"]]; delete gp[f["tlb"]] }
	END { print mine_af + 0, fl + 0, pg + 0, ab + 0, af + 0, afl + 0 }' "$d/$1/report.txt"
}
# shellcheck disable=SC2046 # sum prints its figures as fields
set -- $(sum clean)
c_fail=$1 c_fl=$2 c_pg=$3
# shellcheck disable=SC2046 # as above
set -- $(sum inject)
i_fail=$1 i_fl=$2 i_pg=$3 i_ab=$4 i_af=$5 i_afl=$6
echo "clean:  unmap's munmap freed $c_pg pages; unmap flushed $c_fl times, $c_fail batch allocations failed"
echo "inject: unmap's munmap freed $i_pg pages; unmap flushed $i_fl times, $i_fail batch allocations failed"
expect "batch allocations failed without injection" "$c_fail" 0
[ "$i_fail" -ge 1 ] || fail "no batch allocation failed: the injection did not reach tlb_next_batch()"
[ "$i_fl" -gt "$c_fl" ] || fail "$i_fl flushes with failures, $c_fl without: no early flush"
expect "pages the munmap freed with failures (as without)" "$i_pg" "$c_pg"
STATS=$d/inject/stats
expect "module events.mmu_gather_batch_alloc = trace" "$(stat_of events.mmu_gather_batch_alloc)" "$i_ab"
expect "module mmu_gather.batch_alloc_failed = trace" "$(stat_of mmu_gather.batch_alloc_failed)" "$i_af"
expect "module events.mmu_gather_flush = trace" "$(stat_of events.mmu_gather_flush)" "$i_afl"
