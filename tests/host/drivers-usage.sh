#!/bin/sh
# description: each user driver answers -h with its header, exits 2 on unknown options
#   every driver a user runs by hand answers -h with its header
#   (exit 0, the first header line printed) and refuses an option it does not
#   know with a usage line on stderr and exit 2, before doing anything else.
#   A driver in the list below that does not call usage_check (or parse -h
#   itself, run.sh and run-sparc64.sh) fails here without being run, so that
#   the check can never start a build or a boot
# requires:
. "$TOP/tests/guest/lib/common.sh"
bad=0 n=0
for d in record/record.sh tests/test.sh record/view.sh tests/bisect.sh record/demo.sh \
	guest/run.sh guest/run-sparc64.sh bench/off-cost.sh bench/module-cost.sh \
	bench/root-contention.sh bench/workload-cost.sh bench/preempt-latency.sh \
	bench/setup-cost.sh bench/gup-fast-sparc64.sh bench/summary.sh bench/plots.sh report/timeline.sh; do
	f=$TOP/$d
	n=$((n + 1))
	if ! grep -q '^usage_check \|-h|--help)' "$f"; then
		echo "not checked: $d has no usage_check and no -h case"
		bad=$((bad + 1))
		continue
	fi
	first=$(sed -n '2s/^# \{0,1\}//p' "$f")
	out=$(sh "$f" -h 2>&1) && [ "$(printf '%s\n' "$out" | head -n 1)" = "$first" ] ||
		{ echo "$d -h: exit $?, first line '$(printf '%s\n' "$out" | head -n 1)', want '$first'"; bad=$((bad + 1)); continue; }
	rc=0
	err=$(sh "$f" --no-such-option 2>&1 >/dev/null) || rc=$?
	if [ $rc -ne 2 ] || ! printf '%s\n' "$err" | grep -q '^usage: '; then
		echo "$d --no-such-option: exit $rc, stderr '$err' (want exit 2 and a usage line)"
		bad=$((bad + 1))
	fi
done
[ $bad -eq 0 ] || fail "$bad of $n drivers do not answer -h or misuse as they should"
echo "ok: $n drivers answer -h (exit 0) and refuse an unknown option (exit 2)"
