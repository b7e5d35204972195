# Sourced by the host tests runner-*: each boots the guest once with a
# command that goes wrong in one way and checks that guest/run.sh fails,
# with that way's own message. POSIX sh. Short boots: one vCPU, one NUMA
# node, 512 MiB, a quiet console; KERNEL, ACCEL and CACHE come from the
# environment unchanged (test.sh runs them against the suite's kernel).
# Sourced instead of tests/guest/lib/common.sh, whose ART is the guest's
# (/mnt/art): the host's, as run.sh shares it, is ART or build/.
_art=${ART:-}
. "$TOP/tests/guest/lib/common.sh"
ART=${_art:-$TOP/build}
. "$TOP/guest/lib.sh"

# A plain boot allows no splat: none of the caller's.
unset ALLOW_SPLAT

# boot NAME TIMEOUT CMD: guest/run.sh -r $RES/runner-NAME with TIMEOUT (s);
# sets rc (run.sh's exit status) and dir; run.sh's messages in $dir/run.out
boot() {
	_b=$1 _t=$2
	shift 2
	short_boot "$_b" "$_t" "$TOP/guest/run.sh" -r "$RES/runner-$_b" -- "$*"
}

# boot_suite NAME TIMEOUT TESTS: the suite's own boot of those guest tests
# (tests/boot-suite.sh $RES/runner-NAME with T=TESTS), as boot sets rc and dir
boot_suite() {
	short_boot "$1" "$2" env T="$3" "$TOP/tests/boot-suite.sh" "$RES/runner-$1"
}

# short_boot NAME TIMEOUT COMMAND...: COMMAND, which boots into
# $RES/runner-NAME, with the short boot's settings
short_boot() {
	dir=$RES/runner-$1 tmo=$2
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	rc=0
	# a guard of our own: a runner that never stops fails, and does not hang the suite
	SMP=1 NUMA=1 MEM=512 QUIET=1 TIMEOUT=$tmo timeout -k 10 $((tmo + 60)) \
		"$@" >"$dir/run.out" 2>&1 </dev/null || rc=$?
	sed 's/^/run.sh: /' "$dir/run.out"
	echo "run.sh exit status: $rc"
	[ "$rc" -ne 124 ] || fail "run.sh was still running $((tmo + 60)) s after its TIMEOUT=$tmo: killed"
}

# said ERE: run.sh's messages match ERE
said() {
	grep -Eq -- "$1" "$dir/run.out" || fail "run.sh did not say /$1/"
	echo "ok: run.sh said /$1/"
}

# need_splat: the test module tests/modules/splat.c, built by make module
need_splat() {
	[ -f "$ART/modules/splat.ko" ] ||
		fail "no $ART/modules/splat.ko: make module builds tests/modules"
}
