#!/bin/sh
# view.sh: `make view`. Opens a recorded trace.dat in kernelshark: RUN=
# a results folder or a trace.dat, else the newest trace.dat under
# results/. Needs an X display (a desktop session, ssh -X, or Xvfb as
# record/kernelshark-shot.sh uses).
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "view.sh (RUN=results/... in the environment for another run)" 0 "$@"
. "$(dirname "$0")/../guest/lib.sh"

run=${RUN:-}
if [ -z "$run" ]; then
	# newest first; test recordings included, since they are traces too
	run=$(ls -t "$TOP"/results/*/trace.dat "$TOP"/results/*/*/trace.dat 2>/dev/null | head -n 1) ||
		true
	[ -n "$run" ] || die "no trace.dat under results/: run 'make demo' or 'make record' first"
fi
[ -d "$run" ] && run=$run/trace.dat
[ -f "$run" ] || die "no trace at $run"
command -v kernelshark >/dev/null || die "kernelshark missing: run 'make deps'"
[ -n "${DISPLAY:-}" ] || die "no X display (DISPLAY is unset): run it from a desktop session or" \
	"over ssh -X; record/kernelshark-shot.sh $run shot.png takes a screenshot without one"
log "kernelshark $run"
exec kernelshark "$run"
