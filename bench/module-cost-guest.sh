#!/bin/sh
# The guest half of bench/module-cost.sh (see there). POSIX sh.
set -eu
DBG=/sys/kernel/debug
EV=/sys/kernel/tracing/events/anon_vma
N=${N:-100000}
MOD=${MOD:-/mnt/art/mmpreempt.ko}
# the lifecycle rows: forks of a process with ROOTS roots alive, 4 x the
# 16 slots of top_slots=16, so that top's table is full of live roots
ROOTS=64 FORKS=${FORKS:-200}
[ -e $DBG/event_bench ] || insmod /mnt/art/modules/event_bench.ko
[ -d $DBG/mmpreempt ] && rmmod mmpreempt
run() { echo "$N" >$DBG/event_bench; cat $DBG/event_bench; }
# the interleaved loop (two locks a round, 64 roots in turn: event_bench.c),
# N / 2 rounds of 6 events, so as many events as run()
run_il() { echo $((N / 2)) >$DBG/event_bench_interleaved; cat $DBG/event_bench_interleaved; }
# with_module NAME PARAMS...: one run with mmpreempt.ko loaded so, added to
# the total of NAME; the module's own counters must equal the events fired
with_module() {
	name=$1
	shift
	insmod $MOD "$@"
	t=$(run)
	fired=$N
	if [ "$name" = timed ]; then
		ti=$((ti + $(run_il)))
		fired=$((N + N / 2 * 2))
	fi
	got=$(awk '$1 == "events.anon_vma_lock_released" { print $2 }' $DBG/mmpreempt/stats)
	[ "$got" -ge "$fired" ] || { echo "module $*: counted $got of the $fired releases fired" >&2; exit 1; }
	untracked=$((untracked + $(awk '$1 ~ /^holds.untracked/ { s += $2 } END { print s + 0 }' $DBG/mmpreempt/stats)))
	clock=$(awk '$1 == "clock.tsc" { print $2 ? "tsc" : "mono_fast" }' $DBG/mmpreempt/stats)
	rmmod mmpreempt
	eval "$name=\$((\$$name + t))"
}
# The same hold histogram from ftrace hist triggers (recipes/): its count of
# holds must reach the N fired
with_hist() {
	sh /mnt/repo/recipes/anon_vma_hold_hist.sh -- sh -c "echo $N >$DBG/event_bench" >/tmp/hist.out
	got=$(awk '$1 == "Hits:" { print $2 }' /tmp/hist.out)
	[ "${got:-0}" -ge "$N" ] || { echo "hist triggers: $got holds of the $N fired" >&2; exit 1; }
	hist=$((hist + $(cat $DBG/event_bench)))
}
# bpf-scripts/anon_vma_lat.bt, the kit's bpftrace tool for the same
# histograms; timed only once it has attached
with_bpftrace() {
	: >/tmp/bt.out
	bpftrace -B line /mnt/repo/bpf-scripts/anon_vma_lat.bt >/tmp/bt.out 2>&1 &
	p=$!
	until grep -q '^Tracing' /tmp/bt.out; do
		kill -0 $p 2>/dev/null || { echo "bpftrace died:" >&2; cat /tmp/bt.out >&2; exit 1; }
		sleep 0.2
	done
	bt=$((bt + $(run)))
	kill -INT $p
	wait $p || :
	got=$(awk '/^@released\[anon_vma, write\]:/ { print $NF }' /tmp/bt.out)
	[ "${got:-0}" -ge "$N" ] || { echo "bpftrace: $got write releases of the $N fired" >&2; exit 1; }
}
# forks PARAMS...: FORKS forks of alllocks' ROOTS roots, with mmpreempt.ko
# loaded with PARAMS (none: not loaded); the ns per fork
forks() {
	[ $# -gt 0 ] && insmod $MOD "$@"
	f=$(alllocks --roots $ROOTS --files 0 --forks "$FORKS" | sed -n 's/.* \([0-9]*\) ns per fork$/\1/p')
	[ $# -gt 0 ] && rmmod mmpreempt
	[ -n "$f" ] || { echo "alllocks --forks printed no figure" >&2; exit 1; }
	echo "$f"
}
off=0 offi=0 ti=0 timed=0 notop=0 counting=0 ft=0 hist=0 bt=0 r=0 untracked=0
lf_off=0 lf_count=0 lf_timed=0 lf_notop=0 timedtsc=0
# clock=tsc: the TSC forced where the CPU does not say invariant (TCG);
# a row only where the kernel trusts the TSC at all
tsc_ok=0
if insmod $MOD clock=tsc 2>/dev/null; then
	rmmod mmpreempt
	tsc_ok=1
fi
BPFTRACE=${BPFTRACE:-1}
while [ $r -lt "$ROUNDS" ]; do
	off=$((off + $(run)))
	offi=$((offi + $(run_il)))
	with_module timed
	auto_clock=$clock
	[ $tsc_ok = 1 ] && with_module timedtsc clock=tsc
	with_module notop top=0
	with_module counting mode=counting
	for e in anon_vma_lock_start anon_vma_lock_acquired anon_vma_lock_released; do
		echo 1 >$EV/$e/enable
	done
	ft=$((ft + $(run)))
	for e in anon_vma_lock_start anon_vma_lock_acquired anon_vma_lock_released; do
		echo 0 >$EV/$e/enable
	done
	with_hist
	[ "$BPFTRACE" = 1 ] && with_bpftrace
	lf_off=$((lf_off + $(forks)))
	lf_count=$((lf_count + $(forks mode=counting)))
	lf_timed=$((lf_timed + $(forks top_slots=16 top_n=16)))
	lf_notop=$((lf_notop + $(forks top=0)))
	r=$((r + 1))
done
ev=$((3 * N * ROUNDS))
evi=$((6 * (N / 2) * ROUNDS))
echo "rounds $ROUNDS x $N x 3 anon_vma lock events (start, acquired contended, released), fired from a loop with preemption off"
echo "interleaved rows: $((N / 2)) rounds of two locks on roots not used the round before (start, start, acquired, acquired, released, released), so 3 of 4 slot lookups and every per-root sum miss the CPU's last: the probes' out-of-line paths"
# module-cost.sh boots with icount and says so; anywhere else these are ns
echo "units: ${UNITS:-guest ns per event (no icount: wall time of this guest, not instruction counts)}; module clock (clock=auto): $auto_clock"
[ $tsc_ok = 1 ] || echo "clock=tsc: refused here (the kernel does not trust the TSC): no row"
awk -v tt="$timedtsc" -v tsc_ok=$tsc_ok -v off="$off" -v t="$timed" -v nt="$notop" -v c="$counting" -v ft="$ft" -v hi="$hist" \
	-v bt="$bt" -v btr="$BPFTRACE" -v ev="$ev" -v offi="$offi" -v ti="$ti" -v evi="$evi" 'BEGIN {
	printf "%-40s %9s %9s %12s\n", "configuration", "per_event", "above_off", "x_timed"
	printf "%-40s %9.1f %9s %12s\n", "events off (static branch + loop)", off / ev, "-", "-"
	row("mmpreempt.ko mode=timed (default)", t)
	if (tsc_ok)
		row("mmpreempt.ko mode=timed clock=tsc", tt)
	row("mmpreempt.ko mode=timed top=0", nt)
	row("mmpreempt.ko mode=counting", c)
	printf "%-40s %9.1f %9s %12s\n", "events off, interleaved", offi / evi, "-", "-"
	printf "%-40s %9.1f %9.1f %12s\n", "mmpreempt.ko mode=timed, interleaved", ti / evi, (ti - offi) / evi, "-"
	row("ftrace ring buffer", ft)
	row("ftrace hist triggers (recipes/)", hi)
	if (btr == 1)
		row("bpftrace bpf-scripts/anon_vma_lat.bt", bt)
}
function row(name, v) {
	printf "%-40s %9.1f %9.1f %12.2f\n", name, v / ev, (v - off) / ev, (v - off) / (t - off)
}'
echo "x_timed: cost above off as a multiple of mode=timed's"
# each fork: ROOTS anon_vmas born, attached and (at the child's exit) freed
# under ROOTS live roots, with the anon_vma_fork() and exit lock events
awk -v off="$lf_off" -v c="$lf_count" -v t="$lf_timed" -v nt="$lf_notop" -v r="$ROUNDS" -v roots=$ROOTS -v forks="$FORKS" 'BEGIN {
	printf "lifecycle: %d forks of a process with %d roots alive, mean of %d rounds, per fork (per anon_vma born)\n", forks, roots, r
	printf "%-40s %9.0f %9s\n", "lifecycle: events off", off / r, "-"
	printf "%-40s %9.0f %9.0f (%.0f per anon_vma)\n", "lifecycle: mode=counting", c / r, (c - off) / r, (c - off) / r / roots
	printf "%-40s %9.0f %9.0f (%.0f per anon_vma)\n", "lifecycle: mode=timed top=0", nt / r, (nt - off) / r, (nt - off) / r / roots
	printf "%-40s %9.0f %9.0f (%.0f per anon_vma)\n", "lifecycle: mode=timed top_slots=16", t / r, (t - off) / r, (t - off) / r / roots
	printf "lifecycle: top'"'"'s share (timed top_slots=16 - timed top=0): %.0f per fork, %.0f per anon_vma\n", (t - nt) / r, (t - nt) / r / roots
}'
echo "holds untracked during the module runs: $untracked"
# perf lock contention -b would take the BPF way to the contention events,
# but those are the kernel's lock:contention_* tracepoints, which the
# synthetic anon_vma events fired here are not; bench/workload-cost.sh
# measures perf lock record on real workloads.
if ! command -v perf >/dev/null; then
	echo "# perf lock contention -b: not measured: no perf (linux-perf) in this guest"
elif perf lock contention -h 2>&1 | grep -q 'no BUILD_BPF_SKEL'; then
	echo "# perf lock contention -b: not measured: Debian's linux-perf $(dpkg-query -W -f='${Version}' linux-perf) is built without BUILD_BPF_SKEL (perf lock contention -h says so)"
else
	echo "# perf lock contention -b: not measured here: it watches lock:contention_*, which event_bench does not fire"
fi
