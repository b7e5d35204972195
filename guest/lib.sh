# Shared by the host-side scripts in guest/: where things live, how to say things.
# Sourced, not run. POSIX sh.

TOP=${MMPREEMPT_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
CACHE=${CACHE:-$HOME/.cache/mmpreempt}
PROG=$(basename "$0" .sh)

# The kernel's source version comes from the installed package, never from here.
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KSRC_PKG=linux-source-6.1

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

# short content hash of files (in order) and strings given on stdin
hash_of() { sha256sum | cut -c1-16; }

# Patch files named by a series file, in order, as paths.
series_files() {
	dir=$(dirname "$1")
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" | while read -r p; do
		echo "$dir/$p"
	done
}

# Kernel variants: "normal" (guest/kernel.config: demo, record, benchmarks)
# and "debug" (guest/kernel-debug.config merged over it: lockdep, KASAN,
# kmemleak, fault injection, no KSM). Each has its own key, object directory
# and "current" link in the cache; ccache is shared.
VARIANT=${VARIANT:-normal}
case $VARIANT in
normal|debug) ;;
*) printf '%s: error: VARIANT=%s: want normal or debug\n' "$PROG" "$VARIANT" >&2; exit 1 ;;
esac
# kernel_fragments [VARIANT]: the config fragments, in merge order.
kernel_fragments() {
	echo "$TOP/guest/kernel.config"
	[ "${1:-$VARIANT}" = debug ] && echo "$TOP/guest/kernel-debug.config"
	return 0
}
# kernel_obj [VARIANT], kernel_current [VARIANT]: its object directory (KDIR
# for external modules) and the link to its newest build.
kernel_obj() { [ "${1:-$VARIANT}" = debug ] && echo "$CACHE/obj-debug" || echo "$CACHE/obj"; }
kernel_current() { [ "${1:-$VARIANT}" = debug ] && echo "$CACHE/kernel/current-debug" || echo "$CACHE/kernel/current"; }

# Everything the kernel image is built from, hashed: package version, both
# series with their patches, the variant's config fragments and the build
# recipe. kernel_key [VARIANT].
kernel_key() {
	{
		echo "${1:-$VARIANT}"
		dpkg-query -W -f='${Version}\n' "$KSRC_PKG" 2>/dev/null || echo nopkg
		for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
			cat "$s"
			series_files "$s" | while read -r f; do cat "$f"; done
		done
		kernel_fragments "${1:-$VARIANT}" | while read -r f; do cat "$f"; done
		cat "$TOP/guest/kernel.sh"
	} | hash_of
}

# The guest image's recipe, hashed.
rootfs_key() {
	{ cat "$TOP/guest/rootfs.sh" "$TOP/guest/rootfs.packages" "$TOP/guest/rootfs-init"
	  echo bookworm; } | hash_of
}

# Host-built guest artifacts (workload binaries, the module): git-ignored.
# The debug kernel has its own (its module is built against its headers).
if [ "$VARIANT" = debug ]; then ART=${ART:-$TOP/build/debug}; else ART=${ART:-$TOP/build}; fi

elapsed() { echo $(($(date +%s) - $1)); }
