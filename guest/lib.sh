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
# kmemleak, fault injection, no KSM), both x86_64 (guest/kernel.sh); and
# "sparc64" (guest/kernel-sparc64.config, cross-built by
# guest/kernel-sparc64.sh) with "sparc64-stock", the same config on the
# unpatched tree (the GUP-fast comparison's baseline); and "stock", the
# normal config on the unpatched tree (bench/off-cost.sh's baseline); and
# "lockstat" (guest/kernel-lockstat.config merged over the normal one:
# CONFIG_LOCK_STAT, bench/workload-cost.sh's anchor). Each
# has its own key, object directory and "current" link in the cache; ccache
# is shared.
VARIANT=${VARIANT:-normal}
case $VARIANT in
normal|debug|stock|lockstat|sparc64|sparc64-stock) ;;
*) printf '%s: error: VARIANT=%s: want normal, debug, stock, lockstat, sparc64 or sparc64-stock\n' "$PROG" "$VARIANT" >&2; exit 1 ;;
esac
# kernel_fragments [VARIANT]: the config fragments, in merge order.
kernel_fragments() {
	case ${1:-$VARIANT} in
	sparc64*) echo "$TOP/guest/kernel-sparc64.config" ;;
	debug) echo "$TOP/guest/kernel.config"; echo "$TOP/guest/kernel-debug.config" ;;
	lockstat) echo "$TOP/guest/kernel.config"; echo "$TOP/guest/kernel-lockstat.config" ;;
	*) echo "$TOP/guest/kernel.config" ;;
	esac
}
# kernel_obj [VARIANT], kernel_current [VARIANT]: its object directory (KDIR
# for external modules) and the link to its newest build.
kernel_obj() {
	case ${1:-$VARIANT} in
	normal) echo "$CACHE/obj" ;;
	*) echo "$CACHE/obj-${1:-$VARIANT}" ;;
	esac
}
kernel_current() {
	case ${1:-$VARIANT} in
	normal) echo "$CACHE/kernel/current" ;;
	*) echo "$CACHE/kernel/current-${1:-$VARIANT}" ;;
	esac
}

# Everything the kernel image is built from, hashed: package version, both
# series with their patches (not for the stock variant), the variant's config
# fragments and the build recipe. kernel_key [VARIANT].
kernel_key() {
	{
		echo "${1:-$VARIANT}"
		dpkg-query -W -f='${Version}\n' "$KSRC_PKG" 2>/dev/null || echo nopkg
		case ${1:-$VARIANT} in
		stock|*-stock) ;;
		*)
			for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
				cat "$s"
				series_files "$s" | while read -r f; do cat "$f"; done
			done ;;
		esac
		kernel_fragments "${1:-$VARIANT}" | while read -r f; do cat "$f"; done
		case ${1:-$VARIANT} in
		sparc64*)
			cat "$TOP/guest/kernel-sparc64.sh"
			sparc64-linux-gnu-gcc --version 2>/dev/null | head -n 1 ;;
		*) cat "$TOP/guest/kernel.sh" ;;
		esac
		cat "$TOP/guest/kernel-src.sh"
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

# merge_config: config fragment lines on stdin, merged: a later line for an
# option replaces an earlier one.
merge_config() {
	awk '
	{ opt = $0; sub(/^# /, "", opt) }
	opt ~ /^CONFIG_[A-Za-z0-9_]+[= ]/ { sub(/[= ].*/, "", opt); last[opt] = NR }
	{ line[NR] = $0; key[NR] = opt }
	END { for (i = 1; i <= NR; i++) if (!(key[i] in last) || last[key[i]] == i) print line[i] }'
}

# kernel_build FRAG CC: the caller's kmake (its tree, O= and ARCH) runs
# allnoconfig with FRAG merged, proves no option of it was dropped, then
# builds with CC through the shared ccache and a fixed build identity (so
# that ccache hits across rebuilds and clones), into
# $CACHE/logs/kernel-build-$VARIANT.log, saying every 30 s how many objects
# it has compiled; on failure it shows the log's tail and dies. Leaves the
# build's seconds in build_secs and its CPU seconds (user + system of
# every compiler it ran) in build_cpu_secs.
kernel_build() {
	kmake -s KCONFIG_ALLCONFIG="$1" allnoconfig
	"$TOP/guest/kernel-config-check.sh" "$1" "$obj/.config" ||
		die "$(kernel_fragments | sed "s|^$TOP/||" | tr '\n' ' ')asks for options Kconfig refused (above)"
	# Depend mode: ccache hashes the compiler's own -MMD output instead of
	# running the preprocessor a second time, which a cold build pays on
	# every object (about a fifth more CPU than plain gcc, measured on
	# mm/memory.c, kernel/sched/core.c, fs/ext4/inode.c, net/ipv4/tcp.c).
	export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}" CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-4G}"
	export CCACHE_DEPEND="${CCACHE_DEPEND:-1}"
	export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2010-06-07}"
	export KBUILD_BUILD_USER=mmpreempt KBUILD_BUILD_HOST=guest
	blog=$CACHE/logs/kernel-build-$VARIANT.log
	log "building the $VARIANT kernel with $jobs jobs (log: $blog)"
	bt0=$(date +%s)
	times >"$obj/.mmpreempt-times" && bc0=$(children_cpu_secs "$obj/.mmpreempt-times")
	kmake -j"$jobs" CC="ccache $2" HOSTCC="ccache gcc" all >"$blog" 2>&1 &
	bpid=$!
	while kill -0 "$bpid" 2>/dev/null; do
		i=0
		while [ $i -lt 30 ] && kill -0 "$bpid" 2>/dev/null; do sleep 1; i=$((i + 1)); done
		kill -0 "$bpid" 2>/dev/null &&
			log "$(grep -c '^  CC' "$blog") objects compiled, $(elapsed "$bt0") s"
	done
	if ! wait "$bpid"; then
		tail -n 40 "$blog" >&2
		die "$VARIANT kernel build failed (full log: $blog)"
	fi
	build_secs=$(elapsed "$bt0")
	times >"$obj/.mmpreempt-times"
	build_cpu_secs=$(($(children_cpu_secs "$obj/.mmpreempt-times") - bc0))
}

# children_cpu_secs FILE: the user + system seconds of a shell's waited-for
# children, from its `times` output in FILE (the second line), rounded down.
# (`times` must run in that shell itself: a subshell counts its own.)
children_cpu_secs() {
	awk 'NR == 2 { s = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); s += a[1] * 60 + a[2] }
		printf "%d\n", s }' "$1"
}

# baseline_tree SRC: the unpatched baseline commit of the patched tree SRC,
# checked out beside it (for the stock variants); prints its path.
baseline_tree() {
	_t=$CACHE/src/linux-stock
	if [ "$(git -C "$_t" rev-parse HEAD 2>/dev/null)" != "$(git -C "$1" rev-parse baseline)" ]; then
		git -C "$1" worktree remove --force "$_t" >/dev/null 2>&1 || rm -rf "$_t"
		git -C "$1" worktree prune
		log "checking out the unpatched baseline in $_t"
		git -C "$1" worktree add -q --detach "$_t" baseline
	fi
	echo "$_t"
}

# kernel_cached FILE PRINT: when $out (the key's output) has FILE and the
# object directory was last built for this key, link it as the variant's
# current one, print PRINT and exit: there is nothing to build.
kernel_cached() {
	if [ -f "$out/$1" ] && [ "$(cat "$obj/.mmpreempt-key" 2>/dev/null)" = "$key" ]; then
		log "up to date: $(cat "$out/kernel.release") (key $key)"
		ln -sfn "$key" "$cur"
		echo "$2"
		exit 0
	fi
}

# kernel_store: $out.tmp, filled by the caller, becomes $out with the
# release and the build's seconds, and the variant's current one.
kernel_store() {
	kmake -s kernelrelease >"$out.tmp/kernel.release"
	echo "$build_secs" >"$out.tmp/build-seconds"
	echo "$build_cpu_secs" >"$out.tmp/build-cpu-seconds"
	rm -rf "$out" && mv "$out.tmp" "$out"
	echo "$key" >"$obj/.mmpreempt-key"
	ln -sfn "$key" "$cur"
	log "built $(cat "$out/kernel.release") in $build_secs s, $build_cpu_secs CPU-s (key $key)"
}
