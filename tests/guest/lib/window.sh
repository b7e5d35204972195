# Sourced by guest tests that compare mmpreempt.ko with a trace. POSIX sh.
#
# window NAME CMD...: run CMD between a module reset plus a start marker and
# an end marker plus a snapshot of the module's stats into /tmp/NAME.stats
# (then its histograms into /tmp/NAME.hist and top into /tmp/NAME.top), so
# that module and trace count the same events and none of the tracer's
# own. Meant to run as the command trace-cmd records. The snapshot file is
# opened beforehand, on tmpfs, and written with builtins only: creating or
# writing a file inside the window could take an i_mmap lock (9p truncates
# on create). Returns CMD's status.
window() {
	_n=$1
	shift
	exec 3>"/tmp/$_n.stats" 4>"/tmp/$_n.hist" 5>"/tmp/$_n.top"
	# ">>": a ">" open truncates, and a truncate takes the i_mmap lock
	echo 1 >>"$DBG/reset"
	echo MMPREEMPT-WINDOW-START >>"$TRACEFS/trace_marker"
	_rc=0
	"$@" >/dev/null || _rc=$?
	echo MMPREEMPT-WINDOW-END >>"$TRACEFS/trace_marker"
	while IFS= read -r _l; do echo "$_l" >&3; done <"$DBG/stats"
	for _h in "$DBG"/hist/*; do
		[ -e "$_h" ] || continue
		while IFS= read -r _l; do echo "$_l" >&4; done <"$_h"
	done
	while IFS= read -r _l; do echo "$_l" >&5; done <"$DBG/top"
	exec 3>&- 4>&- 5>&-
	return $_rc
}

# in_window EVENTS OUT: the events of EVENTS (record's events.txt) between
# the markers
in_window() {
	awk '/MMPREEMPT-WINDOW-START/ { on = 1; next } /MMPREEMPT-WINDOW-END/ { on = 0 }
		on' "$1" >"$2"
}

# record_window DIR NAME EVENTS... -- CMD...: record (lib/trace.sh, which
# must be sourced) of CMD inside window NAME; the window's stats are then in
# DIR/stats, its histograms in DIR/hist and top in DIR/top. The window
# runs in a child sh that trace-cmd starts once it is
# recording: a trace-cmd started in the background and given a fixed time to
# set up raced with it (under load the start marker was written while the
# ring buffer was still being resized, failed, and the window was empty).
record_window() {
	_wd=$1 _wn=$2
	shift 2
	_we=""
	while [ "$1" != "--" ]; do _we="$_we $1"; shift; done
	shift
	# shellcheck disable=SC2016,SC2086 # $0 and $@ are the child's
	record "$_wd" $_we -- sh -c '. "$0/common.sh"; . "$0/module.sh"; . "$0/window.sh"
		window "$@"' "$LIB" "$_wn" "$@"
	cp "/tmp/$_wn.stats" "$_wd/stats"
	cp "/tmp/$_wn.hist" "$_wd/hist"
	cp "/tmp/$_wn.top" "$_wd/top"
}
