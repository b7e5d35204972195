#!/bin/sh
# description: make help lists every target in aligned form, demo and test first
#   make help lists every target of the Makefile, each on a
#   line of its own in the aligned "  target - what it does" form, demo and
#   test first, and names the suite's last line "N passed, N failed, N skipped"
# requires: make
. "$TOP/tests/guest/lib/common.sh"
help=$(make -s -C "$TOP" --no-print-directory help) || fail "make help failed"
missing=""
for t in $(sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' "$TOP/Makefile" | grep -vx help); do
	printf '%s\n' "$help" | grep -Eq "^  $t( CMD=\\.\\.\\.)? +- " || missing="$missing $t"
done
[ -z "$missing" ] || fail "make help does not list:$missing"
expect "the first two targets listed" \
	"$(printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z0-9-]*\).* - .*/\1/p' | head -n 2 | xargs)" "demo test"
printf '%s\n' "$help" | grep -q 'N passed, N failed, N skipped' || fail "make help does not name the suite's last line"
echo "ok: make help lists all $(sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' "$TOP/Makefile" | grep -vxc help) targets"
