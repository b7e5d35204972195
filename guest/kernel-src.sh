#!/bin/sh
# kernel-src.sh: the patched source tree every kernel variant builds from.
#
# Unpacks Debian's linux-source-6.1 into the cache as a git repository
# (baseline commit, tagged "baseline"), then applies patches/series and
# tracepoints/series with `git am`, unless the tree already carries exactly
# those patches. Callers hold $CACHE/.kernel.lock (the Makefile's flock), so
# that no build reads the tree while it changes. Needs: the packages of
# `make deps`. Prints the tree's path last.
set -eu
. "$(dirname "$0")/lib.sh"

[ -r "$KSRC_TARBALL" ] || die "$KSRC_TARBALL missing: run 'make deps'"
src=$CACHE/src/linux
mkdir -p "$CACHE/src" "$CACHE/logs"

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
# apply_series DIR: both series, in order, with `git am` in DIR.
apply_series() {
	for s in "$TOP/patches/series" "$TOP/tracepoints/series"; do
		for f in $(series_files "$s"); do
			[ -f "$f" ] || die "$s names $(basename "$f"), which does not exist"
			if ! git -C "$1" -c user.name=mmpreempt -c user.email=mmpreempt@localhost \
				am -q --keep-cr "$f" >"$CACHE/logs/git-am.log" 2>&1; then
				cat "$CACHE/logs/git-am.log" >&2
				git -C "$1" am --abort >/dev/null 2>&1 || true
				die "patch does not apply: ${f#"$TOP"/}"
			fi
			log "applied ${f#"$TOP"/}"
		done
	done
}
# A tree that has never carried a series (just unpacked) takes it in place.
# Otherwise the series is applied in a scratch worktree, then checked out
# here: git rewrites only the files that differ from what the tree had, so a
# changed patch rebuilds what it touches, not everything the previous series
# touched. (The worktree's own checkout of the whole tree costs about 35 s
# here: the cold path skips it.)
if [ ! -f "$src/.git/mmpreempt-series" ] &&
	[ "$(git -C "$src" rev-parse HEAD)" = "$(git -C "$src" rev-parse baseline)" ]; then
	apply_series "$src"
	echo "$want" >"$src/.git/mmpreempt-series"
elif [ "$(cat "$src/.git/mmpreempt-series" 2>/dev/null)" != "$want" ]; then
	apply=$CACHE/src/apply
	git -C "$src" worktree remove --force "$apply" >/dev/null 2>&1 || rm -rf "$apply"
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$apply" baseline
	apply_series "$apply"
	head=$(git -C "$apply" rev-parse HEAD)
	git -C "$src" worktree remove --force "$apply"
	git -C "$src" checkout -q -f -B mmpreempt "$head"
	echo "$want" >"$src/.git/mmpreempt-series"
fi

echo "$src"
