#!/bin/sh
# description: kmemleak finds no unreferenced object after the whole suite
#   after the whole suite, kmemleak finds no unreferenced
#   object: nothing the series, the module, the test modules or the
#   workloads made the kernel allocate was leaked (the suite's last test)
# requires: CONFIG_DEBUG_KMEMLEAK
# order: last
# timeout: 240
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/debug.sh"
need_config CONFIG_DEBUG_KMEMLEAK
[ -w "$KMEMLEAK" ] || fail "no $KMEMLEAK (kmemleak disabled at boot?)"
kmemleak_check "the whole suite"
