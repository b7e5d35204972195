#!/bin/sh
# description: series build W=1-clean without CONFIG_TRACING, with no tracing code left
#   both series build without CONFIG_TRACING, and leave nothing
#   traced behind there: the objects they touch (mm/rmap.o, mm/mmap.o,
#   mm/mmu_gather.o, mm/memory.o, fs/inode.o, kernel/locking/mutex.o) compile
#   warning-free (W=1) from an x86_64 allnoconfig of the patched tree, which
#   has no tracing, and define no *_traced, __*_do_trace_*, anon_vma_trace_*
#   or tlb_trace_* function and no tracepoint; mm/i_mmap_trace.o is not
#   built
# requires: gcc cache:src/linux/Makefile
# overhead: about 2 minutes of compiling (the objects only, through the
#   shared ccache)
. "$TOP/tests/guest/lib/common.sh"
. "$TOP/guest/lib.sh"
src=$("$TOP/guest/kernel-src.sh" 2>"$RES/series-tracing-off.src.log") ||
	{ cat "$RES/series-tracing-off.src.log"; fail "guest/kernel-src.sh failed"; }
o=$CACHE/obj-notrace
mkdir -p "$o"
export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}"
make -s -C "$src" O="$o" allnoconfig >"$RES/series-tracing-off.log" 2>&1 || fail "allnoconfig failed"
grep -q '^CONFIG_TRACING=y' "$o/.config" && fail "allnoconfig has CONFIG_TRACING: the check would prove nothing"
objs="mm/rmap.o mm/mmap.o mm/mmu_gather.o mm/memory.o fs/inode.o kernel/locking/mutex.o"
# shellcheck disable=SC2086 # a list of targets
make -C "$src" O="$o" -j"$(nproc)" W=1 CC="ccache gcc" $objs >>"$RES/series-tracing-off.log" 2>&1 ||
	{ tail -n 30 "$RES/series-tracing-off.log"; fail "the touched objects do not build without CONFIG_TRACING"; }
grep -E 'warning:' "$RES/series-tracing-off.log" && fail "warnings without CONFIG_TRACING (above)"
left=$(cd "$o" && nm $objs | awk '$2 ~ /^[TtDdBb]$/ && $3 ~ /(_traced$|^__.*_do_trace_|^(anon_vma|tlb)_trace_|^__tracepoint_(anon_vma|i_mmap|mmu_gather|mm_take_all|mm_drop_all))/ { print $3 }')
[ -z "$left" ] || fail "defined without CONFIG_TRACING: $(echo $left)"
[ ! -e "$o/mm/i_mmap_trace.o" ] || fail "mm/i_mmap_trace.o was built without CONFIG_TRACING"
echo "ok: $objs build warning-free without CONFIG_TRACING and define nothing traced"
