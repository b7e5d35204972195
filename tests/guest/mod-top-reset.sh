#!/bin/sh
# description: an eviction inside a probe that a reset overtakes loses nothing
#   A probe that began before a reset writes the old statistics copy; if
#   it then evicts a dead root's entry to make room, the sums other CPUs
#   gave that root since the reset are in the new copy only, and must go
#   to the new copy's lost line. mmp_inject.ko (test only) holds such a
#   probe open: the first top lookup of a fresh program (a copy of true
#   named pausee, on CPU 0) spins 3 s; meanwhile, on CPU 1, a reset swaps
#   the copies (and then waits for the probe) and 20 runs of true fill
#   top_slots=16 with roots that are used and freed in the new copy. The
#   paused lookup must evict (mmp_inject counts top_lose() calls in it:
#   none means nothing was tested), and top's rows plus its lost line must
#   equal the stats afterwards. With the lost sums read from the probe's
#   own copy, the evicted root's holds were missing from top. About 5 s.
# requires: mmpreempt.ko mmp_inject.ko taskset cpus=2 /bin/true
# debug-ci: skip the module's accounting across a reset is under test, not
#   the kernel: the normal kernel's run shows it
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
INJ=/sys/kernel/debug/mmp_inject
unload_module
load_module top_slots=16 top_n=16
rmmod mmp_inject 2>/dev/null || :
insmod "$ART/modules/mmp_inject.ko" || fail "insmod mmp_inject.ko failed"
trap 'rmmod mmp_inject 2>/dev/null || true' EXIT
cd /tmp || exit 1
cp /bin/true /tmp/pausee
# this shell, the reset and the churn on CPU 1; CPU 0 is the paused one's
taskset -pc 1 $$ >/dev/null || fail "taskset -p 1 $$"
churn() {
	i=0
	while [ $i -lt 20 ]; do /bin/true; i=$((i + 1)); done
}
churn
echo "pause pausee 3000" >$INJ || fail "mmp_inject refused pause"
taskset -c 0 /tmp/pausee &
pausee=$!
n=0
until grep -q '^pause paused' $INJ; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "pausee never paused: $(cat $INJ)"; sleep 0.02
done
echo 1 >>$DBG/reset &
reset=$!
sleep 0.3	# the reset's swap is done: it waits for the paused probe now
kill -0 $reset 2>/dev/null || fail "the reset returned while a probe was paused"
churn
grep -q '^pause paused' $INJ || fail "the pause ended before the churn did: $(cat $INJ)"
wait $pausee || fail "pausee failed"
wait $reset || fail "the reset failed"
state=$(head -n 1 $INJ)
echo "mmp_inject: $state"
rmmod mmp_inject
trap - EXIT
case $state in
"pause done lose_in_pause 0") fail "the paused lookup evicted no entry: nothing was tested" ;;
"pause done lose_in_pause "*) ;;
*) fail "mmp_inject: $state" ;;
esac
top_vs_stats mod-top-reset
grep '^# freed roots evicted' "$RES/mod-top-reset-top.txt"
unload_module
echo "ok: the paused probe's eviction went to the new copy's lost line; top equals stats"
