#!/bin/sh
# description: failslab on each anon_vma/chain alloc: fork and fault recover, no leak
#   every anon_vma and anon_vma_chain allocation of a fork and
#   of a first anonymous fault fails once in turn (fail-nth, failslab on
#   the two caches only): fork fails with ENOMEM or its GFP_NOWAIT chain
#   allocation falls back and it succeeds, the fault is retried and the
#   write lands; each forced failure's stack shows anon_vma_fork() or
#   __anon_vma_prepare() (or their traced copies; both at least once), but
#   for anon_vma_clone()'s GFP_NOWAIT|__GFP_NOWARN chain allocation, which
#   prints none and is the
#   one the forks that survived a failure fell back from (at least one);
#   the anon_vma events of the whole walk replay (every refcount invariant
#   of lib/replay.awk); kmemleak finds nothing unreferenced afterwards
#   On the debug kernel, which also boots with slub_debug=A on the two
#   caches (guest/run.sh)
# requires: CONFIG_FAILSLAB CONFIG_DEBUG_KMEMLEAK failnth trace-cmd
# timeout: 420
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/debug.sh"
need_config CONFIG_FAILSLAB CONFIG_FAIL_PAGE_ALLOC CONFIG_DEBUG_KMEMLEAK
d=$RES/fi-anon-vma
mkdir -p "$d"
cd /tmp || exit 1
restore() {
	fi_set failslab cache-filter=N ignore-gfp-wait=Y verbose=2
	fi_set fail_page_alloc min-order=1
}
trap restore EXIT
# Only the two caches count (guest/run.sh boots the debug kernel with
# slub_debug=A on them); GFP_KERNEL allocations too; no page allocation.
for c in anon_vma anon_vma_chain; do
	[ "$(cat /sys/kernel/slab/$c/failslab)" = 1 ] ||
		fail "cache $c is not marked for failslab (slub_debug=A,anon_vma,anon_vma_chain on the command line?)"
done
fi_set failslab cache-filter=Y ignore-gfp-wait=N verbose=2 probability=0
fi_set fail_page_alloc min-order=20
kmemleak_clear
from=$(dmesg | wc -l)
record "$d" anon_vma -- sh -c 'failnth --vmas 4 fork >/tmp/fi-fork.out && failnth fault >/tmp/fi-fault.out' ||
	fail "the walk failed"
cp /tmp/fi-fork.out /tmp/fi-fault.out "$d/"
restore
trap - EXIT
fi_hits "$from" >"$d/hits"
cat "$d/fi-fork.out" "$d/fi-fault.out"
awk '
FILENAME ~ /fork/ && $3 == "injected" { inj++; if ($5 == "failed:") { fail++; if ($6 != "ENOMEM") bad++ } else fallback++ }
FILENAME ~ /fault/ && $3 == "injected" { finj++ }
$1 == "sites" { sites[FILENAME] = $2 }
END {
	printf "ok: fork: %d failures forced, %d forks failed with ENOMEM, %d fell back and succeeded\n", inj, fail, fallback
	printf "ok: first fault: %d failures forced, every write landed\n", finj
	if (inj < 4 || fail < 1 || finj < 1 || bad) exit 1
}' "$d/fi-fork.out" "$d/fi-fault.out" || fail "the walk did not force the failures it should"
# A failure of a __GFP_NOWARN allocation prints no stack: the one such
# allocation here is anon_vma_clone()'s GFP_NOWAIT chain, the only one with a
# fallback, so the forks that survived a forced failure are exactly those.
n=$(wc -l <"$d/hits")
inj=$(cat "$d/fi-fork.out" "$d/fi-fault.out" | grep -c ' injected ')
quiet=$(grep -c ' injected fork ok' "$d/fi-fork.out" || true)
expect "stack dumps (forced failures less the $quiet GFP_NOWAIT ones of anon_vma_clone)" "$n" $((inj - quiet))
[ "$quiet" -ge 1 ] || fail "no fork survived a forced failure: anon_vma_clone()'s fallback never ran"
echo "ok: $quiet forced failures of anon_vma_clone()'s GFP_NOWAIT chain allocation, each caught by its GFP_KERNEL fallback"
# with the anon_vma events on (recorded here) the out-of-line traced copy of
# each runs, named in the stack instead (tracepoints/0006)
for f in anon_vma_fork __anon_vma_prepare; do
	k=$(grep -cwE "$f|${f#__}_traced" "$d/hits" || true)
	echo "ok: $k of $n forced failures hit in $f()"
	[ "$k" -ge 1 ] || fail "no forced failure hit in $f(): the walk missed that path"
done
awk -f "$(dirname "$0")/lib/replay.awk" "$d/events.txt" || fail "the refcount replay failed"
kmemleak_check "after $n forced anon_vma allocation failures"
