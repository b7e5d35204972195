#!/bin/sh
# trace-lost.sh TRACE.DAT: prints how many events the ring buffer lost while
# the trace was recorded (overrun + commit overrun + dropped, summed over
# CPUs), from the buffer statistics trace-cmd stores in the file: the
# record command's own output does not always show them. Host or guest.
[ $# -eq 1 ] && [ -s "$1" ] || { echo "usage: trace-lost.sh TRACE.DAT" >&2; exit 2; }
trace-cmd report --stat -i "$1" 2>/dev/null |
	awk '/^(overrun|commit overrun|dropped events):/ { s += $NF; n++ }
	END { if (!n) { print "trace-lost.sh: no buffer statistics in the file" > "/dev/stderr"; exit 1 }
	print s }'
