#!/bin/sh
# The guest half of bench/off-cost.sh (see there): every mmops path, ROUNDS
# times, one line per path and round. POSIX sh.
# SMOKE=1: each path a few operations (bench-smoke: they keep working).
# PATHS="a b": only those paths.
set -eu
B=/tmp/bench-bin
mkdir -p $B
cp /mnt/art/bin/mmops $B/	# from tmpfs: no 9p I/O in the timed part
cd /tmp
# path:operations per round; each is one kind of mm operation the series or
# its events change (workloads/mmops.c says what each one runs)
all="fork:200 fault:10 file:200 migrate:50 page:2000 forkvmas:100 split:1000
mremap:1000 filepage:1000 collapse:20 pageout:50 notifier:100
dontneed:200 ksmmerge:30 ksmunmerge:30 swapout:100"
paths=""
for p in $all; do
	case " ${PATHS:-${p%%:*}} " in *" ${p%%:*} "*) ;; *) continue ;; esac
	n=${p#*:}
	[ "${SMOKE:-0}" = 1 ] && n=2
	case ${p%%:*} in
	migrate)
		if [ ! -d /sys/devices/system/node/node1 ]; then
			echo "# migrate: skipped, this guest has one NUMA node"
			continue
		fi ;;
	notifier)
		if [ ! -e /dev/hmm_dmirror0 ]; then
			insmod /mnt/art/modules/test_hmm.ko ||
				{ echo "off-cost: insmod test_hmm.ko failed (the notifier path needs it)" >&2; exit 1; }
			i=0
			until [ -e /dev/hmm_dmirror0 ]; do
				i=$((i + 1)); [ $i -lt 100 ] || { echo "off-cost: no /dev/hmm_dmirror0" >&2; exit 1; }
				sleep 0.05
			done
		fi ;;
	ksmmerge | ksmunmerge)
		if [ ! -e /sys/kernel/mm/ksm/run ]; then
			echo "# ${p%%:*}: skipped, this kernel has no KSM"
			continue
		fi ;;
	swapout)
		# anonymous pages go out only to swap: a zram device, put back as
		# it was at exit (a test suite runs on in this boot)
		if ! grep -q '^/' /proc/swaps; then
			if [ ! -e /sys/block/zram0 ]; then
				echo "# swapout: skipped, this kernel has no zram for swap (CONFIG_ZRAM)"
				continue
			fi
			echo 64M >/sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null &&
				swapon /dev/zram0 ||
				{ echo "off-cost: swap on /dev/zram0 failed (the swapout path needs it)" >&2; exit 1; }
			trap 'swapoff /dev/zram0 && echo 1 >/sys/block/zram0/reset' EXIT
		fi ;;
	esac
	paths="$paths ${p%%:*}:$n"
done
[ -n "$paths" ] || { echo "off-cost: no path in PATHS='${PATHS:-}'" >&2; exit 1; }
# collapse faults small pages and collapses them itself: THP faults only where
# asked for (this kernel's default; said here in case the guest changed it)
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ ! -w $thp ] || echo madvise >$thp
run() { $B/mmops --ops "$2" --dir /var/tmp "$1"; }	# run PATH OPS
for p in $paths; do run "${p%%:*}" 2 >/dev/null; done	# warm
r=0
while [ $r -lt "${ROUNDS:-5}" ]; do
	for p in $paths; do
		sync
		# release, path, the median single operation, the mean
		echo "$(uname -r) ${p%%:*} $(run "${p%%:*}" "${p#*:}" |
			awk '{ gsub(/,/, ""); print $(NF - 2), $(NF - 7) }')"
	done
	r=$((r + 1))
done
