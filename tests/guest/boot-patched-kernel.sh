#!/bin/sh
# description: guest runs our -mmpreempt kernel with PREEMPT_DYNAMIC, full by default
#   the guest runs the kernel built from our tree, not some other one
# requires: /mnt/art/kernel.release
# timeout: 10
. "$(dirname "$0")/lib/common.sh"
rel=$(uname -r)
case $rel in
*-mmpreempt*) echo "ok: release $rel carries the mmpreempt localversion" ;;
*) fail "uname -r is '$rel', without the mmpreempt localversion" ;;
esac
expect "release built on the host" "$(cat "$ART/kernel.release")" "$rel"
# The image must be the one whose config we asked for: a fragment option that
# allnoconfig would never set on its own.
zcat /proc/config.gz | grep -qx 'CONFIG_PREEMPT_DYNAMIC=y' || fail "no PREEMPT_DYNAMIC"
# PREEMPT_DYNAMIC says which model it started with; the default must be full.
model=$(dmesg | sed -n 's/.*Dynamic Preempt: *//p' | tail -n 1)
if grep -q 'preempt=' /proc/cmdline; then
	echo "ok: preemption model $model (set on the command line)"
else
	expect "default preemption model" "$model" full
fi
