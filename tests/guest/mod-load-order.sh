#!/bin/sh
# description: a load attaches every probe before it creates any debugfs file
#   kprobe events on tracepoint_probe_register() (the tracepoint's name)
#   and debugfs_create_file() (the file's name) record one load of
#   mmpreempt.ko: all its probes are registered, consumers first (each
#   family's last event first: released before acquired before start, free
#   before alloc, a gather's finish before its start), before the first
#   file exists, so that no file can be open on a load that a failed
#   attach undoes. About 3 s.
# requires: mmpreempt.ko
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
unload_module
inst=$TRACEFS/instances/mod-load-order
cleanup() {
	rmdir "$inst" 2>/dev/null || :
	echo '-:mmp_load/tp_reg' >>$TRACEFS/kprobe_events 2>/dev/null || :
	echo '-:mmp_load/dbgfs' >>$TRACEFS/kprobe_events 2>/dev/null || :
}
cleanup
trap cleanup EXIT
echo 'p:mmp_load/tp_reg tracepoint_probe_register tp=+0(+0($arg1)):string' >>$TRACEFS/kprobe_events &&
	echo 'p:mmp_load/dbgfs debugfs_create_file file=+0($arg1):string' >>$TRACEFS/kprobe_events ||
	fail "cannot define the kprobe events"
mkdir "$inst" || fail "cannot make the tracefs instance $inst"
echo 1 >"$inst/events/mmp_load/enable"
load_module
echo 0 >"$inst/events/mmp_load/enable"
d=$RES/mod-load-order
mkdir -p "$d"
grep -E 'insmod-[0-9]+ .* (tp_reg|dbgfs):' "$inst/trace" >"$d/load.txt"
awk '
/ tp_reg:/ { if (files) late++; split($0, a, "tp=\""); tp = substr(a[2], 1, length(a[2]) - 1); order[++n] = tp; next }
/ dbgfs:/ { files++ }
END {
	printf "measured: %d probes registered, %d debugfs files made, %d registrations after the first file\n", n, files, late
	for (i = 1; i <= n; i++) pos[order[i]] = i
	# consumers first: each pair is (end event, its beginning)
	split("anon_vma_lock_released anon_vma_lock_acquired anon_vma_lock_acquired anon_vma_lock_start " \
	      "i_mmap_lock_released i_mmap_lock_acquired i_mmap_lock_acquired i_mmap_lock_start " \
	      "mmu_gather_finish mmu_gather_start anon_vma_free anon_vma_alloc anon_vma_attach anon_vma_alloc", p, " ")
	for (i = 1; i in p; i += 2) {
		if (!(p[i] in pos) || !(p[i + 1] in pos)) { printf "FAIL: %s or %s never registered\n", p[i], p[i + 1]; bad = 1; continue }
		if (pos[p[i]] > pos[p[i + 1]]) { printf "FAIL: %s registered after %s\n", p[i], p[i + 1]; bad = 1 }
	}
	if (n < 20) { printf "FAIL: only %d registrations recorded\n", n; bad = 1 }
	if (files < 5) { printf "FAIL: only %d debugfs files recorded\n", files; bad = 1 }
	if (late) { printf "FAIL: %d probes registered after a debugfs file existed\n", late; bad = 1 }
	exit bad
}' "$d/load.txt" || { head -n 40 "$d/load.txt"; fail "the load did not attach first, consumers first"; }
echo "ok: every probe attached, consumers first, before the first debugfs file"
