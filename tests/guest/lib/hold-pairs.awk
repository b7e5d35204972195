# Sourced before lib/holds.awk, lib/top-roots.awk and lib/lock-times.awk
# (events_awk "$(cat hold-pairs.awk X.awk)"): one way to pair a lock's holds,
# as mmpreempt.ko times them. KEY names a task's hold of one lock in one
# mode; an acquired with success=true opens a hold, the task's next release
# of that lock in that mode closes the last one opened (a task that holds a
# read lock twice releases the later first).
function hold_open(key, ns) { hold_t[key, ++hold_n[key]] = ns }
# The closed hold's length in ns, or -1 when KEY has no hold open (its
# acquisition lies before the trace).
function hold_close(key, ns,   t0) {
	if (hold_n[key] <= 0)
		return -1
	t0 = hold_t[key, hold_n[key]]
	delete hold_t[key, hold_n[key]]
	hold_n[key]--
	return ns - t0
}
