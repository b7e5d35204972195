#!/bin/sh
# The guest half of bench/off-cost.sh (see there). POSIX sh.
set -eu
B=/tmp/bench-bin
mkdir -p $B
cp /mnt/art/bin/mmops $B/	# from tmpfs: no 9p I/O in the timed part
cd /tmp
paths="fork:${FORK_OPS:-200} fault:${FAULT_OPS:-10} file:${FILE_OPS:-200}"
if [ -d /sys/devices/system/node/node1 ]; then
	paths="$paths migrate:${MIGRATE_OPS:-50}"
else
	echo "# migrate: skipped, this guest has one NUMA node"
fi
for p in $paths; do $B/mmops --ops 2 "${p%%:*}" >/dev/null; done	# warm
r=0
while [ $r -lt "$ROUNDS" ]; do
	for p in $paths; do
		sync
		# release, path, the median single operation, the mean
		echo "$(uname -r) ${p%%:*} $($B/mmops --ops "${p#*:}" "${p%%:*}" |
			awk '{ gsub(/,/, ""); print $(NF - 2), $(NF - 7) }')"
	done
	r=$((r + 1))
done
