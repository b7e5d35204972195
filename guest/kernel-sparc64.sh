#!/bin/sh
# kernel-sparc64.sh: the sparc64 guest kernel, cross-built once per content.
#
# VARIANT=sparc64 (default here): the patched tree of guest/kernel-src.sh;
# VARIANT=sparc64-stock: the same config on the unpatched baseline (a
# worktree of the same repository), the GUP-fast comparison's baseline.
# Merges guest/kernel-sparc64.config over allnoconfig, proves nothing was
# dropped, builds with sparc64-linux-gnu-gcc through the shared ccache in its
# own object directory, and stores the boot image (arch/sparc/boot/image),
# the config and the release under $CACHE/kernel/<key>. (The guest's programs
# are tests/sparc64/Makefile's.) Needs: the packages of `make deps` (the
# cross compiler). Prints the output directory last.
set -eu
VARIANT=${VARIANT:-sparc64}
. "$(dirname "$0")/lib.sh"
case $VARIANT in sparc64|sparc64-stock) ;; *) die "VARIANT=$VARIANT is no sparc64 kernel" ;; esac

cross=sparc64-linux-gnu-
command -v ${cross}gcc >/dev/null || die "${cross}gcc missing: run 'make deps'"
key=$(kernel_key)
out=$CACHE/kernel/$key
obj=$(kernel_obj)
cur=$(kernel_current)
jobs=${JOBS:-$(nproc)}
unset MAKEFLAGS MFLAGS MAKELEVEL

kernel_cached image "$out"
mkdir -p "$CACHE/kernel" "$CACHE/logs" "$obj"
src=$("$TOP/guest/kernel-src.sh")
tree=$src
[ "$VARIANT" = sparc64-stock ] && tree=$(baseline_tree "$src")
kmake() { make -C "$tree" O="$obj" ARCH=sparc64 CROSS_COMPILE=$cross LOCALVERSION= "$@"; }

frag=$obj/.mmpreempt-fragment
{
	kernel_fragments | while read -r f; do cat "$f"; done
	[ "$VARIANT" = sparc64-stock ] && echo 'CONFIG_LOCALVERSION="-stock-sparc64"'
} | merge_config >"$frag"
rm -f "$obj/.mmpreempt-key"
kernel_build "$frag" "${cross}gcc"

mkdir -p "$out.tmp"
cp "$obj/arch/sparc/boot/image" "$obj/.config" "$obj/System.map" "$out.tmp/"
kernel_store
echo "$out"
