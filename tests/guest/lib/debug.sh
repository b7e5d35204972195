# Sourced by guest tests that need the debug kernel's checkers (kmemleak,
# fault injection). POSIX sh.
DEBUGFS=/sys/kernel/debug
KMEMLEAK=$DEBUGFS/kmemleak

# kconfig OPT: true when the running kernel has OPT=y
kconfig() { zcat /proc/config.gz | grep -qx "$1=y"; }

# need_config OPT...: skip, saying which option is missing, unless all are on
need_config() {
	for _o in "$@"; do
		kconfig "$_o" || skip "this kernel has no $_o (it runs on the debug kernel, which has it)"
	done
}

# kmemleak_clear: forget the suspects found so far, so that a later
# kmemleak_check reports only what leaked after this point
kmemleak_clear() {
	echo clear >"$KMEMLEAK" || fail "cannot clear kmemleak"
}

# kmemleak_check WHAT: scan; fail on any unreferenced object, showing the
# first reports. kmemleak reports an object only once it is 5 s old, and
# only after a scan found nothing pointing at it: wait, then scan twice.
kmemleak_check() {
	sleep 6
	echo scan >"$KMEMLEAK" && echo scan >"$KMEMLEAK" || fail "kmemleak scan failed"
	_n=$(grep -c '^unreferenced object' "$KMEMLEAK" || true)
	if [ "$_n" -ne 0 ]; then
		head -n 60 "$KMEMLEAK"
		fail "$1: kmemleak reports $_n unreferenced objects"
	fi
	echo "ok: $1: kmemleak reports 0 unreferenced objects"
}

# fi_set DIR KEY=VALUE...: fault-injection attributes (DIR under debugfs)
fi_set() {
	_dir=$DEBUGFS/$1
	shift
	for _kv in "$@"; do
		echo "${_kv#*=}" >"$_dir/${_kv%%=*}" || fail "cannot set $_dir/${_kv%%=*} to ${_kv#*=}"
	done
}

# fi_hits FROM [LOG]: the stack of every failure fault injection forced
# (verbose=2) in the kernel log lines after line FROM (of LOG, a saved dmesg,
# or of dmesg), one line each: the reliable frames' function names (not the
# "? " guesses), innermost first, space-separated. A failed allocation with
# __GFP_NOWARN prints no stack.
fi_hits() {
	if [ -n "${2:-}" ]; then cat "$2"; else dmesg; fi | tail -n +$(($1 + 1)) | awk '
	/FAULT_INJECTION: forcing a failure/ { on = 1; s = ""; next }
	on && /<\/TASK>/ { print s; on = 0; next }
	on && /\] +[A-Za-z0-9_.]+\+0x/ {
		f = $0; sub(/^\[[^]]*\] +/, "", f); sub(/\+0x.*/, "", f)
		s = s (s == "" ? "" : " ") f
	}'
}
