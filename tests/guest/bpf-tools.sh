#!/bin/sh
# description: each bpftrace tool in bpf-scripts counts exactly what mmpreempt.ko does
#   every bpftrace tool in bpf-scripts/ compiles, attaches and
#   counts what mmpreempt.ko counts, exactly, over the same window: the
#   tool's banner (all its probes attached), then a module reset, a
#   workload, a snapshot of the module's stats, SIGTERM (its probes
#   detached) with nothing in between that fires an mm event (a perl
#   driver: no fork, no file created, no heap growth after the snapshot).
#   Lock tools: acquisitions, contended, failed trylocks and releases per
#   kind and mode, timed holds; a single-task run reads 0 contended; N
#   waits forced behind a holder (contend + lock_hold.ko) read exactly N
#   per mode, each with one timed wait. tlb_batch: gathers (fullmm, range,
#   nested), flushes, pages, batch allocations. anon_vma_life: births,
#   attaches, gets, failed gets, reuses, frees. preempt_points: preemption
#   points. alllocks: calls, roots, mappings. A count that is 0 in both is
#   reported n/a, and the ones each workload must produce are required to be
#   non-zero; each tool's histograms must hold samples.
# requires: bpftrace perl mmpreempt.ko lock_hold.ko unmap forktree filemap contend alllocks
# debug-ci: skip 510 s there; what it adds to the series' events and the
#   module's probes, which mod-vs-trace and contention-exact run on that
#   kernel in CI, is bpftrace's own programs
# timeout: 600
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
load_module
[ -e /sys/kernel/debug/lock_hold ] ||
	insmod "$ART/modules/lock_hold.ko" || fail "insmod lock_hold.ko failed"
d=$RES/bpf-tools
mkdir -p "$d"
cd /tmp || fail "no /tmp"
B=$ART/bin
N=3
bad=0

# The window driver. Starts bpftrace with the tool, its stdout on a pipe;
# reads up to the tool's banner (BEGIN's printf reaches the output only once
# every probe is attached); writes 1 to the module's reset; runs the
# workload; reads the module's stats in one go; sends SIGTERM and repeats it
# every second until bpftrace has left its poll loop (bpftrace 0.17 loses a
# signal that lands between two epoll_wait()s), which is when it detaches
# its probes, and says so with the blank lines it prints before its maps.
# SIGTERM, not SIGINT: bpftrace 0.17 takes both as "stop tracing", but dies
# of a SIGINT that comes once it has left the loop, before its maps print.
# Files are opened, and buffers sized, before the window: creating a file
# can take an i_mmap lock (9p truncates on create), growing the heap takes
# the heap's anon_vma lock; a tool would count those, the module not.
# ARGV: tool out err stats workload...; exit status: the workload's, 125 on
# a driver failure.
# shellcheck disable=SC2016 # perl, not shell
DRIVER='
use strict;
use warnings;
my ($tool, $outf, $errf, $statsf, @cmd) = @ARGV;
my $dbg = "/sys/kernel/debug/mmpreempt";
sub bail { print STDERR "bpf-tools driver: @_\n"; exit 125; }
open(my $out, ">", $outf) or bail("$outf: $!");
open(my $snap, ">", $statsf) or bail("$statsf: $!");
open(my $reset, ">>", "$dbg/reset") or bail("reset: $!");
open(my $stats, "<", "$dbg/stats") or bail("stats: $!");
pipe(my $r, my $w) or bail("pipe: $!");
my $pid = fork();
defined $pid or bail("fork: $!");
if (!$pid) {
	close($r);
	open(STDOUT, ">&", $w) or die "stdout: $!";
	open(STDERR, ">", $errf) or die "$errf: $!";
	# no heap trim and no munmap by free() while its probes are attached
	$ENV{GLIBC_TUNABLES} =
		"glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432";
	exec("bpftrace", "-B", "line", $tool) or die "exec bpftrace: $!";
}
close($w);
# buffers read into in place, never grown (sysread sets their length)
my $chunk = "\0" x 65536;
my $s = "\0" x 65536;
my $seen = "\0" x 65536;
my $rin = "";
vec($rin, fileno($r), 1) = 1;
my ($rout, $n, $len) = ("", 0, 0);
# 1. the banner, within 300 s
my $until = time() + 300;
while ($seen !~ /^Tracing .*Hit Ctrl-C to end\.$/m) {
	my $left = $until - time();
	if ($left <= 0) { kill(9, $pid); bail("no banner from $tool in 300 s"); }
	next unless select($rout = $rin, undef, undef, $left) > 0;
	$len < 60000 or bail("no banner in the first $len bytes from $tool");
	$n = sysread($r, $seen, 65536 - $len, $len);
	if (!$n) { waitpid($pid, 0); bail("bpftrace exited before its banner (status $?)"); }
	syswrite($out, $seen, $n, $len);
	$len += $n;
}
# 2. the window
syswrite($reset, "1", 1) == 1 or bail("reset: $!");
my $rc = system(@cmd);
$len = 0;
while (($n = sysread($stats, $s, 65536 - $len, $len)) > 0) { $len += $n; }
syswrite($snap, $s, $len);
# 3. SIGTERM until the first blank line, then the rest
kill(15, $pid);
my ($tries, $prev_nl, $detached) = (1, 1, 0);
while (!$detached) {
	if (select($rout = $rin, undef, undef, 1) > 0) {
		$n = sysread($r, $chunk, 65536);
		last if !$n;
		syswrite($out, $chunk, $n);
		# (no temporary copies of the chunk: no allocation here)
		$detached = 1 if ($prev_nl && $chunk =~ /^\n/) || index($chunk, "\n\n") >= 0;
		$prev_nl = $chunk =~ /\n\z/;
	} elsif ($tries >= 60) {
		kill(9, $pid);
		bail("bpftrace still tracing 60 s after SIGTERM");
	} else {
		kill(15, $pid);
		$tries++;
	}
}
print "bpf-tools driver: bpftrace detached after $tries SIGTERM(s)\n";
while (($n = sysread($r, $chunk, 65536)) > 0) { syswrite($out, $chunk, $n); }
waitpid($pid, 0);
bail("bpftrace exited with status $?") if $?;
exit($rc == -1 ? 125 : ($rc >> 8) | ($rc & 127));
'

# run NAME TOOL WORKLOAD...: one window; the tool's output in $d/NAME.txt,
# its stderr in $d/NAME.err, the module's stats in $d/NAME.stats, the
# workload's output in $d/NAME.log
run() {
	_n=$1 _t=$2
	shift 2
	rc=0
	perl -e "$DRIVER" "$REPO/bpf-scripts/$_t.bt" "/tmp/$_n.txt" "/tmp/$_n.err" \
		"/tmp/$_n.stats" "$@" >"/tmp/$_n.log" 2>&1 || rc=$?
	for f in txt err stats log; do cp "/tmp/$_n.$f" "$d/$_n.$f" 2>/dev/null || true; done
	# shellcheck disable=SC2034 # STATS is read by stat_of (lib/module.sh)
	OUT=$d/$_n.txt STATS=$d/$_n.stats
	case $rc in
	0) echo "ok: $_n: $_t.bt around '$*': window closed, $(sed -n 's/^bpf-tools driver: //p' "$d/$_n.log")" ;;
	125) cat "$d/$_n.log" "$d/$_n.err"; fail "$_n: the window could not be run" ;;
	*) cat "$d/$_n.log"; fail "$_n: the workload '$*' failed (status $rc)" ;;
	esac
	if grep -Ei 'error|warning' "$d/$_n.err"; then
		echo "FAIL: $_n: $_t.bt printed errors or warnings"
		bad=1
	fi
}

# tv NAME: the value the tool printed as "NAME: V" in $OUT ("" if none)
tv() {
	awk -v m="$1: " 'index($0, m) == 1 { v = substr($0, length(m) + 1) } END { print v }' "$OUT"
}

# tsum NAME...: the sum of the tool's values, "" if one is missing
tsum() {
	_s=0
	for _m in "$@"; do
		_v=$(tv "$_m")
		[ -n "$_v" ] || { echo; return; }
		_s=$((_s + _v))
	done
	echo $_s
}

# samples MAP: the samples in the histogram MAP in $OUT, or the sum of a
# map of counts keyed by value (@MAP[k]: n); 0 if not printed
samples() {
	awk -v m="$1: " -v k="$1[" '
	index($0, k) == 1 { v = $0; sub(/.*\]: */, "", v); n += v; next }
	index($0, m) == 1 { on = 1; next }
	on && /^[[(]/ { sub(/^[[(][^])]*[])] */, ""); n += $1; next }
	on { on = 0 }
	END { print n + 0 }' "$OUT"
}

# same [-x] WHAT TOOL MODULE: exactly equal; 0 in both is n/a, and with -x
# (the workload must produce it) a failure
same() {
	_x=0
	[ "$1" = -x ] && { _x=1; shift; }
	if [ -z "$2" ]; then
		echo "FAIL: $1: the tool printed no value ($OUT)"
		bad=1
	elif [ -z "$3" ]; then
		echo "FAIL: $1: no module value"
		bad=1
	elif [ "$2" != "$3" ]; then
		echo "FAIL: $1: tool $2, module $3"
		bad=1
	elif [ "$2" = 0 ] && [ $_x = 1 ]; then
		echo "FAIL: $1: 0 in both: the workload did not exercise it"
		bad=1
	elif [ "$2" = 0 ]; then
		echo "n/a: $1: 0 in both"
	else
		echo "ok: $1: tool $2 = module $3"
	fi
}

# want WHAT GOT WANT: exact expectation, said either way
want() {
	if [ "$2" = "$3" ]; then echo "ok: $1 = $2"; else echo "FAIL: $1: got '$2', want '$3'"; bad=1; fi
}

# has MAP: the histogram MAP holds samples
has() {
	_s=$(samples "$1")
	if [ "$_s" -gt 0 ]; then echo "ok: $1 has $_s samples"; else echo "FAIL: $1 missing or empty ($OUT)"; bad=1; fi
}

# locks KIND MUST: every per-mode count of a lock tool against the module;
# MUST: the modes whose acquisitions and releases must be non-zero
locks() {
	for m in read write; do
		x=""
		case " $2 " in *" $m "*) x=-x ;; esac
		# shellcheck disable=SC2086 # $x is empty or one option
		same $x "$1 $m acquired" "$(tv "@acquired[$1, $m]")" "$(stat_of "$1.lock.$m.acquired")"
		same "$1 $m contended" "$(tv "@contended[$1, $m]")" "$(stat_of "$1.lock.$m.contended")"
		same "$1 $m trylock_failed" "$(tv "@trylock_failed[$1, $m]")" \
			"$(stat_of "$1.lock.$m.trylock_failed")"
		# shellcheck disable=SC2086
		same $x "$1 $m released" "$(tv "@released[$1, $m]")" "$(stat_of "$1.lock.$m.released")"
		# shellcheck disable=SC2086
		same $x "$1 $m timed holds" "$(samples "@${m}_hold_ns")" "$(stat_of "$1.lock.$m.holds_timed")"
		# a wait is timed for every contended acquisition, and only for those
		same "$1 $m timed waits (tool) vs contended" "$(samples "@${m}_wait_ns")" \
			"$(stat_of "$1.lock.$m.contended")"
	done
}

# single KIND TOOL: one task alone reads 0 contended, in both modes
single() {
	run "$1-single" "$2" "$B/unmap" --mib 16
	locks "$1" write
	for m in read write; do
		want "$1 single task: tool @contended[$1, $m]" "$(tv "@contended[$1, $m]")" 0
		want "$1 single task: module $1.lock.$m.contended" "$(stat_of "$1.lock.$m.contended")" 0
	done
}

# forced KIND TOOL: N waits behind a holder, per mode, read exactly N
forced() {
	run "$1-forced" "$2" sh -c "$B/contend --lock $1 --mode read --waiters $N &&
		$B/contend --lock $1 --mode write --waiters $N"
	locks "$1" "read write"
	for m in read write; do
		want "$1 forced: tool @contended[$1, $m]" "$(tv "@contended[$1, $m]")" $N
		want "$1 forced: module $1.lock.$m.contended" "$(stat_of "$1.lock.$m.contended")" $N
		want "$1 forced: tool's timed $m waits" "$(samples "@${m}_wait_ns")" $N
	done
}

single anon_vma anon_vma_lat
forced anon_vma anon_vma_lat
run anon_vma-forktree anon_vma_lat "$B/forktree" --depth 2 --width 3
locks anon_vma write
has @write_hold_ns
same -x "anon_vma holds by comm (sum)" \
	"$(awk -F': ' '/^@holds_by_comm\[/ { s += $2 } END { print s + 0 }' "$OUT")" \
	$(($(stat_of anon_vma.lock.read.holds_timed) + $(stat_of anon_vma.lock.write.holds_timed)))

single i_mmap i_mmap_lat
forced i_mmap i_mmap_lat
run i_mmap-filemap i_mmap_lat "$B/filemap" --procs 4 --pages 64
locks i_mmap "read write"
has @write_hold_ns
has @read_hold_ns
if grep -q '^@hold_ns_by_ino\[[0-9]*\]: [1-9]' "$OUT"; then
	echo "ok: @hold_ns_by_ino printed"
else
	echo "FAIL: no @hold_ns_by_ino line"
	bad=1
fi

run tlb_batch tlb_batch "$B/unmap" --mib 64
same -x "gathers fullmm" "$(tv @gathers_fullmm)" "$(stat_of mmu_gather.gathers_fullmm)"
same -x "gathers (fullmm + range)" "$(tsum @gathers_fullmm @gathers_range)" "$(stat_of mmu_gather.gathers)"
same "gathers nested" "$(tv @gathers_nested)" "$(stat_of mmu_gather.gathers_nested)"
same -x "flushes" "$(tv @flushes)" "$(stat_of mmu_gather.flushes)"
same -x "flushes (@pages_per_flush samples)" "$(samples @pages_per_flush)" "$(stat_of mmu_gather.flushes)"
same -x "pages flushed" "$(tv @pages_flushed)" "$(stat_of mmu_gather.pages)"
same -x "batch allocations" "$(tv @batch_alloc_ok)" "$(stat_of mmu_gather.batch_alloc)"
same -x "batch allocations failed" "$(tv @batch_alloc_failed)" "$(stat_of mmu_gather.batch_alloc_failed)"
same -x "gathers timed (@gather_ns samples)" "$(samples @gather_ns)" "$(stat_of mmu_gather.gathers)"
for m in @batches_per_flush @flushes_per_gather @batches_per_gather; do has $m; done

run anon_vma_life anon_vma_life sh -c "$B/forktree --depth 2 --width 3 && $B/forktree --chain 4"
same -x "anon_vma births" "$(tv @born)" "$(stat_of anon_vma.alloc)"
same -x "anon_vma attaches" "$(tv @attached)" "$(stat_of anon_vma.attach)"
same -x "anon_vma gets" "$(tv @gets)" "$(stat_of anon_vma.get)"
same "anon_vma failed gets" "$(tv @get_failed)" "$(stat_of anon_vma.get_failed)"
same -x "anon_vma reuses" "$(tv @reused)" "$(stat_of anon_vma.reuse)"
same -x "anon_vma frees (roots + children)" "$(tsum @roots_freed @children_freed)" "$(stat_of anon_vma.free)"
for m in @lifetime_ns @refcount_peak @root_refcount_at_get; do has $m; done

# the points fire only while tlb_preempt_points is on (the default)
tpp=/sys/kernel/debug/mm/tlb_preempt_points
[ "$(cat $tpp)" = Y ] || fail "$tpp is off: the preemption points cannot fire"
run preempt_points preempt_points "$B/unmap" --mib 128
same -x "preemption points" "$(tv @points)" "$(stat_of mmu_gather.preemption_points)"
same "preemption points with need_resched" "$(tv @points_with_need_resched)" \
	"$(stat_of mmu_gather.preemption_points_pending)"
has @stretch_ns

run alllocks alllocks "$B/alllocks" --roots 300 --files 30 --module
# alllocks.bt's per-call lines: "PID COMM ROOTS MAPPINGS TAKE_US RET"
calls=$(awk '$1 ~ /^[0-9]+$/ && NF == 6 { n++ } END { print n + 0 }' "$OUT")
same -x "mm_take_all_locks calls" "$calls" "$(stat_of mm_all_locks.calls)"
same -x "mm_take_all_locks roots" "$(awk '$1 ~ /^[0-9]+$/ && NF == 6 { s += $3 } END { print s + 0 }' "$OUT")" \
	"$(stat_of mm_all_locks.anon_vma_roots)"
same -x "mm_take_all_locks mappings" "$(awk '$1 ~ /^[0-9]+$/ && NF == 6 { s += $4 } END { print s + 0 }' "$OUT")" \
	"$(stat_of mm_all_locks.mappings)"
if awk '$2 == "alllocks" && $3 >= 300 && $4 >= 30 && $6 == 0 { f = 1 } END { exit !f }' "$OUT"; then
	echo "ok: alllocks.bt printed the call with >= 300 roots, >= 30 mappings"
else
	echo "FAIL: alllocks.bt: no per-call line for the workload"
	bad=1
fi
for m in @take_ns @held_ns @locks_per_call; do has $m; done

[ $bad -eq 0 ] || fail "a bpftrace tool and mmpreempt.ko disagree, or a tool did not deliver (outputs in $d)"
echo "ok: every bpftrace tool counts what mmpreempt.ko counts over the same window"
