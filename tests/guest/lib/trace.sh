# Sourced by guest tests that record trace events. POSIX sh.
#
# record DIR EVENTS... -- CMD...: trace-cmd record of CMD into DIR/trace.dat
# with the mono clock (one clocksource for all CPUs: the "global" trace clock
# clamps a lagging CPU to the last value given out when the guest's TSCs are
# unsynchronized, as under TCG, and events of two CPUs then tie in any
# order; see record/record-guest.sh), then DIR/events.txt: one line per
# event, "ts cpu pid comm event key=value..." (ts in seconds to the µs, or
# to the ns with RECORD_NS=1 set). Fails the test if trace-cmd
# reports lost events: a test's counts must be exact or say why not.
# trace-cmd record CMD drops CMD's exit status (3.1.6 exits 0 whatever CMD
# did), so CMD runs under a small sh that saves its status (to tmpfs, as a
# file created on the 9p share would take an i_mmap lock inside the trace),
# kept in DIR/status: a workload that fails, or dies before saying, fails
# the test. The wrapper is one more sh in the trace (comm "sh").

record() {
	_d=$1
	shift
	_ev=""
	while [ "$1" != "--" ]; do _ev="$_ev -e $1"; shift; done
	shift
	mkdir -p "$_d"
	_st=$(mktemp /tmp/record-status.XXXXXX)
	rm -f "$_st" "$_d/status"
	# shellcheck disable=SC2016,SC2086 # $? and $MMP_STATUS are the wrapper's
	MMP_STATUS=$_st trace-cmd record -C mono -b 16384 -o "$_d/trace.dat" $_ev \
		sh -c '"$@"; echo $? >"$MMP_STATUS"' record-wrapper "$@" \
		>"$_d/record.log" 2>&1 || { cat "$_d/record.log"; rm -f "$_st"; fail "trace-cmd record $*"; }
	if [ -f "$_st" ]; then mv "$_st" "$_d/status"; fi
	_rc=$(cat "$_d/status" 2>/dev/null) || _rc=""
	if [ "$_rc" != 0 ]; then
		# the workload's own output: record.log less trace-cmd's statistics
		grep -Ev '^CPU[0-9]+ data recorded at|^ +[0-9]+ bytes in size' "$_d/record.log" | tail -n 20
		[ -n "$_rc" ] || fail "the workload left no exit status (killed with its wrapper?): $*"
		fail "the workload exited $_rc: $*"
	fi
	# the per-CPU ring-buffer statistics trace-cmd stores in the file
	_lost=$(sh "$REPO/record/trace-lost.sh" "$_d/trace.dat") || fail "no buffer statistics in the trace"
	[ "$_lost" = 0 ] || fail "trace-cmd lost $_lost events: the buffer overran"
	# -N: no plugins, so every event prints its own key=value format
	trace-cmd report -N ${RECORD_NS:+-t} -i "$_d/trace.dat" >"$_d/report.txt" 2>"$_d/report.err" ||
		fail "trace-cmd report failed: $(cat "$_d/report.err")"
	if grep -q 'LOST' "$_d/report.txt"; then
		fail "trace-cmd report shows lost events"
	fi
	# "comm-pid [cpu] ts: event: fields" -> "ts cpu pid comm event fields"
	awk '$2 ~ /^\[[0-9]+\]$/ && $3 ~ /:$/ && $4 ~ /:$/ {
		n = split($1, a, "-"); pid = a[n]; comm = substr($1, 1, length($1) - length(pid) - 1)
		cpu = substr($2, 2, length($2) - 2) + 0
		ts = substr($3, 1, length($3) - 1); ev = substr($4, 1, length($4) - 1)
		line = ts " " cpu " " pid " " comm " " ev
		for (i = 5; i <= NF; i++) line = line " " $i
		print line
	}' "$_d/report.txt" >"$_d/events.txt"
	echo "recorded $(wc -l <"$_d/events.txt") events in $_d/trace.dat"
}

# events_awk [-v VAR=VALUE]... PROGRAM FILE...: awk over events.txt lines
# (see record) with each line's key=value fields in f["key"] (lib/fields.awk
# runs first on every line)
events_awk() {
	_prelude=$(cat "$LIB/fields.awk")
	_state=opts
	for _a; do
		shift
		case $_state in
		value) _state=opts ;;
		opts)
			if [ "$_a" = -v ]; then
				_state=value
			else
				_a="$_prelude
$_a"
				_state=files
			fi ;;
		esac
		set -- "$@" "$_a"
	done
	awk "$@"
}

# count FILE EVENT [AWK-CONDITION]: events of that name (fields as f["key"])
count() {
	events_awk -v ev="$2" "
	\$5 == ev && (${3:-1}) { n++ }
	END { print n + 0 }" "$1"
}
