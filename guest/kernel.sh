#!/bin/sh
# kernel.sh: the patched guest kernel, built once per content.
#
# Gets the patched tree from guest/kernel-src.sh (Debian's linux-source-6.1 in
# the cache as a git repository, both series applied with `git am`), merges
# the variant's config fragments over allnoconfig (VARIANT=normal:
# guest/kernel.config; VARIANT=debug: guest/kernel-debug.config over it;
# VARIANT=stock: guest/kernel.config on the unpatched baseline;
# VARIANT=lockstat: guest/kernel-lockstat.config over the normal one), and
# builds bzImage and modules with ccache out of tree, one object directory per
# variant, and keeps the headers bpftrace needs beside the image. The result
# is stored under $CACHE/kernel/<key>, where key hashes everything it is built
# from; a second run with the same inputs, from any clone, does nothing.
# Needs: the packages of `make deps`.
#
# Prints the path of the build directory (KDIR for external modules) last.
set -eu
. "$(dirname "$0")/lib.sh"

[ -r "$KSRC_TARBALL" ] || die "$KSRC_TARBALL missing: run 'make deps'"
key=$(kernel_key)
out=$CACHE/kernel/$key
obj=$(kernel_obj)
cur=$(kernel_current)
jobs=${JOBS:-$(nproc)}
# LOCALVERSION set (empty) keeps setlocalversion from appending "+" for a git
# tree; the release name comes from CONFIG_LOCALVERSION alone. A jobserver from
# an outer make would fight the explicit -j.
kmake() { make -C "$tree" O="$obj" LOCALVERSION= "$@"; }
unset MAKEFLAGS MFLAGS MAKELEVEL

kernel_cached bzImage "$obj"
mkdir -p "$CACHE/kernel" "$CACHE/logs" "$obj"
src=$("$TOP/guest/kernel-src.sh")
tree=$src
[ "$VARIANT" = stock ] && tree=$(baseline_tree "$src")

# Config: allnoconfig plus the fragments (a later line for an option replaces
# an earlier one), then the build (guest/lib.sh kernel_build).
rm -f "$obj/.mmpreempt-key"
frag=$obj/.mmpreempt-fragment
# stock: without the one option the series adds (patches/: its KUnit test)
{
	kernel_fragments | while read -r f; do cat "$f"; done
	[ "$VARIANT" = stock ] && echo 'CONFIG_LOCALVERSION="-stock"'
} | merge_config | if [ "$VARIANT" = stock ]; then
	grep -v '^CONFIG_MUTEX_CONTENDED_KUNIT_TEST='
else
	cat
fi >"$frag"
kernel_build "$frag" gcc

mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$obj/System.map" "$out.tmp/"
# In-tree test modules the guest tests load (test_hmm: a user-space way to
# reach mmu_notifier_register(), hence mm_take_all_locks()).
find "$obj" -name '*.ko' -exec cp {} "$out.tmp/" \;
# The headers bpftrace compiles its struct casts against, laid out as one
# tree (the source's, then the generated ones of this build): the guest
# mounts it as /lib/modules/<release>/build (guest/run.sh, guest/init).
for d in "$tree" "$obj"; do
	(cd "$d" && find include arch/x86/include -name '*.h' | cpio --quiet -pdm "$out.tmp/headers") ||
		die "cannot copy the kernel headers of $d"
done
# The tree's own GUP-fast selftest, for the guest (static: no guest libs).
gcc -O2 -static -I"$tree" -I"$tree/tools/testing/selftests" \
	-o "$out.tmp/gup_test" "$tree/tools/testing/selftests/vm/gup_test.c" -lpthread ||
	die "cannot build tools/testing/selftests/vm/gup_test.c"
kernel_store
echo "$obj"
