# Sourced by guest tests that compare mmpreempt.ko with a trace. POSIX sh.
#
# window NAME CMD...: run CMD between a module reset plus a start marker and
# an end marker plus a snapshot of the module's stats into /tmp/NAME.stats,
# so that module and trace count the same events and none of the tracer's
# own. Meant to run as the command trace-cmd records. The snapshot file is
# opened beforehand, on tmpfs, and written with builtins only: creating or
# writing a file inside the window could take an i_mmap lock (9p truncates
# on create). Returns CMD's status.
window() {
	_n=$1
	shift
	exec 3>"/tmp/$_n.stats"
	# ">>": a ">" open truncates, and a truncate takes the i_mmap lock
	echo 1 >>"$DBG/reset"
	echo MMPREEMPT-WINDOW-START >>"$TRACEFS/trace_marker"
	_rc=0
	"$@" >/dev/null || _rc=$?
	echo MMPREEMPT-WINDOW-END >>"$TRACEFS/trace_marker"
	while IFS= read -r _l; do echo "$_l" >&3; done <"$DBG/stats"
	exec 3>&-
	return $_rc
}

# in_window EVENTS OUT: the events of EVENTS (record's events.txt) between
# the markers
in_window() {
	awk '/MMPREEMPT-WINDOW-START/ { on = 1; next } /MMPREEMPT-WINDOW-END/ { on = 0 }
		on' "$1" >"$2"
}
