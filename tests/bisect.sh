#!/bin/sh
# bisect.sh: every prefix of the two series builds and boots, so that the
# series can be bisected. For patch k of patches/series then
# tracepoints/series, in order: apply it (git am) in a scratch worktree of
# the cached tree, configure with guest/kernel.config, build bzImage out of
# tree (incrementally: only what patch k touched rebuilds, ccache helps),
# boot it in the guest and run a command there. Stops at the first patch
# that does not build or boot, naming it.
# NEEDS: make kernel rootfs (the baseline tree and the guest image).
# OVERHEAD: one build per patch, most of them partial (a patch touching a
# widely included header rebuilds most of the kernel); about 30 minutes on
# 2 cores for the 7 patches of today (measured: 1087 s for the first,
# 501 s for the fs.h one, 38-60 s for the others). Results: results/bisect/.
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "bisect.sh" 0 "$@"
. "$(dirname "$0")/../guest/lib.sh"

src=$CACHE/bisect/src
obj=$CACHE/bisect/obj
res=$TOP/results/bisect
[ -d "$CACHE/src/linux/.git" ] || die "no kernel tree in the cache: run 'make kernel'"
mkdir -p "$CACHE/bisect" "$obj" "$res"
git -C "$CACHE/src/linux" worktree remove --force "$src" >/dev/null 2>&1 || rm -rf "$src"
git -C "$CACHE/src/linux" worktree prune
git -C "$CACHE/src/linux" worktree add -q --detach "$src" baseline
unset MAKEFLAGS MFLAGS MAKELEVEL
export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}"
export KBUILD_BUILD_TIMESTAMP=2010-06-07 KBUILD_BUILD_USER=mmpreempt KBUILD_BUILD_HOST=guest
all=$(series_files "$TOP/patches/series"; series_files "$TOP/tracepoints/series")
n=$(echo "$all" | wc -l)
k=0
for p in $all; do
	k=$((k + 1))
	name=${p#"$TOP"/}
	git -C "$src" -c user.name=mmpreempt -c user.email=mmpreempt@localhost \
		am -q --keep-cr "$p" || die "patch $k/$n does not apply: $name"
	t0=$(date +%s)
	make -s -C "$src" O="$obj" LOCALVERSION= KCONFIG_ALLCONFIG="$TOP/guest/kernel.config" \
		allnoconfig >"$res/$k.config.log" 2>&1 || die "patch $k/$n: config failed: $name"
	if ! make -C "$src" O="$obj" LOCALVERSION= -j"$(nproc)" CC="ccache gcc" bzImage \
		>"$res/$k.build.log" 2>&1; then
		tail -n 20 "$res/$k.build.log" >&2
		die "patch $k/$n does not build: $name (log: $res/$k.build.log)"
	fi
	secs=$(elapsed "$t0")
	KERNEL=$obj/arch/x86/boot/bzImage QUIET=1 TIMEOUT=300 "$TOP/guest/run.sh" -r "$res/$k" -- \
		'uname -r; ls -d /sys/kernel/tracing/events/anon_vma /sys/kernel/tracing/events/i_mmap /sys/kernel/tracing/events/mmu_gather /sys/kernel/tracing/events/mm_all_locks 2>/dev/null; true' \
		>"$res/$k.boot.log" 2>&1 || die "patch $k/$n does not boot: $name (log: $res/$k.boot.log)"
	log "patch $k/$n builds ($secs s) and boots: $name"
done
git -C "$CACHE/src/linux" worktree remove --force "$src"
log "all $n patches build and boot in order"
