#!/bin/sh
# description: every allocation of a load of mmpreempt.ko fails once in
#   turn (fail-nth over failslab and fail_page_alloc, waiting allocations
#   included): each failed load returns an error and leaves neither
#   /sys/module/mmpreempt nor its debugfs folder behind, and the walk ends
#   with a load that works. Then, from the last allocation down, with the
#   stack of each forced failure: every failure inside mmpreempt's own init
#   fails the load with a "mmpreempt: not loaded: <what> failed" message.
#   kmemleak finds nothing unreferenced afterwards
# requires: the debug kernel (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC,
#   CONFIG_DEBUG_KMEMLEAK), mmpreempt.ko, failnth
# timeout: 600
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/debug.sh"
need_config CONFIG_FAILSLAB CONFIG_FAIL_PAGE_ALLOC CONFIG_DEBUG_KMEMLEAK
[ -f "$MOD" ] || fail "no $MOD"
unload_module
d=$RES/fi-module-load
mkdir -p "$d"
restore() {
	fi_set failslab ignore-gfp-wait=Y verbose=2
	fi_set fail_page_alloc ignore-gfp-wait=Y ignore-gfp-highmem=Y min-order=1 verbose=2
}
trap restore EXIT
fi_set failslab cache-filter=N ignore-gfp-wait=N probability=0 verbose=0
fi_set fail_page_alloc ignore-gfp-wait=N ignore-gfp-highmem=N min-order=0 probability=0 verbose=0
kmemleak_clear

# 1. every allocation once
failnth load "$MOD" >"$d/walk.out" || { tail -n 20 "$d/walk.out"; fail "a load misbehaved (above)"; }
sites=$(sed -n 's/^sites \([0-9]*\)$/\1/p' "$d/walk.out")
[ -n "$sites" ] || fail "the walk did not end"
failed=$(grep -c ' load failed: ' "$d/walk.out" || true)
absorbed=$(grep -c 'absorbed' "$d/walk.out" || true)
echo "ok: $sites allocations failed in turn: $failed loads failed cleanly" \
	"($(sed -n 's/.*load failed: //p' "$d/walk.out" | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')), $absorbed absorbed the failure and worked"
[ "$(cat $DBG/enable)" = 1 ] || fail "the final load did not attach"
unload_module

# 2. the module's own allocations: from the last one down, each failure's
# stack read, until 8 in a row fall outside the module after one inside
fi_set failslab verbose=2
fi_set fail_page_alloc verbose=2
n=$sites inside=0 outside=0 msgs=0
: >"$d/own"
while [ "$n" -ge 1 ]; do
	from=$(dmesg | wc -l)
	out=$(failnth --first "$n" --only load "$MOD") || fail "step $n misbehaved: $out"
	unload_module
	dmesg | tail -n +$((from + 1)) >/tmp/fi-step.log
	hit=$(fi_hits 0 /tmp/fi-step.log)
	case " $hit " in
	*" mmpreempt_init "*)
		inside=$((inside + 1)) outside=0
		msg=$(grep -o 'mmpreempt: not loaded: .*' /tmp/fi-step.log | head -n 1)
		echo "$n: $out: ${msg:-no message} | $(echo "$hit" | tr ' ' '\n' | grep -E '^(mmp_|mmpreempt_|tracepoint_|debugfs_)' | head -n 3 | tr '\n' ' ')" >>"$d/own"
		case $out in
		*"load failed"*)
			[ -n "$msg" ] || fail "step $n: a failure inside mmpreempt_init failed the load without a message"
			msgs=$((msgs + 1)) ;;
		esac
		;;
	*) [ $inside -ge 1 ] && outside=$((outside + 1)) ;;
	esac
	[ $inside -ge 1 ] && [ $outside -ge 8 ] && break
	n=$((n - 1))
done
cat "$d/own"
[ $inside -ge 1 ] || fail "no forced failure hit mmpreempt_init"
echo "ok: $inside failures inside mmpreempt_init, $msgs loads refused with a message"
restore
trap - EXIT
kmemleak_check "after $sites failed loads"
