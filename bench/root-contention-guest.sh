#!/bin/sh
# The guest half of bench/root-contention.sh (see there). POSIX sh.
set -eu
DBG=/sys/kernel/debug
MOD=/mnt/art/mmpreempt.ko
out=/tmp/root-contention
rm -rf $out && mkdir -p $out
cd /tmp
storm() {
	rootstorm --procs 2 --ops "$OPS" >$out/last || { echo "rootstorm failed" >&2; exit 1; }
	awk '{ print $(NF - 3) }' $out/last
}
# one NAME [insmod args...]: a run of NAME's configuration, appended to its file
one() {
	name=$1
	shift
	if [ "$name" = off ]; then
		storm >>$out/$name
		return
	fi
	insmod "$@"
	storm >>$out/$name
	[ -d $DBG/mmpreempt ] &&
		awk '$1 ~ /^anon_vma\.lock\.write\.acquired$/ { print $2 }' $DBG/mmpreempt/stats >>$out/$name.acquired
	rmmod mmpreempt
}
storm >/dev/null	# warm: page cache, first faults
r=0
while [ $r -lt "$ROUNDS" ]; do
	one off
	one timed $MOD
	one counting $MOD mode=counting
	[ -n "$OTHER" ] && one other "$OTHER"
	r=$((r + 1))
done
echo "rounds $ROUNDS: rootstorm, 2 processes on 2 vCPUs, $OPS split+merge pairs each, one root anon_vma"
echo "units: us per pair, wall time of the guest (not instruction counts); ratio = the same round's run / the events-off run"
printf '%-32s %10s %18s %12s %18s\n' configuration median_us "min-max_us" median_ratio "min-max_ratio"
for name in off timed counting other; do
	[ -s $out/$name ] || continue
	paste $out/off $out/$name | awk -v name="$name" '
		{ v[NR] = $2; q[NR] = $2 / $1 }
		function median(a, n,   i, j, t) {
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		END {
			m = median(v, NR); lo = v[1]; hi = v[NR]
			mq = median(q, NR); qlo = q[1]; qhi = q[NR]
			label = name == "off" ? "events off" : name == "other" ? "mmpreempt.ko (OLD_KO)" : "mmpreempt.ko mode=" name
			printf "%-32s %10.2f %8.2f-%-9.2f %12.3f %8.3f-%-9.3f\n", label, m, lo, hi, mq, qlo, qhi
		}'
done
for name in timed counting other; do
	[ -s $out/$name.acquired ] || continue
	echo "$name: anon_vma write acquisitions counted per run: $(sort -n $out/$name.acquired | head -1) to $(sort -n $out/$name.acquired | tail -1)"
done
