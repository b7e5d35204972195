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
#   own copy, the evicted root's holds were missing from top. Up to 4
#   tries (in a full .ci/run one paused lookup found room, or only live
#   roots, in its bucket); about 5 s each.
# requires: mmpreempt.ko mmp_inject.ko taskset cpus=2 /bin/true
# debug-ci: skip the module's accounting across a reset is under test, not
#   the kernel: the normal kernel's run shows it
# timeout: 120
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
INJ=/sys/kernel/debug/mmp_inject
cd /tmp || exit 1
cp /bin/true /tmp/pausee
# this shell, the reset and the churn on CPU 1; CPU 0 is the paused one's
taskset -pc 1 $$ >/dev/null || fail "taskset -p 1 $$"
churn() {
	i=0
	while [ $i -lt 20 ]; do /bin/true; i=$((i + 1)); done
}
trap 'rmmod mmp_inject 2>/dev/null || true' EXIT
evicted=0
for try in 1 2 3 4; do
	unload_module
	load_module top_slots=16 top_n=16
	rmmod mmp_inject 2>/dev/null || :
	insmod "$ART/modules/mmp_inject.ko" || fail "insmod mmp_inject.ko failed"
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
	grep -q '^pause paused' $INJ || echo "try $try: the pause ended before the churn did"
	wait $pausee || fail "pausee failed"
	wait $reset || fail "the reset failed"
	state=$(head -n 1 $INJ)
	rmmod mmp_inject
	echo "try $try: mmp_inject: $state"
	case $state in
	"pause done lose_in_pause 0")
		# its root's bucket had room, or held live roots only
		echo "try $try: the paused lookup evicted no entry: again" ;;
	"pause done lose_in_pause "*) evicted=1; break ;;
	*) fail "mmp_inject: $state" ;;
	esac
done
trap - EXIT
[ $evicted = 1 ] || fail "in 4 tries the paused lookup never evicted an entry: nothing was tested"
top_vs_stats mod-top-reset
grep '^# freed roots evicted' "$RES/mod-top-reset-top.txt"
unload_module
echo "measured: the paused lookup evicted in try $try of 4"
echo "ok: the paused probe's eviction went to the new copy's lost line; top equals stats"
