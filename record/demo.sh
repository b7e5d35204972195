#!/bin/sh
# demo.sh: `make demo`, which is `make record WORKLOAD=mix` into
# results/demo/: every workload at once under trace-cmd, mmpreempt.ko and
# the bpftrace tools, then the report, its summary and the plots. Prints
# the summary and how to open the trace in kernelshark. Overhead: one
# guest boot, ~40 s of bpftrace start-up under TCG, a few seconds of mix.
set -eu
. "$(dirname "$0")/../guest/usage.sh"
usage_check "demo.sh (ARGS in the environment)" 0 "$@"
. "$(dirname "$0")/../guest/lib.sh"
NAME=demo WORKLOAD=mix ARGS=${ARGS:-} exec "$TOP/record/record.sh"
