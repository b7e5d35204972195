#!/bin/sh
# description: each failed allocation in module load fails it cleanly, nothing left
#   every allocation of a load of mmpreempt.ko fails once in
#   turn (fail-nth over failslab and fail_page_alloc, waiting allocations
#   included): each failed load returns an error and leaves neither
#   /sys/module/mmpreempt nor its debugfs folder behind, and the walk ends
#   with a load that works; every forced failure whose stack (read by
#   failnth from /dev/kmsg) is inside mmpreempt_init and fails the load logs
#   "mmpreempt: not loaded: <what> failed". kmemleak finds nothing
#   unreferenced afterwards
#   Allowed reports, 6.1's own answer to an allocation the walk fails: an
#   allocation without __GFP_NOWARN warns (warn_alloc: "page allocation
#   failure", "vmalloc error"), and jump_label_module_notify() WARNs when
#   it cannot allocate for the module's static keys (jump_label.c:784,
#   "jump_label may not work properly"), after which jump_label_del_module()
#   WARNs on the keys it never added (jump_label.c:738 or :750, by where the
#   allocation failed). Neither path is the
#   module's; any other report fails the test.
# allow-splat: page allocation failure: order:
# allow-splat: vmalloc error: size
# allow-splat: WARNING: CPU: [0-9]+ PID: [0-9]+ at kernel/jump_label[.]c:(738|750|784) jump_label_
# requires: CONFIG_FAILSLAB CONFIG_FAIL_PAGE_ALLOC CONFIG_DEBUG_KMEMLEAK mmpreempt.ko failnth
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
# verbose=2: each forced failure logs its stack, which failnth reads from
# /dev/kmsg to tell mmpreempt_init's own allocations from the loader's
fi_set failslab cache-filter=N ignore-gfp-wait=N probability=0 verbose=2
fi_set fail_page_alloc ignore-gfp-wait=N ignore-gfp-highmem=N min-order=0 probability=0 verbose=2
kmemleak_clear

failnth --own mmpreempt_init --message "mmpreempt: not loaded:" load "$MOD" >"$d/walk.out" ||
	{ grep -v ' ok$' "$d/walk.out" | tail -n 20; fail "a load misbehaved (above)"; }
sites=$(sed -n 's/^sites \([0-9]*\)$/\1/p' "$d/walk.out")
[ -n "$sites" ] || fail "the walk did not end"
failed=$(grep -c ' load failed: ' "$d/walk.out" || true)
absorbed=$(grep -c 'absorbed' "$d/walk.out" || true)
own=$(grep -c '\[in mmpreempt_init' "$d/walk.out" || true)
logged=$(grep -c '\[in mmpreempt_init, logged\]' "$d/walk.out" || true)
grep '\[in mmpreempt_init' "$d/walk.out" | sed 's/^nth [0-9]* //' | sort | uniq -c
echo "ok: $sites allocations failed in turn: $failed loads failed cleanly" \
	"($(sed -n 's/.*load failed: \([A-Z]*\).*/\1/p' "$d/walk.out" | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')), $absorbed absorbed the failure and worked"
echo "ok: $own failures inside mmpreempt_init, $logged of them refused the load with a 'mmpreempt: not loaded:' message"
[ "$own" -ge 1 ] || fail "no forced failure hit mmpreempt_init"
! grep 'absorbed.*\[in mmpreempt_init' "$d/walk.out" ||
	fail "mmpreempt_init went on after an allocation of its own failed (above)"
[ "$(cat $DBG/enable)" = 1 ] || fail "the final load did not attach"
unload_module
restore
trap - EXIT
kmemleak_check "after $sites failed loads"
