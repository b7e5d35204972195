#!/bin/sh
# description: every make target and variable README.md and HOWTO.md name exists
#   Reads the code spans and code blocks of README.md and HOWTO.md. Each
#   `make TARGET` (after any options and VAR=value) must be a rule of the
#   Makefile (`make -C DIR` or `-f FILE`, another tree's make, is left
#   out), and each `VAR=` (or `VAR` alone in a table
#   row's first cell, as in a table of variables) must be read by the Makefile
#   or by a script it runs, directly or through another script (a script is
#   reached when a reached file names it, or names its folder's *.sh), so the
#   guides cannot name a target or a knob the kit does not have. CONFIG_*
#   options are kernel config, not variables, and are left out.
# requires: awk grep find
. "$TOP/tests/guest/lib/common.sh"
cd "$TOP" || fail "no repository at $TOP"
docs="README.md HOWTO.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "FILE:LINE kind name" for every name the docs use in code: fenced blocks,
# indented blocks (after a blank line) and `spans` (a paragraph at a time,
# since a span may wrap)
awk '
function scan(text, where,   cmds, n, i, c, w, nw, j, s, m) {
	n = split(text, cmds, /;|&&|\|\||\||\n/)
	for (i = 1; i <= n; i++) {
		c = cmds[i]
		if (c ~ /(^|[^A-Za-z0-9_.\/-])make +(-[^ ]* +)*-[Cf]/) continue	# another tree
		s = c
		while (match(s, /(^|[^A-Za-z0-9_.\/-])make +[-A-Za-z][^ ]*/)) {
			m = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/^.*make +/, "", m)
			nw = split(m " " s, w, / +/)
			# options and VAR=value may come before, between and after targets
			for (j = 1; j <= nw; j++)
				if (w[j] ~ /^-/ || w[j] ~ /^[A-Z][A-Z0-9_]*=/)
					continue
				else if (w[j] ~ /^[a-z][a-z0-9-]*$/)
					print where, "target", w[j]
				else
					break
		}
		s = c
		while (match(s, /(^|[^A-Za-z0-9_])[A-Z][A-Z0-9_]*=/)) {
			m = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/^[^A-Z]/, "", m)
			sub(/=$/, "", m)
			if (m !~ /^CONFIG_/)
				print where, "variable", m
		}
	}
}
function flush(   k, n, parts) {
	if (para != "") {
		n = split(para, parts, "`")
		for (k = 2; k <= n; k += 2)
			scan(parts[k], pfile ":" pstart)
	}
	para = ""
}
FNR == 1 { flush(); fence = 0; incode = 0; blank = 1 }
/^```/ { flush(); fence = !fence; next }
fence { scan($0, FILENAME ":" FNR); next }
/^(    |\t)/ && (blank || incode) { flush(); incode = 1; blank = 0; scan($0, FILENAME ":" FNR); next }
/^[ \t]*$/ { flush(); blank = 1; incode = 0; next }
/^\|/ {
	# a table row: a `VAR` alone in its first cell names a variable
	split($0, cells, "|")
	n = split(cells[2], parts, "`")
	for (k = 2; k <= n; k += 2)
		if (parts[k] ~ /^[A-Z][A-Z0-9_]*$/ && parts[k] !~ /^CONFIG_/)
			print FILENAME ":" FNR, "variable", parts[k]
}
{
	incode = 0; blank = 0
	if (para == "") { pfile = FILENAME; pstart = FNR }
	para = para " " $0
}
END { flush() }
' $docs >"$tmp/names" || fail "could not read $docs"

nt=$(awk '$2 == "target"' "$tmp/names" | wc -l)
nv=$(awk '$2 == "variable"' "$tmp/names" | wc -l)
[ "$nt" -gt 0 ] && [ "$nv" -gt 0 ] ||
	fail "found $nt make targets and $nv variables in $docs: the extraction is broken"

# the Makefile's rules
sed -n 's/^\([a-z][a-z0-9 -]*\):\([^=].*\)\{0,1\}$/\1/p' Makefile | tr ' ' '\n' | sed '/^$/d' |
	sort -u >"$tmp/rules"

# the scripts the Makefile runs, and the scripts they run, to a fixed point
find guest record tests bench report recipes -type f \( -name '*.sh' -o -name '*.awk' \) | sort >"$tmp/cands"
echo Makefile >"$tmp/reached"
cp "$tmp/reached" "$tmp/new"
while [ -s "$tmp/new" ]; do
	: >"$tmp/next"
	while IFS= read -r c; do
		grep -qxF "$c" "$tmp/reached" && continue
		if xargs grep -qF -e "$(basename "$c")" -e "$(dirname "$c")/*.sh" <"$tmp/new" 2>/dev/null; then
			echo "$c" >>"$tmp/next"
		fi
	done <"$tmp/cands"
	cat "$tmp/next" >>"$tmp/reached"
	mv "$tmp/next" "$tmp/new"
done
echo "ok: $(wc -l <"$tmp/reached") files reached from the Makefile"

bad=""
for t in $(awk '$2 == "target" { print $3 }' "$tmp/names" | sort -u); do
	if grep -qxF "$t" "$tmp/rules"; then
		echo "ok: make $t is a Makefile target"
	else
		bad="$bad
  make $t: no such target in the Makefile ($(awk -v t="$t" '$2 == "target" && $3 == t { print $1 }' "$tmp/names" | sort -u | xargs))"
	fi
done
for v in $(awk '$2 == "variable" { print $3 }' "$tmp/names" | sort -u); do
	if xargs grep -qE "\\\$\\{?$v([^A-Za-z0-9_]|\$)|\\\$\\($v\\)|^$v *\\?=|value $v\\)" <"$tmp/reached"; then
		echo "ok: $v is read by the Makefile or a script it runs"
	else
		bad="$bad
  $v: read by neither the Makefile nor a script it runs ($(awk -v v="$v" '$2 == "variable" && $3 == v { print $1 }' "$tmp/names" | sort -u | xargs))"
	fi
done
[ -z "$bad" ] || fail "$docs name what the kit does not have:$bad"
echo "ok: $(awk '$2 == "target" { print $3 }' "$tmp/names" | sort -u | wc -l) targets and" \
	"$(awk '$2 == "variable" { print $3 }' "$tmp/names" | sort -u | wc -l) variables named in $docs exist"
