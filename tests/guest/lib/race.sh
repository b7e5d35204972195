# Sourced by the guest tests that race anon_vma_race.ko's paused reader
# against a page owner's exit. POSIX sh.
#
# The owner runs on CPU 1, the paused reader on CPU 0: the owner's exit
# must not need CPU 0 (a TLB shootdown IPI to a CPU that ran the mm would
# wait for the pause to end), and neither may the killer.

# load_race PARAM...: anon_vma_race.ko loaded afresh with PARAMs, unloaded
# at the test's exit
load_race() {
	_ko=$ART/modules/anon_vma_race.ko
	[ -f "$_ko" ] || fail "no $_ko (make module builds tests/modules)"
	rmmod anon_vma_race 2>/dev/null || :
	insmod "$_ko" "$@" || fail "insmod anon_vma_race.ko $*"
	trap 'rmmod anon_vma_race 2>/dev/null || true' EXIT
}

# start_victim: a `sleep` on CPU 1 whose stack's top page is the page to
# race on; sets VICTIM (its pid) and VICTIM_ADDR (hex, no 0x)
start_victim() {
	taskset -c 1 sleep 1000 &
	VICTIM=$!
	_i=0	# its own stack, not that of the shell it was forked from
	until [ "$(cat /proc/$VICTIM/comm 2>/dev/null)" = sleep ]; do
		_i=$((_i + 1)); [ $_i -lt 100 ] || fail "sleep never started"; sleep 0.05
	done
	_end=$(awk '/\[stack\]/ { split($1, a, "-"); print a[2] }' /proc/$VICTIM/maps)
	[ -n "$_end" ] || fail "no stack mapping for pid $VICTIM"
	VICTIM_ADDR=$(printf '%x' $((0x$_end - 4096)))
}

# race_script FILE MODE [AFTER]: FILE runs the race: the reader writes
# "VICTIM VICTIM_ADDR[ MODE]" to anon_vma_race on CPU 0; once it is
# paused, the killer kills VICTIM on CPU 1 and then runs AFTER there
race_script() {
	cat >"$1" <<EOS
taskset -c 1 sh -c 'i=0; until grep -q paused /sys/kernel/debug/anon_vma_race || [ \$i -ge 200 ]; do i=\$((i + 1)); sleep 0.05; done; kill -9 $VICTIM; ${3:-:}' &
taskset -c 0 sh -c 'echo "$VICTIM $VICTIM_ADDR${2:+ $2}" >/sys/kernel/debug/anon_vma_race'
wait
EOS
}

# after_free PROGRAM FILE: events_awk PROGRAM over FILE (an events.txt),
# with freed set on every event that names, as anon_vma or root, an object
# the victim freed, until that object's next birth
after_free() {
	events_awk '$4 == "sleep" && $5 == "anon_vma_free" { dead[f["anon_vma"] ""] = 1; next }
$5 == "anon_vma_alloc" { delete dead[f["anon_vma"] ""]; next }
{ freed = (f["anon_vma"] "" in dead) || (f["root"] "" in dead) }
'"$1" "$2"
}
