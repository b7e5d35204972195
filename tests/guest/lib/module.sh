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

# top_vs_stats NAME: top's rows plus its lost line against the stats, both
# read in one instant (detached: nothing counts), kept as RES/NAME-*.txt
top_vs_stats() {
	echo 0 >$DBG/enable
	cp $DBG/stats "$RES/$1-stats-detached.txt"
	cat $DBG/top >"$RES/$1-top.txt"
	echo 1 >$DBG/enable
	awk 'NR > 1 && !/^#/ { n++ } END { exit !n }' "$RES/$1-top.txt" || fail "$1: top lists no root"
	top_sums=$(awk 'NR > 1 && !/^#/ { h += $2; w += $3; n += $4 }
		/^# in no row/ { n += $(NF - 4); h += $(NF - 2); w += $NF; f = 1 }
		END { if (!f) exit 1; printf "%.0f %.0f %.0f\n", n, h, w }' "$RES/$1-top.txt") ||
		fail "$1: top has no '# in no row' line"
	stat_sums=$(awk '$1 ~ /^anon_vma\.lock\.(read|write)\.holds_timed$/ { n += $2 }
		$1 ~ /^anon_vma\.lock\.(read|write)\.hold_ns_total$/ { h += $2 }
		$1 ~ /^anon_vma\.lock\.(read|write)\.wait_ns_total$/ { w += $2 }
		END { printf "%.0f %.0f %.0f\n", n, h, w }' "$RES/$1-stats-detached.txt")
	expect "$1: top's holds, hold_ns, wait_ns summed over its rows (stats: the same)" "$top_sums" "$stat_sums"
}
