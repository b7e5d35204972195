# Sourced by guest tests of mmpreempt.ko. POSIX sh.
MOD=$ART/mmpreempt.ko
DBG=/sys/kernel/debug/mmpreempt

load_module() {
	[ -f "$MOD" ] || fail "no $MOD: run make module"
	[ -d $DBG ] || insmod "$MOD" "$@" || fail "insmod mmpreempt.ko failed"
	[ "$(cat $DBG/enable)" = 1 ] || fail "the module did not attach at load"
}

unload_module() {
	[ -d $DBG ] && { rmmod mmpreempt || fail "rmmod mmpreempt failed"; }
	return 0
}

# stat_of NAME: one value from the stats file, or from $STATS (a snapshot)
stat_of() {
	v=$(awk -v n="$1" '$1 == n { print $2; f = 1 } END { exit !f }' "${STATS:-$DBG/stats}") ||
		fail "stats has no '$1'"
	echo "$v"
}

# write1 FILE VALUE: one write(2) of exactly VALUE, even an empty one (a shell
# redirect of nothing calls no write at all); fails with the errno's text
write1() {
	perl -e 'open(my $f, ">>", $ARGV[0]) or die "$!\n";
		defined(syswrite($f, $ARGV[1], length $ARGV[1])) or die "$!\n"' "$1" "$2"
}

# alllocks_ready OUT ARGS...: start `alllocks --wait ARGS` in the background
# (output in OUT) and return once it has mapped everything; its pid is in
# ALLOCKS_PID
alllocks_ready() {
	_out=$1
	shift
	alllocks "$@" --wait >"$_out" &
	ALLOCKS_PID=$!
	_i=0
	until grep -q ready "$_out" 2>/dev/null; do
		_i=$((_i + 1)); [ $_i -lt 600 ] || fail "alllocks never got ready"; sleep 0.1
	done
}
