#!/bin/sh
# description: the module's clock arithmetic in user space: backwards, long, capped
#   module/clock.c and mmpreempt.h's mmp_elapsed(), compiled on
#   the host with stubs for their kernel surroundings
#   (tests/host/lib/kstub.h, clock-model.c), on what no guest run can
#   produce: an end before its start reads 0 and is counted in
#   clock.backwards; intervals at fast_max take the 64-bit product, past
#   it the 128-bit one, with the same result; ns past S64_MAX are capped;
#   for the ktime factor and TSC factors of 2 GHz and 250 MHz. (The guest
#   tests a 5 s hold end to end: mod-hold-time.) Under a second
# requires: gcc
. "$TOP/tests/guest/lib/common.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/linux"
for h in bitops clocksource hash jump_label math64 mutex percpu seqlock sched time64 \
	timekeeping types; do
	: >"$t/linux/$h.h"
done
gcc -O2 -Wall -Wextra -Werror -Wno-unused-function -Wno-unused-parameter -include "$TOP/tests/host/lib/kstub.h" \
	-I"$t" -o "$t/clock-model" "$TOP/tests/host/lib/clock-model.c" ||
	fail "the model does not compile against module/clock.c"
"$t/clock-model" || fail "the module's clock arithmetic is wrong (above)"
