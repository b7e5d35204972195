# Sourced by guest tests. POSIX sh. A test exits 0 (pass), 4 (skip, after
# printing "SKIP: why") or anything else (fail, after saying why).
set -eu
RES=${MMPREEMPT_RESULTS:-/mnt/results}
ART=${MMPREEMPT_ART:-/mnt/art}
REPO=${MMPREEMPT_REPO:-/mnt/repo}
TRACEFS=/sys/kernel/tracing
# this folder, for a child sh that sources these files (it inherits it)
LIB=${MMPREEMPT_LIB:-$(cd "$(dirname "$0")/lib" && pwd)}
MMPREEMPT_LIB=$LIB
export MMPREEMPT_LIB

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
# What may lie between mmpreempt.ko's clock read and the trace's in one
# tracepoint call, in ns: the guest's clocks follow the host's, and the host
# may deschedule the vCPU between the two (under a loaded .ci/run a module
# hold read 4.3 ms longer than the trace's; idle, 164 us at most). So an
# interval the module times and the same interval in the trace are at most
# this far apart.
CLOCK_GAP_NS=50000000
# The same gap without a deschedule, per interval: the module's probe and the
# trace's timestamp of one event sit a few us apart (over 417 anon_vma write
# holds in mod-vs-trace the module read 2.1 us per hold less than the trace).
# A sum of N intervals is within CLOCK_GAP_NS (one deschedule) + N * this.
HOLD_GAP_NS=20000
# expect WHAT GOT WANT: exact equality, said either way
expect() {
	if [ "$2" = "$3" ]; then echo "ok: $1 = $2"; else fail "$1: got '$2', want '$3'"; fi
}
# near WHAT MODULE TRACE BOUND: |MODULE - TRACE| <= BOUND ns, both non-zero
near() {
	[ "$2" -gt 0 ] && [ "$3" -gt 0 ] || fail "$1: module $2, trace $3: a zero compares nothing"
	_d=$(($2 - $3))
	[ ${_d#-} -le "$4" ] || fail "$1: module $2, trace $3: $_d ns apart, more than $4"
	echo "ok: $1: module $2, trace $3 ($_d ns apart, bound $4)"
}
# need_ksm: skip unless the kernel has KSM. The debug kernel is built
# without it on purpose: it proves that the anon_vma refcount and its events
# live outside CONFIG_KSM (SERIES.md row 5; tp-refcount-replay runs there).
need_ksm() {
	[ -e /sys/kernel/mm/ksm/run ] ||
		skip "no KSM in this kernel (CONFIG_KSM=n: the debug kernel, built so to prove SERIES.md row 5)"
}

# debug_ci: true on the debug kernel in make test's share of the suite
# (MMPREEMPT_DEBUG_SUITE=ci), where a test may run fewer rounds of the same
# checks (saying so); make test-debug runs them all.
debug_ci() {
	case $(uname -r) in
	*-debug) [ "${MMPREEMPT_DEBUG_SUITE:-full}" = ci ] ;;
	*) return 1 ;;
	esac
}
