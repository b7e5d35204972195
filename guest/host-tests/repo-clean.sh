#!/bin/sh
# description: nothing built lives in the repository: no tracked kernel tree,
#   image, object, module or trace, and build/ and results/ are ignored
# requires: git
. "$TOP/guest/tests/lib/common.sh"
cd "$TOP"
git rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
bad=$(git ls-files | grep -E '\.(ko|o|a|img|qcow2|dat|deb|cpio)$|bzImage|vmlinu[xz]|^linux-' || true)
[ -z "$bad" ] || fail "tracked build outputs: $bad"
for d in build/x results/x; do
	git check-ignore -q "$d" || fail "$(dirname $d)/ is not git-ignored"
done
big=$(git ls-files -z | xargs -0 -r stat -c '%s %n' 2>/dev/null | awk '$1 > 2097152 { print $2 }')
[ -z "$big" ] || fail "tracked files over 2 MiB: $big"
echo "ok: $(git ls-files | wc -l) tracked files, none built"
