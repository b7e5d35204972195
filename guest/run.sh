#!/bin/sh
# run.sh [-r RESULTS] [--] CMD...: boot the patched kernel in QEMU, run CMD in
# the guest, return its exit status.
#
# The guest sees the repository at /mnt/repo (read-only), the host-built
# artifacts (build/) at /mnt/art (read-only) and RESULTS at /mnt/results
# (read-write, the guest's working directory), all over virtio-9p. The exit
# status of CMD comes back on its own virtio-serial port, so a guest that dies
# (panic=-1, -no-reboot) or hangs (TIMEOUT) can never look like a success, and
# the run fails when the kernel log shows a splat. Each way of failing has its
# own message (timeout, panic, splat, no status, the command's exit status),
# checked by the host tests runner-*. Console: RESULTS/console.log.
#
# Environment: ACCEL=auto|kvm|tcg  SMP=2  NUMA=2  MEM=2048 (MiB)  TIMEOUT=900 (s)
#   TCG_THREAD=single|multi (default single, see below)
#   APPEND='extra kernel args'  ICOUNT=1 (deterministic guest time: TCG, -icount)
#   QUIET=1 (do not echo the console)  PREEMPT=none|voluntary|full
#   KERNEL=path (another bzImage, e.g. tests/bisect.sh's)
#   VARIANT=normal|debug (which kernel of guest/kernel.sh, and its ART)
#   ALLOW_SPLAT='ERE|ERE' (kernel reports the caller expects, let through
#     the splat check with their stacks: guest/splat.awk; none by default.
#     tests/boot-suite.sh passes the "# allow-splat:" lines of the tests it
#     runs; the runner itself reads no test)
# Needs: qemu-system-x86, a kernel from kernel.sh, an image from rootfs.sh.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/usage.sh"

results=$TOP/results/run
while [ $# -gt 0 ]; do
	case $1 in
	-r) results=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) usage_help; exit 0 ;;
	-*) printf 'usage: run.sh [-r RESULTS] [--] CMD...\nrun: unknown option %s\n' "$1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: run.sh [-r RESULTS] [--] CMD..." >&2; exit 2; }

kernel=${KERNEL:-$CACHE/kernel/$(kernel_key)/bzImage}
rootfs=$CACHE/rootfs/$(rootfs_key).img
[ -f "$kernel" ] || die "no kernel for the current sources: run 'make kernel'"
[ -f "$rootfs" ] || die "no guest image for the current recipe: run 'make rootfs'"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"
SMP=${SMP:-2} NUMA=${NUMA:-2} MEM=${MEM:-2048} TIMEOUT=${TIMEOUT:-900}
[ $((MEM % NUMA)) -eq 0 ] || die "MEM=$MEM is not divisible by NUMA=$NUMA"
[ "$SMP" -eq 1 ] || [ $((SMP % NUMA)) -eq 0 ] || die "SMP=$SMP is not 1 and not divisible by NUMA=$NUMA"
# ALLOW_SPLAT before the boot: an ERE awk refuses, or one that matches an
# empty line (an empty alternative, 'a||b' in an awk that takes it) and so
# every report, would make the splat check useless
if [ -n "${ALLOW_SPLAT:-}" ]; then
	arc=0
	awk -v allow="$ALLOW_SPLAT" 'BEGIN { exit ("" ~ allow) ? 3 : 0 }' 2>/dev/null || arc=$?
	[ $arc -ne 3 ] || die "ALLOW_SPLAT='$ALLOW_SPLAT' matches an empty line, so it would let every report through"
	[ $arc -eq 0 ] || die "ALLOW_SPLAT='$ALLOW_SPLAT' is no ERE awk accepts"
fi

# KVM can be present and still unable to run a kernel (it fails, or crawls):
# boot ours with no root device and see whether it reaches the expected panic
# quickly. The answer is cached per host kernel, QEMU and guest kernel.
kvm_works() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	probe=$CACHE/kvm-probe.$({ uname -r; qemu-system-x86_64 --version; cat "$kernel"; } | hash_of)
	if [ ! -f "$probe" ]; then
		plog=$(mktemp)
		timeout -k 2 15 qemu-system-x86_64 -accel kvm -cpu host -m 256 -nodefaults \
			-display none -no-reboot -serial "file:$plog" -kernel "$kernel" \
			-append "console=ttyS0 panic=-1" >/dev/null 2>&1 || true
		if grep -q "Kernel panic" "$plog"; then echo yes; else echo no; fi >"$probe"
		rm -f "$plog"
	fi
	[ "$(cat "$probe")" = yes ]
}
accel=${ACCEL:-auto}
[ "${ICOUNT:-0}" = 1 ] && accel=tcg
if [ "$accel" = auto ]; then
	if kvm_works; then accel=kvm; else accel=tcg; fi
fi
case $accel in
kvm) cpu="-cpu host" accel_opt=kvm ;;
# One host thread for all vCPUs unless TCG_THREAD=multi: with multi-threaded
# TCG, a vCPU running through kernel text that another vCPU is patching
# (static keys flipped by trace event and probe registration) was seen to
# livelock in the int3 of text_poke_bp.
tcg) cpu="-cpu max" accel_opt=tcg,thread=${TCG_THREAD:-single} ;;
*) die "ACCEL must be auto, kvm or tcg" ;;
esac

# Two NUMA nodes by default (page migration needs them): memory and CPUs
# split evenly, one socket per node (an LLC spanning two nodes makes the
# scheduler warn at boot). With SMP=1 (icount) the CPU is node 0's and the
# other nodes have memory only.
numa=""
n=0
while [ $n -lt "$NUMA" ]; do
	per=$((SMP / NUMA))
	cpus=",cpus=$((n * per))-$((n * per + per - 1))"
	[ "$SMP" -eq 1 ] && { [ $n -eq 0 ] && cpus=",cpus=0" || cpus=""; }
	numa="$numa -object memory-backend-ram,id=m$n,size=$((MEM / NUMA))M"
	numa="$numa -numa node,nodeid=$n$cpus,memdev=m$n"
	n=$((n + 1))
done

smp="$SMP,sockets=$NUMA,cores=$((SMP / NUMA)),threads=1"
[ "$SMP" -eq 1 ] && smp=1
timing=""
if [ "${ICOUNT:-0}" = 1 ]; then
	timing="-icount shift=0,align=off,sleep=off -rtc clock=vm"
fi
append="console=ttyS0 root=/dev/vda rootfstype=ext4 rw init=/sbin/mmpreempt-init"
# log_buf_len: room for every test's share of the log (tests/ktap.sh reads it
# per test) and for the debug kernel's fault-injection stack dumps.
append="$append panic=-1 nokaslr norandmaps log_buf_len=8M ${QUIET_KERNEL-quiet}"
# The debug kernel marks the anon_vma caches for failslab's cache filter
# (6.1's per-cache sysfs switch is read-only; slub_debug's A flag sets it),
# so that tests/guest/fi-anon-vma.sh can fail their allocations alone.
[ "$VARIANT" = debug ] && append="$append slub_debug=A,anon_vma,anon_vma_chain"
[ -n "${PREEMPT:-}" ] && append="$append preempt=$PREEMPT"
append="$append ${APPEND:-}"

mkdir -p "$results" "$ART"
results=$(cd "$results" && pwd)
rm -f "$results/console.log" "$results/dmesg.txt"
printf '%s\n' "$*" >"$results/.cmd"
# how this boot ran, for whoever describes the results (record.sh's meta.json)
printf 'accel=%s\nsmp=%s\nnuma=%s\nmem_mib=%s\nicount=%s\nqemu=%s\nappend=%s\n' \
	"$accel${accel_opt#"$accel"}" "$SMP" "$NUMA" "$MEM" "${ICOUNT:-0}" \
	"$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')" "$append" \
	>"$results/qemu.env"
# The kernel's headers for bpftrace (guest/kernel.sh keeps them beside the
# image; a KERNEL= of another build has none, and bpftrace says so there).
khdr=$(dirname "$kernel")/headers
[ -d "$khdr" ] || khdr=""
chan=$(mktemp -d)
trap 'rm -rf "$chan"; rm -f "$results/.cmd"' EXIT
: >"$results/console.log"

log "booting $(cat "$CACHE/kernel/$(kernel_key)/kernel.release" 2>/dev/null || echo "$kernel") under $accel," \
	"$SMP vCPUs, $NUMA NUMA nodes, $MEM MiB${timing:+, icount}:" \
	"$(printf '%s' "$*" | tr -s '\n\t ' ' ' | cut -c1-100)"
t0=$(date +%s)
# shellcheck disable=SC2086 # the option lists are meant to split
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -machine q35 -accel "$accel_opt" $cpu \
	-smp "$smp" -m "${MEM}M" $numa $timing \
	-nodefaults -display none -no-reboot -monitor none \
	-chardev "file,id=con,path=$results/console.log" -serial chardev:con \
	-kernel "$kernel" -append "$append" \
	-drive "file=$rootfs,if=virtio,format=raw,snapshot=on" \
	-virtfs "local,path=$TOP,mount_tag=repo,security_model=none,readonly=on" \
	-virtfs "local,path=$ART,mount_tag=art,security_model=none,readonly=on" \
	-virtfs "local,path=$results,mount_tag=results,security_model=none" \
	${khdr:+-virtfs} ${khdr:+"local,path=$khdr,mount_tag=kheaders,security_model=none,readonly=on"} \
	-device virtio-serial-pci \
	-chardev "file,id=status,path=$chan/status" \
	-device virtserialport,chardev=status,name=mmpreempt.status \
	>"$chan/qemu.log" 2>&1 &
qpid=$!
if [ "${QUIET:-0}" != 1 ]; then
	tail -n +1 -f --pid="$qpid" "$results/console.log" &
fi
qrc=0
wait "$qpid" || qrc=$?
sleep 0.2
secs=$(elapsed "$t0")

if [ -s "$chan/qemu.log" ]; then
	sed 's/^/qemu: /' "$chan/qemu.log" >&2
fi
[ $qrc -eq 124 ] && die "guest timed out after $TIMEOUT s (console: $results/console.log)"
[ $qrc -eq 0 ] || die "qemu failed with status $qrc (console: $results/console.log)"
# A panic ends the boot at once (panic=-1, -no-reboot): say so, before its
# stack dump is taken for any splat.
if grep -E '^\[ *[0-9]+\.[0-9]+\] Kernel panic - not syncing' "$results/console.log" >"$chan/panic"; then
	head -n 1 "$chan/panic" >&2
	die "the guest kernel panicked (console: $results/console.log)"
fi
# The splat patterns, and why only timestamped lines: guest/splat.awk.
cat "$results/console.log" "$results/dmesg.txt" 2>/dev/null |
	awk -v allow="${ALLOW_SPLAT:-}" -f "$TOP/guest/splat.awk" >"$chan/splat" ||
	die "guest/splat.awk failed on the kernel log (console: $results/console.log)"
if [ -s "$chan/splat" ]; then
	head -n 20 "$chan/splat" >&2
	die "the kernel log shows a splat (console: $results/console.log)"
fi
status=$(cat "$chan/status" 2>/dev/null | tr -d '\r\n ')
case $status in
'' ) die "the guest died without reporting a status after $secs s (console: $results/console.log)" ;;
*[!0-9]*) die "garbled status '$status' from the guest" ;;
esac
if [ "$status" -ne 0 ]; then
	printf '%s: error: the command failed in the guest: exit status %s after %s s\n' \
		"$PROG" "$status" "$secs" >&2
	exit "$status"
fi
log "guest exited with status 0 after $secs s"
exit 0
