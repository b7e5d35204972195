#!/bin/sh
# description: every bpftrace tool in bpf-scripts/ compiles, attaches and,
#   run around a workload that exercises it, prints each histogram and
#   count it promises with samples in it, and no error
# requires: bpftrace, mmpreempt.ko (alllocks.bt's workload), the workloads
# timeout: 300
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
d=$RES/bpf-tools
mkdir -p "$d"
cd /tmp
bad=0

# has FILE MAP: the map is printed with a non-zero value or bucket
has() {
	awk -v m="$2" '
	index($0, m) == 1 && (substr($0, length(m) + 1, 1) ~ /[:\[]/) {
		on = 1
		if ($0 ~ /: [0-9]+$/ && $NF > 0) n++
		next
	}
	on && /^\[/ { if ($(NF - 1) + 0 > 0) n++; next }
	on && /^$/ { on = 0 }
	END { exit !n }' "$1"
}

# tool NAME WORKLOAD MAP...
tool() {
	n=$1 w=$2
	shift 2
	out=$d/$n.txt
	if ! bpftrace -c "$w" "$REPO/bpf-scripts/$n.bt" >"$out" 2>"$d/$n.err"; then
		echo "FAIL: $n.bt around '$w' exited non-zero:"
		cat "$d/$n.err"
		bad=1
		return
	fi
	if grep -Ei 'error|warning' "$d/$n.err"; then
		echo "FAIL: $n.bt printed errors or warnings"
		bad=1
	fi
	grep -q '^Tracing .*Hit Ctrl-C to end' "$out" || { echo "FAIL: $n.bt: no BEGIN banner"; bad=1; }
	for m in "$@"; do
		if has "$out" "$m"; then
			echo "ok: $n.bt printed $m with samples"
		else
			echo "FAIL: $n.bt: $m missing or empty"
			bad=1
		fi
	done
}

B=$ART/bin
tool anon_vma_lat "$B/forktree --depth 2 --width 3" @write_wait_ns @write_hold_ns @holds_by_comm
tool anon_vma_life "$B/forktree --depth 2 --width 3" @lifetime_ns @refcount_peak \
	@children_born @roots_born @children_freed @root_refcount_at_get
tool i_mmap_lat "$B/filemap --procs 4 --pages 64" @write_wait_ns @write_hold_ns @hold_ns_by_ino
tool tlb_batch "$B/unmap --mib 64" @pages_per_flush @batches_per_flush @flushes_per_gather \
	@batches_per_gather @gather_ns @batch_alloc_ok @gathers_range
tool preempt_points "$B/unmap --mib 128" @stretch_ns @points
tool alllocks "$B/alllocks --roots 300 --files 30 --module" @take_ns @held_ns @locks_per_call
# alllocks.bt's per-call line: the roots and mappings of that very call
awk '$2 == "alllocks" && $3 >= 300 && $4 >= 30 && $6 == 0 { f = 1 } END { exit !f }' \
	"$d/alllocks.txt" && echo "ok: alllocks.bt printed the call with >= 300 roots, >= 30 mappings" ||
	{ echo "FAIL: alllocks.bt: no per-call line for the workload"; bad=1; }
[ $bad -eq 0 ] || fail "a bpftrace tool did not deliver (outputs in $d)"
