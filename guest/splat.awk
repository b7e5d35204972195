# splat.awk: the lines of a kernel log (console or dmesg) that show a splat,
# one per line; no output means a clean log. Used by guest/run.sh (and
# guest/run-sparc64.sh) over a whole boot and by tests/ktap.sh over each
# test's share of dmesg.
#
# A line counts only with a printk timestamp: a test that prints "WARNING:"
# itself is not the kernel, and a kernel splat cannot hide behind one.
# Fault injection prints a stack dump with each failure it forces
# ("FAULT_INJECTION: forcing a failure." and, at verbose=2, dump_stack());
# the suite forces those on purpose and reads them to see where each one hit.
# Inside such a dump its "Call Trace:" and frame lines are skipped; anything
# else that looks like a splat still counts. The dump ends at "</TASK>" (or
# after 80 lines, so that a missing end cannot hide the rest of the log).
# The caller may let more such reports pass (-v allow=ERE): a guest test
# declares them with "# allow-splat: ERE" lines in its header; tests/ktap.sh
# applies a test's own to its share of the log, and guest/run.sh applies
# what its caller gives it in ALLOW_SPLAT (tests/boot-suite.sh: those of the
# tests it runs) to the whole boot. awk reads -v values with escapes: write
# [.] for a literal dot, not a backslash.
/^\[ *[0-9]+\.[0-9]+\] / {
	if (/FAULT_INJECTION: forcing a failure/) { fi = 80; next }
	# allow (-v allow=ERE): reports the caller lets pass (a test's
	# "# allow-splat:" lines: the kernel's own answer to what it forces);
	# the matching line and its stack are skipped as a fault-injection dump is
	if (allow != "" && $0 ~ allow) { fi = 80; next }
	if (fi > 0) {
		fi--
		if (/<\/TASK>/) { fi = 0; next }
		if (/Call Trace:/) next
		# a frame: "[ t]  func+0x1/0x2" or "[ t]  ? func+0x1/0x2"
		if (/^\[ *[0-9]+\.[0-9]+\]  (\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+/) next
	}
	# lockdep, KASAN, UBSAN, DEBUG_VM, DEBUG_OBJECTS, DEBUG_LIST, might_sleep
	# and the lockup detectors all say BUG: or WARNING: or dump a stack;
	# the rest is what a report prints when those lines are missing (a
	# KASAN or UBSAN report's banner, lockdep giving up, a hung task)
	if (/BUG:|WARNING:|Oops|Call Trace:|KASAN:|UBSAN:|turning off the locking correctness validator|INFO: task .* blocked for more than|detected stalls? on CPU/) print
}
