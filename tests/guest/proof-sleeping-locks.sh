#!/bin/sh
# description: i_mmap and anon_vma lock holders are switched out while holding
#   SERIES row 10 (i_mmap and anon_vma locks became sleeping
#   locks). With a SCHED_FIFO task (cyclictest, 1 ms) on CPU 0, a truncate
#   under shared mappings (i_mmap read hold over the unmap of every page)
#   and page migration (anon_vma read holds in rmap walks) run on CPU 0:
#   holders of both locks are observed switched out while holding them
#   (a sched_switch of the holder inside an acquired..released interval)
# requires: trace-cmd cyclictest taskset filemap migrate nodes=2
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
[ -d /sys/devices/system/node/node1 ] || skip "the guest has one NUMA node"
trap 'pkill cyclictest || true' EXIT
trap 'exit 1' TERM INT
d=$RES/proof-sleeping-locks
# one round each in make test's share on the debug kernel (there the three
# and four rounds take 450 s); one round already switches holders of both
# locks out
fr=3 mr=4
if debug_ci; then
	fr=1 mr=1
	echo "make test's share on the debug kernel: 1 filemap and 1 migrate round (make test-debug: 3 and 4)"
fi
cd /tmp || exit 1
record "$d" sched:sched_switch anon_vma:anon_vma_lock_acquired anon_vma:anon_vma_lock_released \
	i_mmap:i_mmap_lock_acquired i_mmap:i_mmap_lock_released -- sh -c '
	cyclictest -q -m -t 1 -a 0 -p 90 -i 1000 -D 120 >/dev/null &
	cy=$!
	sleep 1
	taskset -c 0 filemap --procs 4 --pages 8192 --rounds '$fr' &&
	taskset -c 0 migrate --pages 4096 --rounds '$mr'; rc=$?
	kill $cy 2>/dev/null; wait $cy; cs=$?
	[ $cs -eq 0 ] || [ $cs -eq 143 ] || { echo "cyclictest exited $cs"; [ $rc -ne 0 ] || rc=1; }
	exit $rc'
awk -f "$(dirname "$0")/lib/held-switch.awk" "$d/events.txt" | sort | tee "$d/held"
for s in i_mmap anon_vma; do
	n=$(sed -n "s/^$s holds=[0-9]* switched=\([0-9]*\).*/\1/p" "$d/held")
	[ "${n:-0}" -ge 1 ] || fail "no $s holder was ever switched out while holding"
done
