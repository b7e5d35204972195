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
