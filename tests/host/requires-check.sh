#!/bin/sh
# description: the runners' "# requires:" check (tests/requires.sh) tells
#   met from unmet for every kind of token
#   Runs requires_unmet over made-up test headers against a made-up ART,
#   kernel config and PATH: each kind of token met passes, each unmet one
#   fails or skips as documented (a missing module, command or file fails;
#   a config option, CPU or NUMA count skips), a token on a continuation
#   line counts, and prose ("2 NUMA nodes") is refused rather than passed;
#   and every test of the suite has a one-line summary first and
#   requires tokens of known kinds. The guest test template
#   (tests/guest/template) carries a line for every header key the runners
#   read, and no other; a guest test uses no key they do not read
# requires: sh
# overhead: none (no boot; well under a second)
. "$TOP/tests/guest/lib/common.sh"
. "$TOP/tests/requires.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/art/modules"
: >"$tmp/art/mmpreempt.ko"
: >"$tmp/art/modules/lock_hold.ko"
printf 'CONFIG_KSM=y\nCONFIG_TEST_HMM=m\n# CONFIG_FAILSLAB is not set\n' >"$tmp/config"
_req_config=$tmp/config
ART=$tmp/art
n=0 bad=0
# case WANT REQUIRES-LINES: WANT is ok, fail or skip
case_() {
	n=$((n + 1))
	printf '#!/bin/sh\n# description: fixture\n%s\n. lib\n' "$2" >"$tmp/t.sh"
	got=ok
	if out=$(requires_unmet "$tmp/t.sh"); then :; else got=${out%% *}; fi
	if [ "$got" = "$1" ]; then
		echo "ok: $1: $(echo "$2" | tr '\n' ' ')${out:+ -> $out}"
	else
		echo "not ok: want $1, got $got: $(echo "$2" | tr '\n' ' ')${out:+ -> $out}"
		bad=$((bad + 1))
	fi
}
case_ ok "# requires:"
case_ ok "# requires: sh awk"
case_ ok "# requires: sh, awk"
case_ fail "# requires: sh no-such-command-here"
case_ fail "$(printf '# requires: sh\n#   no-such-command-here')"
case_ ok "$(printf '# requires: sh\n# timeout: 5\n#   not-a-requirement-line')"
case_ ok "# requires: mmpreempt.ko lock_hold.ko"
case_ fail "# requires: mmpreempt.ko event_bench.ko"
case_ ok "# requires: CONFIG_KSM CONFIG_TEST_HMM"
case_ ok "# requires: CONFIG_TEST_HMM=m"
case_ skip "# requires: CONFIG_TEST_HMM=y"
case_ skip "# requires: CONFIG_FAILSLAB"
case_ skip "# requires: CONFIG_NOT_IN_THE_FILE"
# as many as this host has: counted apart from the checker, from the
# online list ("0", "0-1", "0,2-3"), so that a checker that reads 0 fails
nodes=$(awk -F, '{ for (i = 1; i <= NF; i++) { k = split($i, r, "-"); c += k == 2 ? r[2] - r[1] + 1 : 1 } }
	END { print c + 0 }' /sys/devices/system/node/online 2>/dev/null || echo 0)
[ "$nodes" -ge 1 ] || echo "# this host shows no NUMA node: nodes= is checked against 0 only"
case_ ok "# requires: cpus=$(nproc) nodes=$nodes"
case_ skip "# requires: cpus=$(($(nproc) + 1))"
case_ skip "# requires: nodes=$((nodes + 1))"
case_ skip "# requires: cpus=4096"
case_ skip "# requires: nodes=4096"
case_ ok "# requires: /"
case_ fail "# requires: /no/such/file"
case_ fail "# requires: 2 NUMA nodes"
case_ fail "# requires: tracepoints/EVENTS.md"
case_ fail "# requires: perl (JSON::PP)"
case_ fail "# requires: cpus=2x"
case_ fail "# requires: nodes="
case_ fail "# requires: no-such-* sh"
# a skip comes before nothing: the first unmet token decides
case_ fail "# requires: no-such-command-here CONFIG_FAILSLAB"
[ "$bad" -eq 0 ] || fail "$bad of $n cases wrong"
echo "ok: $n cases"
# Every test of the suite: its header's first line is the one-line
# "# description:" and each of its requires tokens is of a known kind
# (whether a guest command exists only the guest can tell).
lint=0
for t in "$TOP"/tests/guest/*.sh "$TOP"/tests/host/*.sh "$TOP"/tests/guest/template; do
	name=${t#"$TOP"/tests/}
	sed -n 2p "$t" | grep -q '^# description: .' || { echo "not ok: $name: line 2 is not '# description: SUMMARY'"; lint=$((lint + 1)); }
	[ "$(sed -n 2p "$t" | wc -c)" -le 91 ] || { echo "not ok: $name: its summary line is over 90 columns"; lint=$((lint + 1)); }
	grep -q '^# requires:' "$t" || { echo "not ok: $name: no '# requires:' line"; lint=$((lint + 1)); }
	set -f
	for tok in $(requires_tokens "$t"); do
		k=$(requires_kind "$tok")
		# a token only the other side can check: the guest has no CACHE,
		# and a host test would read the host's own kernel and CPUs
		case $name:$k in
		guest/*:unknown | guest/*:cache | host/*:unknown | host/*:config | host/*:cpus | host/*:nodes)
			echo "not ok: $name: requires '$tok': not a token a ${name%%/*} test can use ($k)"
			lint=$((lint + 1)) ;;
		esac
	done
	set +f
done
[ "$lint" -eq 0 ] || fail "$lint header defects in the suite's tests"
echo "ok: every test's header: a one-line description, requires tokens of known kinds"

# The header keys: those the runners read (each "^# KEY:" pattern in their
# code) against the template's lines and the guest tests' headers, so that
# a key a runner starts reading arrives with its line in the template, and
# a misspelt key ("# timout:", read by nothing) fails here.
tpl=$TOP/tests/guest/template
[ -f "$tpl" ] || fail "no tests/guest/template"
# header_keys FILE...: the "# KEY:" keys of each FILE's header (the comment
# lines from line 2 on), one "FILE KEY" a line
header_keys() {
	for _f in "$@"; do
		awk -v f="${_f#"$TOP"/tests/}" 'FNR > 1 && !/^#/ { exit }
			FNR > 1 && /^# [A-Za-z][A-Za-z_-]*:/ { sub(/^# /, ""); sub(/:.*/, ""); print f, $0 }' "$_f"
	done
}
read_keys=$(grep -ho '\^# [a-z][a-z-]*:' "$TOP/tests/ktap.sh" "$TOP/tests/requires.sh" \
	"$TOP/tests/test.sh" "$TOP/tests/boot-suite.sh" "$TOP/tests/host/requires-check.sh" |
	sed 's/^\^# //; s/:$//' | sort -u)
# the runners' code as read above names these six today: not fewer
[ "$(echo "$read_keys" | wc -l)" -ge 6 ] || fail "the runners read only these header keys: $(echo $read_keys): the scan is wrong"
tpl_keys=$(header_keys "$tpl" | awk '{ print $2 }' | sort)
keys=0
for k in $read_keys; do
	keys=$((keys + 1))
	echo "$tpl_keys" | grep -qx -- "$k" ||
		{ echo "not ok: the runners read '# $k:' and tests/guest/template has no such line"; lint=$((lint + 1)); }
done
for k in $tpl_keys; do
	echo "$read_keys" | grep -qx -- "$k" ||
		{ echo "not ok: tests/guest/template has '# $k:', which no runner reads"; lint=$((lint + 1)); }
done
[ -z "$(echo "$tpl_keys" | uniq -d)" ] ||
	{ echo "not ok: tests/guest/template has more than one line for: $(echo "$tpl_keys" | uniq -d | tr '\n' ' ')"; lint=$((lint + 1)); }
unread=$(header_keys "$TOP"/tests/guest/*.sh | while read -r f k; do
	echo "$read_keys" | grep -qx -- "$k" || echo "$f: '# $k:'"
done)
[ -z "$unread" ] || { echo "not ok: header keys no runner reads: $unread"; lint=$((lint + 1)); }
[ "$lint" -eq 0 ] || fail "$lint header key defects"
echo "ok: the template has a line for each of the $keys header keys the runners read ($(echo $read_keys)), and the guest tests use no other"
