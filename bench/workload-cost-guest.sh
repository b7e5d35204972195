#!/bin/sh
# The guest half of bench/workload-cost.sh (see there). POSIX sh.
# Prints one line per (tool, workload, run): "run TOOL WORKLOAD NS", then
# "tool TOOL ..." lines saying what each tool saw, for the host half.
set -eu
DBG=/sys/kernel/debug
TR=/sys/kernel/tracing
B=/tmp/bench-bin	# tmpfs: no host I/O in the timed part
mkdir -p $B
for w in benchtime forktree unmap mix filemap migrate; do cp /mnt/art/bin/$w $B/; done
MOD=/mnt/art/mmpreempt.ko
R=${RUNS:-3}	# runs per attach, under one benchtime, after one to warm up
# STRICT=1 (icount, one vCPU): a run in which the CPU idled is rerun
STRICT=$([ "${STRICT:-0}" = 1 ] && echo --strict || :)
cd /tmp

# The workloads, sized to 30-300 ms of guest time each. mix leaves out ksm
# (ksmd scans on a timer: idle time, not instructions) and alllocks (it runs
# only while mmpreempt.ko is loaded: the tools would not run the same work).
wl_forktree() { echo "$B/forktree --depth 2 --width 3 --mib 4"; }
wl_unmap() { echo "$B/unmap --mib 64"; }
wl_mix() { echo "$B/mix --skip ksm,alllocks"; }

# bench WORKLOAD TOOL [WRAPPER...]: R timed runs, as "run" lines
bench() {
	w=$1 t=$2
	shift 2
	sync
	# shellcheck disable=SC2046 # wl_W prints the command line, split on purpose
	"$@" $B/benchtime --rounds $((R + 1)) $STRICT -- $(wl_$w) >/tmp/bt.$$ ||
		{ echo "workload-cost: $w under $t failed" >&2; exit 1; }
	# the first run of each attach warms up (about 1 % slower): not counted
	awk -v t="$t" -v w="$w" '$1 == "benchtime:" && ++n > 1 { print "run", t, w, $2 }' /tmp/bt.$$
}

# stop_tool PID NAME: SIGINT, then at most 60 s for the tool to exit.
# One that does not is named with its kernel stacks on stderr (in
# bench-smoke's log) and killed: a tracer stuck in its teardown was seen
# twice in eight bench-smoke runs, cause not yet known, and an unbounded
# wait had turned that into the test's 600 s timeout with nothing to read.
stop_tool() {
	kill -INT "$1"
	_n=0
	while kill -0 "$1" 2>/dev/null && [ $_n -lt 300 ]; do sleep 0.2; _n=$((_n + 1)); done
	if kill -0 "$1" 2>/dev/null; then
		echo "workload-cost: $2 did not exit within 60 s of SIGINT: killed; its state:" >&2
		for _t in /proc/"$1"/task/*; do
			echo "task ${_t##*/}: $(awk '{ print $3 }' "$_t/stat" 2>/dev/null) $(cat "$_t/wchan" 2>/dev/null)" >&2
			cat "$_t/stack" >&2 2>/dev/null || :
		done
		kill -KILL "$1"
		# a task stuck in the kernel outlives SIGKILL: never wait for it
		_n=0
		while kill -0 "$1" 2>/dev/null && [ $_n -lt 50 ]; do sleep 0.2; _n=$((_n + 1)); done
		kill -0 "$1" 2>/dev/null && { echo "workload-cost: $2 survived SIGKILL: left running" >&2; return 0; }
	fi
	wait "$1" || :
}

# wait_for FILE PATTERN PID: until the tool says it has attached
# (at most 120 s: a tool that never says so fails the run, named)
wait_for() {
	_n=0
	until grep -q "$2" "$1"; do
		kill -0 "$3" 2>/dev/null || { echo "workload-cost: the tool died:" >&2; cat "$1" >&2; exit 1; }
		_n=$((_n + 1))
		[ $_n -le 600 ] || { echo "workload-cost: no '$2' from the tool in 120 s:" >&2; cat "$1" >&2; kill -KILL "$3"; exit 1; }
		sleep 0.2
	done
}

# One tool, attached around one workload's runs; each says what it saw.
with_none() { bench "$1" none; }
with_timed() {
	insmod $MOD
	bench "$1" timed
	echo "tool timed $1 $(awk '$1 ~ /^events\.(anon_vma|i_mmap|mmu_gather|mm_all_locks)/ { s += $2 } END { print s + 0 }' $DBG/mmpreempt/stats) events"
	rmmod mmpreempt
}
with_counting() {
	insmod $MOD mode=counting
	bench "$1" counting
	echo "tool counting $1 $(awk '$1 ~ /^events\.(anon_vma|i_mmap|mmu_gather|mm_all_locks)/ { s += $2 } END { print s + 0 }' $DBG/mmpreempt/stats) events"
	rmmod mmpreempt
}
# trace-cmd record of the four systems, its reader writing to tmpfs
with_ringbuf() {
	rm -f /tmp/wc.dat
	trace-cmd record -C mono -b 8192 -o /tmp/wc.dat -e anon_vma -e i_mmap \
		-e mmu_gather -e mm_all_locks >/tmp/tc.out 2>&1 &
	p=$!
	# (its stdout is a file, so buffered: watch tracefs instead)
	until [ "$(cat $TR/tracing_on)" = 1 ] && [ -n "$(head -c 1 $TR/set_event)" ]; do
		kill -0 $p 2>/dev/null || { echo "workload-cost: trace-cmd died:" >&2; cat /tmp/tc.out >&2; exit 1; }
		sleep 0.2
	done
	bench "$1" ringbuf
	stop_tool $p trace-cmd
	echo "tool ringbuf $1 $(trace-cmd report -i /tmp/wc.dat 2>/dev/null | grep -c ': \(anon_vma\|i_mmap\|mmu_gather\|mm_all_locks\)_') events"
	rm -f /tmp/wc.dat*
}
# the hold-time histogram from ftrace hist triggers (recipes/)
with_hist() {
	bench "$1" hist sh /mnt/repo/recipes/anon_vma_hold_hist.sh --
	echo "tool hist $1 $(awk '$1 == "Hits:" { s += $2 } END { print s + 0 }' /tmp/bt.$$) holds"
}
# a bpftrace tool of bpf-scripts/, NAME.bt: anon_vma_lat computes the
# module's histograms; the rest are the kit's other views
with_bt() {
	: >/tmp/bpf.out
	bpftrace -B line /mnt/repo/bpf-scripts/$1.bt >/tmp/bpf.out 2>&1 &
	p=$!
	wait_for /tmp/bpf.out '^Tracing' $p
	bench "$2" "bt:$1"
	stop_tool $p "bpftrace $1.bt"
	[ "$1" = anon_vma_lat ] &&
		echo "tool bt:$1 $2 $(awk '/^@released\[/ { s += $NF } END { print s + 0 }' /tmp/bpf.out) releases"
	:
}
# perf lock: the kernel's lock:contention_begin/end tracepoints, recorded;
# Debian's linux-perf 6.1 is built without BUILD_BPF_SKEL, so no -b
with_perflock() {
	rm -f /tmp/perf.data
	bench "$1" perflock perf lock record -o /tmp/perf.data --
	echo "tool perflock $1 $(perf script -i /tmp/perf.data 2>/dev/null | grep -c 'lock:contention_begin') contentions"
	rm -f /tmp/perf.data*
}
# LOCK_STAT (the lockstat kernel): none is lock_stat=0 there
with_lockstat() {
	echo 0 >/proc/lock_stat	# clears
	echo 1 >/proc/sys/kernel/lock_stat
	bench "$1" lockstat
	echo 0 >/proc/sys/kernel/lock_stat
	# /proc/lock_stat: "class-R:  con-bounces contentions ... acquisitions ..."
	echo "tool lockstat $1 $(awk '/(anon_vma->rwsem|i_mmap_rwsem)-[RW]:/ { c += $3 } END { print c + 0 }' /proc/lock_stat) contentions of the anon_vma and i_mmap rwsems"
}

if [ -e /proc/lock_stat ]; then
	TOOLS=${TOOLS:-none lockstat}
	echo 0 >/proc/sys/kernel/lock_stat
else
	TOOLS=${TOOLS:-none timed counting ringbuf hist perflock $(cd /mnt/repo/bpf-scripts && ls *.bt | sed 's/^/bt:/; s/\.bt$//' | tr '\n' ' ')}
fi
command -v perf >/dev/null && perf version >/dev/null 2>&1 ||
	{ TOOLS=$(echo " $TOOLS " | sed 's/ perflock / /'); echo "skip perflock: perf (linux-perf) is not in this guest"; }
if [ -n "$STRICT" ]; then
	echo "units: ms of guest time under icount (= instructions / 1e6); a run in which the CPU idled was rerun"
else
	echo "units: ms of wall time in this guest (no icount: not instruction counts)"
fi
for w in ${WORKLOADS:-forktree unmap mix}; do echo "workload $w: $(wl_$w | sed "s|$B/||g")"; done
echo "runs_per_attach $R rounds ${ROUNDS} tools $TOOLS"
for w in ${WORKLOADS:-forktree unmap mix}; do
	# shellcheck disable=SC2091 # wl_W prints the command line: run it
	$(wl_$w) >/dev/null	# warm: page cache, slabs
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		for t in $TOOLS; do
			case $t in
			bt:*) with_bt "${t#bt:}" "$w" ;;
			*) with_$t "$w" ;;
			esac
		done
		r=$((r + 1))
	done
done
