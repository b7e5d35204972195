#!/bin/sh
# kernel.sh: the patched guest kernel, built once per content.
#
# Unpacks Debian's linux-source-6.1 into the cache as a git repository (baseline
# commit), applies patches/series then tracepoints/series with `git am`, merges
# the variant's config fragments over allnoconfig (VARIANT=normal:
# guest/kernel.config; VARIANT=debug: guest/kernel-debug.config over it), and
# builds bzImage and modules with ccache out of tree, one object directory per
# variant. The result is stored under $CACHE/kernel/<key>, where key
# hashes everything it is built from; a second run with the same inputs, from
# any clone, does nothing. Needs: the packages of `make deps`.
#
# Prints the path of the build directory (KDIR for external modules) last.
set -eu
. "$(dirname "$0")/lib.sh"

[ -r "$KSRC_TARBALL" ] || die "$KSRC_TARBALL missing: run 'make deps'"
key=$(kernel_key)
out=$CACHE/kernel/$key
src=$CACHE/src/linux
obj=$(kernel_obj)
cur=$(kernel_current)
jobs=${JOBS:-$(nproc)}
# LOCALVERSION set (empty) keeps setlocalversion from appending "+" for a git
# tree; the release name comes from CONFIG_LOCALVERSION alone. A jobserver from
# an outer make would fight the explicit -j.
kmake() { make -C "$src" O="$obj" LOCALVERSION= "$@"; }
unset MAKEFLAGS MFLAGS MAKELEVEL

if [ -f "$out/bzImage" ] && [ "$(cat "$obj/.mmpreempt-key" 2>/dev/null)" = "$key" ]; then
	log "up to date: $(cat "$out/kernel.release") (key $key)"
	ln -sfn "$key" "$cur"
	echo "$obj"
	exit 0
fi
mkdir -p "$CACHE/src" "$CACHE/kernel" "$CACHE/logs" "$obj"

# Baseline: the tarball as one commit. Debian's top-level .gitignore ignores
# almost everything, hence add -f.
if [ ! -d "$src/.git" ]; then
	t0=$(date +%s)
	log "unpacking $KSRC_TARBALL"
	rm -rf "$src.tmp" && mkdir -p "$src.tmp"
	tar -xJf "$KSRC_TARBALL" -C "$src.tmp" --strip-components=1
	ver=$(dpkg-query -W -f='${Version}' "$KSRC_PKG")
	(
		cd "$src.tmp"
		git init -q -b mmpreempt
		git add -f -A
		git -c user.name=mmpreempt -c user.email=mmpreempt@localhost \
			commit -q -m "baseline: Debian $KSRC_PKG $ver"
		git tag baseline
	)
	mv "$src.tmp" "$src"
	log "baseline committed in $(elapsed "$t0") s"
fi

# The series: reset to the baseline and apply both series in order, unless the
# tree already carries exactly these patches.
want=$(for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
	series_files "$s" | while read -r f; do cat "$f"; done; done | hash_of)
# The series is applied in a scratch worktree, then checked out here: git
# rewrites only the files that differ from what the tree had, so a changed
# patch rebuilds what it touches, not everything the previous series touched.
if [ "$(cat "$src/.git/mmpreempt-series" 2>/dev/null)" != "$want" ]; then
	apply=$CACHE/src/apply
	git -C "$src" worktree remove --force "$apply" >/dev/null 2>&1 || rm -rf "$apply"
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$apply" baseline
	for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
		for f in $(series_files "$s"); do
			[ -f "$f" ] || die "$s names $(basename "$f"), which does not exist"
			if ! git -C "$apply" -c user.name=mmpreempt -c user.email=mmpreempt@localhost \
				am -q --keep-cr "$f" >"$CACHE/logs/git-am.log" 2>&1; then
				cat "$CACHE/logs/git-am.log" >&2
				git -C "$apply" am --abort >/dev/null 2>&1 || true
				die "patch does not apply: ${f#"$TOP"/}"
			fi
			log "applied ${f#"$TOP"/}"
		done
	done
	head=$(git -C "$apply" rev-parse HEAD)
	git -C "$src" worktree remove --force "$apply"
	git -C "$src" checkout -q -f -B mmpreempt "$head"
	echo "$want" >"$src/.git/mmpreempt-series"
fi

# Config: allnoconfig plus the fragments (a later line for an option replaces
# an earlier one), then prove nothing was dropped.
rm -f "$obj/.mmpreempt-key"
frag=$obj/.mmpreempt-fragment
kernel_fragments | while read -r f; do cat "$f"; done | awk '
	{ opt = $0; sub(/^# /, "", opt) }
	opt ~ /^CONFIG_[A-Za-z0-9_]+[= ]/ { sub(/[= ].*/, "", opt); last[opt] = NR }
	{ line[NR] = $0; key[NR] = opt }
	END { for (i = 1; i <= NR; i++) if (!(key[i] in last) || last[key[i]] == i) print line[i] }' >"$frag"
kmake -s KCONFIG_ALLCONFIG="$frag" allnoconfig
"$TOP/guest/kernel-config-check.sh" "$frag" "$obj/.config" ||
	die "$(kernel_fragments | sed "s|^$TOP/||" | tr '\n' ' ')asks for options Kconfig refused (above)"

# Fixed build identity so ccache hits across rebuilds and clones.
export CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}" CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-4G}"
export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2010-06-07}"
export KBUILD_BUILD_USER=mmpreempt KBUILD_BUILD_HOST=guest
logf=$CACHE/logs/kernel-build-$VARIANT.log
t0=$(date +%s)
log "building the $VARIANT kernel with $jobs jobs (log: $logf)"
kmake -j"$jobs" CC="ccache gcc" HOSTCC="ccache gcc" all >"$logf" 2>&1 &
pid=$!
# Progress on a long step: objects compiled so far, every 30 s.
while kill -0 "$pid" 2>/dev/null; do
	i=0
	while [ $i -lt 30 ] && kill -0 "$pid" 2>/dev/null; do sleep 1; i=$((i + 1)); done
	kill -0 "$pid" 2>/dev/null &&
		log "$(grep -c '^  CC' "$logf") objects compiled, $(elapsed "$t0") s"
done
if ! wait "$pid"; then
	tail -n 40 "$logf" >&2
	die "kernel build failed (full log: $logf)"
fi
secs=$(elapsed "$t0")

mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$obj/System.map" "$out.tmp/"
# In-tree test modules the guest tests load (test_hmm: a user-space way to
# reach mmu_notifier_register(), hence mm_take_all_locks()).
find "$obj" -name '*.ko' -exec cp {} "$out.tmp/" \;
# The tree's own GUP-fast selftest, for the guest (static: no guest libs).
gcc -O2 -static -I"$src" -I"$src/tools/testing/selftests" \
	-o "$out.tmp/gup_test" "$src/tools/testing/selftests/vm/gup_test.c" -lpthread ||
	die "cannot build tools/testing/selftests/vm/gup_test.c"
kmake -s kernelrelease >"$out.tmp/kernel.release"
echo "$secs" >"$out.tmp/build-seconds"
rm -rf "$out" && mv "$out.tmp" "$out"
echo "$key" >"$obj/.mmpreempt-key"
ln -sfn "$key" "$cur"
log "built $(cat "$out/kernel.release") in $secs s (key $key)"
echo "$obj"
