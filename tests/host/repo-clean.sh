#!/bin/sh
# description: no build output is tracked or left addable in the repository
#   nothing built lives in the repository: no tracked kernel tree,
#   image, object, module or trace; build/ and results/ are ignored; and no
#   untracked file that git would offer to add (not ignored) is a build
#   output (by name, or an ELF or other binary file). Other untracked files
#   (new sources not yet added) are listed, not failed
# requires: git
. "$TOP/tests/guest/lib/common.sh"
cd "$TOP"
git rev-parse --git-dir >/dev/null 2>&1 || skip "not a git checkout"
bad=$(git ls-files | grep -E '\.(ko|o|a|img|qcow2|dat|deb|cpio)$|bzImage|vmlinu[xz]|^linux-' || true)
[ -z "$bad" ] || fail "tracked build outputs: $bad"
for d in build/x results/x; do
	git check-ignore -q "$d" || fail "$(dirname $d)/ is not git-ignored"
done
big=$(git ls-files -z | xargs -0 -r stat -c '%s %n' 2>/dev/null | awk '$1 > 2097152 { print $2 }')
[ -z "$big" ] || fail "tracked files over 2 MiB: $big"
# Untracked and not ignored: what `git add -A` would commit.
built='\.(ko|o|a|so|mod|mod\.c|cmd|d|order|symvers|img|qcow2|dat|deb|cpio|gz|xz|zst|png|svg|log|tap)$|(^|/)(bzImage|vmlinu[xz]|System\.map)$|^linux-'
list=$(mktemp)
trap 'rm -f "$list"' EXIT
git ls-files --others --exclude-standard >"$list" || fail "git ls-files --others failed"
ubad=""
while IFS= read -r f; do
	if printf '%s\n' "$f" | grep -Eq "$built"; then
		ubad="$ubad $f"
	elif [ -s "$f" ] && ! grep -qI '' "$f"; then
		ubad="$ubad $f"	# binary content: an executable, an image, an archive
	else
		echo "# untracked, not a build output: $f"
	fi
done <"$list"
[ -z "$ubad" ] || fail "untracked build outputs that git would add (ignore them, or build elsewhere):$ubad"
echo "ok: $(git ls-files | wc -l) tracked files, none built; $(wc -l <"$list") untracked, none built"
