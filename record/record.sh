#!/bin/sh
# record.sh: `make record`. Boots the guest, records WORKLOAD under
# trace-cmd with the mmpreempt event systems and the scheduler's switch and
# wakeup events, runs bpftrace tools beside it and snapshots mmpreempt.ko's
# counters for the same window (record/record-guest.sh), then on the host
# writes meta.json and runs mmreport: report.txt, summary.txt, plots.
#
# Environment: WORKLOAD=mix  ARGS='...' (the workload's own options)
#   EVENTS='anon_vma i_mmap mmu_gather mm_all_locks sched:sched_switch
#   sched:sched_wakeup' (systems or system:event, as trace-cmd -e takes)
#   BPF='anon_vma_lat ...' (bpftrace tools from bpf-scripts/, default all;
#   BPF=none for none)  NAME=<workload>-<timestamp>  OUT=results/$NAME
#   and run.sh's: SMP NUMA MEM PREEMPT ICOUNT ACCEL TIMEOUT
# Output: OUT/ with trace.dat, workload.log, module/{stats,hist/,top},
#   bpf/<tool>.txt, console.log, meta.json, report.txt, summary.txt,
#   timeline.{svg,png} (report/timeline.sh), holds.{svg,png},
#   gathers.{svg,png}; results/latest points at it.
# Exit status: 1 if the workload or the recording failed, events were
#   lost, an invariant broke or the trace disagrees with the module (the
#   message names which, from mmreport's exit status bits).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "record.sh (settings in the environment: WORKLOAD ARGS EVENTS BPF NAME OUT)" 0 "$@"
. "$(dirname "$0")/../guest/lib.sh"

WORKLOAD=${WORKLOAD:-mix}
ARGS=${ARGS:-}
EVENTS=${EVENTS:-anon_vma i_mmap mmu_gather mm_all_locks sched:sched_switch sched:sched_wakeup}
BPF=${BPF:-$(cd "$TOP/bpf-scripts" && ls *.bt | sed 's/\.bt$//' | tr '\n' ' ' | sed 's/ $//')}
[ "$BPF" = none ] && BPF=""
NAME=${NAME:-$WORKLOAD-$(date +%Y%m%d-%H%M%S)}
out=${OUT:-$TOP/results/$NAME}
report=$TOP/build/host/mmreport

[ -x "$ART/bin/$WORKLOAD" ] ||
	die "no workload '$WORKLOAD': choose one of: $(cd "$ART/bin" && for f in *; do [ "$f" = gup_test ] || printf '%s ' "$f"; done)"
[ -x "$report" ] || die "no $report: run 'make report-tool'"
for t in $BPF; do
	[ -f "$TOP/bpf-scripts/$t.bt" ] ||
		die "no bpftrace tool '$t': choose from: $(cd "$TOP/bpf-scripts" && ls *.bt | sed 's/\.bt$//' | tr '\n' ' ')(or BPF=none)"
done
rm -rf "$out"
mkdir -p "$out"
printf '%s\n%s\n%s\n%s\n' "$WORKLOAD" "$ARGS" "$EVENTS" "$BPF" >"$out/record.args"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
log "recording $WORKLOAD${ARGS:+ $ARGS} into $out"
rc=0
"$TOP/guest/run.sh" -r "$out" -- 'sh /mnt/repo/record/record-guest.sh' || rc=$?
[ -f "$out/guest-meta.env" ] || die "the guest recorded nothing (console: $out/console.log)"
[ -s "$out/trace.dat" ] || die "no trace.dat came back (console: $out/console.log)"

# Lost events: the per-CPU ring-buffer statistics trace-cmd stored in the file
lost=$("$TOP/record/trace-lost.sh" "$out/trace.dat") || lost=unknown
echo "lost_events=$lost" >>"$out/guest-meta.env"

# meta.json: what ran, on what, and whether anything was lost
json() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
val() { sed -n "s/^$1=//p" "$2" | head -n 1; }
g=$out/guest-meta.env q=$out/qemu.env
{
	echo "{"
	printf '  "name": "%s",\n' "$(json "$NAME")"
	printf '  "started": "%s",\n' "$started"
	printf '  "workload": "%s",\n' "$(json "$WORKLOAD")"
	printf '  "args": "%s",\n' "$(json "$ARGS")"
	printf '  "workload_status": %s,\n' "$(val workload_status "$g")"
	printf '  "events": "%s",\n' "$(json "$EVENTS")"
	printf '  "bpftrace_tools": "%s",\n' "$(json "$BPF")"
	printf '  "kernel_release": "%s",\n' "$(val kernel_release "$g")"
	printf '  "kernel_key": "%s",\n' "$(kernel_key)"
	printf '  "config_sha256": "%s",\n' "$(val config_sha256 "$g")"
	printf '  "preemption_model": "%s",\n' "$(val preempt "$g")"
	printf '  "qemu_mode": "%s",\n' "$(val accel "$q")"
	printf '  "qemu_version": "%s",\n' "$(val qemu "$q")"
	printf '  "icount": %s,\n' "$(val icount "$q")"
	printf '  "cpus": %s,\n' "$(val cpus "$g")"
	printf '  "numa_nodes": %s,\n' "$(val numa_nodes "$g")"
	printf '  "mem_mib": %s,\n' "$(val mem_mib "$q")"
	printf '  "kernel_cmdline": "%s",\n' "$(json "$(val append "$q")")"
	printf '  "trace_cmd_lost_events": %s,\n' "$(val lost_events "$g" | sed 's/^unknown$/null/')"
	printf '  "trace_cmd_version": "%s",\n' "$(val trace_cmd "$g")"
	printf '  "bpftrace_version": "%s"\n' "$(val bpftrace "$g")"
	echo "}"
} >"$out/meta.json"

# The QEMU mode (qemu.env's accel= and icount=, as guest/run.sh chose them)
# in words, and what it makes of the times the report prints
qemu_words() { # ACCEL ICOUNT
	case $1,$2 in
	tcg*,1) echo "QEMU TCG with icount: software emulation, deterministic guest time" \
		"(1 ns per instruction); times count instructions, not real-hardware latencies" ;;
	tcg,thread=multi*) echo "QEMU TCG: software emulation, one host thread per vCPU;" \
		"times are not real-hardware latencies" ;;
	tcg*) echo "QEMU TCG: software emulation, one host thread running every vCPU in turn;" \
		"times are not real-hardware latencies" ;;
	kvm*) echo "QEMU KVM: hardware virtualisation on the host's CPUs; times are real" \
		"CPU time, with a virtual machine's overheads (exits, host preemption)" ;;
	*) echo "QEMU mode '$1' (icount $2)" ;;
	esac
}

verdict=0
"$report" --plots "$out" --stats "$out/module/stats" "$out/trace.dat" >"$out/report.txt" 2>"$out/report.err" ||
	verdict=$?
"$report" --summary --stats "$out/module/stats" "$out/trace.dat" >"$out/summary.body" 2>/dev/null || true
sh "$TOP/report/timeline.sh" "$out/trace.dat" "$out" >"$out/timeline.txt" 2>&1 ||
	die "report/timeline.sh failed: $(tail -n 3 "$out/timeline.txt")"
{
	echo "mmpreempt record: $WORKLOAD${ARGS:+ $ARGS} on $(val kernel_release "$g")," \
		"preempt=$(val preempt "$g"), $(val cpus "$g") CPUs"
	qemu_words "$(val accel "$q")" "$(val icount "$q")"
	# the workload's own result lines (every workload prints "NAME: ...")
	grep -E '^ *[a-z]+: ' "$out/workload.log" 2>/dev/null | sed 's/^ *//' | head -n 40 || true
	echo "workload exit status $(val workload_status "$g"); trace-cmd lost events: $(val lost_events "$g")"
	echo
	cat "$out/summary.body"
	# the verdict, violations included, is in the report; stderr has errors
	if [ -s "$out/report.err" ]; then
		echo "mmreport errors (first lines of $out/report.err):"
		head -n 12 "$out/report.err"
		echo
	fi
	echo "files in $out:"
	echo "  trace.dat      the trace: make view RUN=$out"
	echo "  report.txt     the full report (mmreport); summary.txt this summary"
	echo "  timeline.png/svg  where the long holds and gather stretches were, and who waited:"
	sed 's/^/                    /' "$out/timeline.txt"
	echo "  holds.svg/png gathers.svg/png  plots (plots.gp re-plots them)"
	echo "  module/        mmpreempt.ko stats, hist/, top for the same window"
	[ -n "$BPF" ] && echo "  bpf/           bpftrace outputs: $BPF"
	echo "  meta.json      kernel, config, preemption model, QEMU mode, lost events"
	echo "  console.log    the guest console; workload.log the workload's output"
} >"$out/summary.txt"
rm -f "$out/summary.body"
if [ "$(cd "$out/.." && pwd)" = "$TOP/results" ]; then
	ln -sfn "$(basename "$out")" "$TOP/results/latest"
fi
cat "$out/summary.txt"
echo
echo "open it:  make view RUN=$out"
[ "$(val workload_status "$g")" = 0 ] || die "the workload failed (see $out/workload.log)"
[ $rc -eq 0 ] || die "the guest run failed with status $rc (console: $out/console.log)"
[ "$(val lost_events "$g")" = 0 ] || die "trace-cmd lost events: counts are not exact"
# mmreport's exit status: a bit per kind of failure (mmreport --help)
if [ $verdict -ne 0 ]; then
	why=
	[ $((verdict & 1)) -eq 0 ] || why="$why, invariant violations"
	[ $((verdict & 2)) -eq 0 ] || why="$why, an error (in report.err)"
	[ $((verdict & 4)) -eq 0 ] || why="$why, a disagreement with the module"
	[ $((verdict & 8)) -eq 0 ] || why="$why, lost events"
	[ $((verdict & 16)) -eq 0 ] || why="$why, an invariant that checked nothing"
	die "mmreport: ${why#, } (exit $verdict; see $out/report.txt)"
fi
