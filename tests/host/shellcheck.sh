#!/bin/sh
# description: every shell script of the kit passes shellcheck at warning level
#   Every shell script git tracks or would add (*.sh, and files whose
#   first line is #!/bin/sh: .ci/run, guest/init, guest/rootfs-init) as POSIX sh
#   with shellcheck -S warning: no warning and no error. Two checks are
#   off, because shellcheck reads one file at a time and the kit's
#   scripts share variables through the files they source: SC2034
#   (assigned, unused here) and SC2154 (used, assigned elsewhere). A
#   deliberate exception is a "shellcheck disable=" line saying why
# requires: shellcheck git
# overhead: about 10 s of CPU
. "$TOP/tests/guest/lib/common.sh"
cd "$TOP" || exit 1
list=$(mktemp)
trap 'rm -f "$list"' EXIT
git ls-files -co --exclude-standard | while IFS= read -r f; do
	[ -f "$f" ] || continue
	case $f in
	*.sh) echo "$f" ;;
	*) if [ "$(head -c 9 "$f")" = '#!/bin/sh' ]; then echo "$f"; fi ;;
	esac
done >"$list"
n=$(wc -l <"$list")
[ "$n" -gt 50 ] || fail "only $n shell scripts found: the listing is wrong"
# shellcheck disable=SC2046 # one argument per file; the kit's names have no spaces
out=$(shellcheck -s sh -S warning -e SC2034,SC2154 -f gcc $(cat "$list") 2>&1) ||
	{ echo "$out"; fail "shellcheck: $(echo "$out" | grep -c ': \(warning\|error\):') findings in $n scripts"; }
echo "ok: $n shell scripts, no shellcheck warning or error"
