#!/bin/sh
# record-guest.sh: the in-guest half of `make record`. Reads what to run
# from $OUT/record.args (line 1 workload, 2 its arguments, 3 trace events,
# 4 bpftrace tools), then:
#   1. loads mmpreempt.ko and starts the bpftrace tools, each into
#      $OUT/bpf/<tool>.txt, waiting until every one has attached;
#   2. starts trace-cmd record (mono clock, 32 MiB a CPU) of the events;
#      not "global": under TCG the guest marks its TSCs unsynchronized, and
#      trace_clock_global() then clamps a lagging CPU to the last value
#      handed out, giving runs of identical timestamps (up to 166 events in
#      one microsecond were seen) that the merge of the CPUs puts in any
#      order; "mono" reads the one clocksource all CPUs share (hpet here);
#   3. resets the module, writes MMPREEMPT-WINDOW-START to trace_marker,
#      runs the workload, writes MMPREEMPT-WINDOW-END and snapshots the
#      module's stats with shell builtins into a file opened beforehand (so
#      the snapshot adds no mm event of its own to the window);
#   4. stops trace-cmd, then the bpftrace tools (they print at exit), and
#      copies the module's stats, hist/ and top to $OUT/module/;
#   5. writes $OUT/guest-meta.env for the host's meta.json (the host counts
#      lost events itself, from the buffer statistics inside trace.dat).
# Exit status: the workload's, or 1 if the recording itself failed.
# Overhead: every event enabled costs a ring-buffer write; each bpftrace
# tool takes ~4 s to start under TCG and runs its probes on every event.
set -u
OUT=${OUT:-/mnt/results}
ART=${ART:-/mnt/art}
REPO=${REPO:-/mnt/repo}
T=/sys/kernel/tracing
DBG=/sys/kernel/debug/mmpreempt
say() { echo "record: [$(cut -d' ' -f1 /proc/uptime) s] $*"; }
die() { echo "record: error: $*"; exit 1; }

[ -f "$OUT/record.args" ] || die "no $OUT/record.args"
{ read -r workload; read -r args; read -r events; read -r tools; } <"$OUT/record.args"
[ -x "$ART/bin/$workload" ] || die "no workload '$workload' in $ART/bin (try: ls build/bin)"

[ -d $DBG ] || insmod "$ART/mmpreempt.ko" || die "insmod mmpreempt.ko failed"

mkdir -p "$OUT/bpf" "$OUT/module"
bpids=""
for t in $tools; do
	[ -f "$REPO/bpf-scripts/$t.bt" ] || die "no bpftrace tool $t (bpf-scripts/$t.bt)"
	bpftrace -B line "$REPO/bpf-scripts/$t.bt" >"$OUT/bpf/$t.txt" 2>"$OUT/bpf/$t.err" &
	bpids="$bpids $!"
done
if [ -n "$tools" ]; then
	say "starting bpftrace:$(printf ' %s' $tools)"
	i=0
	for t in $tools; do
		until grep -q '^Tracing' "$OUT/bpf/$t.txt" 2>/dev/null; do
			i=$((i + 1))
			[ $i -lt 1200 ] || die "bpftrace $t did not attach in 120 s: $(cat "$OUT/bpf/$t.err")"
			sleep 0.1
		done
	done
fi

ev=""
for e in $events; do ev="$ev -e $e"; done
say "trace-cmd record$ev"
cd /tmp || exit 1
# shellcheck disable=SC2086
trace-cmd record -C mono -b 32768 -o "$OUT/trace.dat" $ev >"$OUT/trace-cmd.log" 2>&1 &
tc=$!
i=0
# (tracefs files have size 0: read them)
until [ "$(cat $T/tracing_on)" = 1 ] && [ -n "$(head -c 1 $T/set_event)" ]; do
	i=$((i + 1))
	kill -0 $tc 2>/dev/null || die "trace-cmd record died: $(cat "$OUT/trace-cmd.log")"
	[ $i -lt 600 ] || die "trace-cmd record did not start in 60 s"
	sleep 0.1
done

exec 3>/tmp/record.stats
echo 1 >>$DBG/reset
echo MMPREEMPT-WINDOW-START >>$T/trace_marker
say "running: $workload $args"
# shellcheck disable=SC2086 # the arguments are meant to split
"$ART/bin/$workload" $args >"$OUT/workload.log" 2>&1
rc=$?
echo MMPREEMPT-WINDOW-END >>$T/trace_marker
while IFS= read -r l; do echo "$l" >&3; done <$DBG/stats
exec 3>&-
sed 's/^/  /' "$OUT/workload.log"
say "workload exit status $rc"

kill -INT $tc
wait $tc || die "trace-cmd record failed: $(tail -n 5 "$OUT/trace-cmd.log")"
# bpftrace prints its maps when interrupted. bpftrace 0.17 notices SIGINT
# only if it lands inside epoll_wait() or an async event (printf, clear)
# follows it; one landing between two polls of a quiet tool is lost (its
# loop never checks the flag the handler set), so SIGINT is repeated each
# second until the tool exits. One still there after 60 s is reported with
# where it sits, then killed: a hung tool must not hang the recording.
set -- $tools
bad_tools=""
for p in $bpids; do kill -INT "$p"; done
for p in $bpids; do
	t=$1
	shift
	i=0
	while kill -0 "$p" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
		[ $((i % 10)) -ne 0 ] || kill -INT "$p" 2>/dev/null
	done
	if kill -0 "$p" 2>/dev/null; then
		say "bpftrace $t did not exit 60 s after SIGINT: $(grep State /proc/"$p"/status)," \
			"wchan $(cat /proc/"$p"/wchan), threads: $(ls /proc/"$p"/task | wc -l)"
		for th in /proc/"$p"/task/*; do echo "  $(cat "$th"/comm): $(cat "$th"/wchan)"; done
		kill -KILL "$p"
		bad_tools="$bad_tools $t"
	fi
	wait "$p" || say "bpftrace $t exited with status $? (see $OUT/bpf/$t.err)"
done

cp /tmp/record.stats "$OUT/module/stats"
mkdir -p "$OUT/module/hist"
for h in $DBG/hist/*; do cat "$h" >"$OUT/module/hist/$(basename "$h")"; done
cat $DBG/top >"$OUT/module/top"

preempt=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/preempt 2>/dev/null)
{
	echo "kernel_release=$(uname -r)"
	echo "config_sha256=$(zcat /proc/config.gz | sha256sum | cut -d' ' -f1)"
	echo "preempt=${preempt:-unknown}"
	echo "cpus=$(nproc)"
	echo "numa_nodes=$(ls -d /sys/devices/system/node/node* | wc -l)"
	echo "workload_status=$rc"
	echo "bpftrace=$(bpftrace --version | cut -d' ' -f2)"
	echo "trace_cmd=$(trace-cmd --version 2>/dev/null | sed -n 's/^trace-cmd version \([^ ]*\).*/\1/p')"
} >"$OUT/guest-meta.env"
say "trace.dat: $(wc -c <"$OUT/trace.dat") bytes"
[ -z "$bad_tools" ] || { say "error: bpftrace tools hung:$bad_tools"; [ $rc -ne 0 ] || rc=1; }
exit $rc
