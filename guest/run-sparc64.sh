#!/bin/sh
# run-sparc64.sh: boot the sparc64 kernel under qemu-system-sparc64 -M sun4u on
# a static initramfs and run the guest's test list there (tests/sparc64/list,
# or LIST=file). The guest's init (tests/sparc64/init.c) writes a KTAP stream
# to a virtio-serial port; it is left in RESULTS/guest.tap, the console in
# RESULTS/console.log.
#
# Exit status: 0 when the guest reported "status 0" (every program passed),
# the console shows no panic and no splat (guest/splat.awk) and QEMU ended
# before TIMEOUT; otherwise non-zero, saying which.
#
# Usage: run-sparc64.sh [-r RESULTS]
# Environment: VARIANT=sparc64|sparc64-stock  TIMEOUT=600 (s)  MEM=512 (MiB)
#   ICOUNT=1 (deterministic guest time)  QUIET=1 (do not echo the console)
#   BIN=dir (the guest programs, default build/sparc64)  LIST=file
#   KERNEL=path (another boot image, e.g. an experiment's)
# Needs: qemu-system-sparc (make deps), a kernel from kernel-sparc64.sh,
# the programs of tests/sparc64/Makefile. QEMU's sparc64 machines have one CPU.
# Overhead: ~5 s of wall time to boot under TCG, then the tests.
set -eu
VARIANT=${VARIANT:-sparc64}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/usage.sh"
case $VARIANT in sparc64|sparc64-stock) ;; *) die "VARIANT=$VARIANT is no sparc64 kernel" ;; esac

results=$TOP/results/run-$VARIANT
while [ $# -gt 0 ]; do
	case $1 in
	-r) results=$2; shift 2 ;;
	-h|--help) usage_help; exit 0 ;;
	*) echo "usage: run-sparc64.sh [-r RESULTS]" >&2; exit 2 ;;
	esac
done
TIMEOUT=${TIMEOUT:-600} MEM=${MEM:-512}
bin=${BIN:-$TOP/build/sparc64}
list=${LIST:-$TOP/tests/sparc64/list}
image=${KERNEL:-$CACHE/kernel/$(kernel_key)/image}
[ -f "$image" ] || die "no $VARIANT kernel for the current sources: run 'make sparc64'"
release=$(cat "$(dirname "$image")/kernel.release" 2>/dev/null || echo "$image")
[ -x "$bin/init" ] || die "no guest programs in $bin: run 'make sparc64'"
[ -r "$list" ] || die "no test list $list"
command -v qemu-system-sparc64 >/dev/null || die "qemu-system-sparc64 missing: run 'make deps'"

mkdir -p "$results"
results=$(cd "$results" && pwd)
rm -f "$results/console.log" "$results/status" "$results/guest.tap"

# The initramfs: init, every program the list names, the list itself, and a
# console node (gen_init_cpio needs no root for it).
gic=$CACHE/tools/gen_init_cpio
if [ ! -x "$gic" ]; then
	mkdir -p "$CACHE/tools"
	src=$("$TOP/guest/kernel-src.sh")
	gcc -O2 -o "$gic" "$src/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
fi
progs=$(sed -e 's/#.*//' "$list" | awk 'NF >= 3 { print $3 }' | sort -u)
for p in $progs; do
	case $p in /bin/*) ;; *) die "$list: program $p is not in /bin" ;; esac
	[ -x "$bin/${p#/bin/}" ] || die "$list names $p, which $bin lacks"
done
{
	printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n'
	printf 'dir /proc 0755 0 0\ndir /sys 0755 0 0\ndir /tmp 1777 0 0\n'
	printf 'dir /bin 0755 0 0\ndir /tests 0755 0 0\n'
	printf 'file /init %s 0755 0 0\n' "$bin/init"
	printf 'file /tests/list %s 0644 0 0\n' "$list"
	for p in $progs; do printf 'file %s %s 0755 0 0\n' "$p" "$bin/${p#/bin/}"; done
} >"$results/initramfs.list"
"$gic" "$results/initramfs.list" | gzip -1 >"$results/initramfs.gz"

timing=""
[ "${ICOUNT:-0}" = 1 ] && timing="-icount shift=0,align=off,sleep=off -rtc clock=vm"
# oops=panic: an oops ends the boot (panic=-1, -no-reboot) instead of
# leaving the guest to hang until TIMEOUT
append="console=ttyS0 panic=-1 oops=panic ${APPEND:-}"
printf 'machine=sun4u\nmem_mib=%s\nicount=%s\nqemu=%s\nappend=%s\nkernel=%s\n' \
	"$MEM" "${ICOUNT:-0}" "$(qemu-system-sparc64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')" \
	"$append" "$release" >"$results/boot.txt"
log "booting $release under qemu-system-sparc64 -M sun4u, $MEM MiB${timing:+, icount}"
t0=$(date +%s)
# shellcheck disable=SC2086 # the option list is meant to split
timeout -k 5 "$TIMEOUT" qemu-system-sparc64 -M sun4u -m "$MEM" $timing \
	-display none -no-reboot -monitor none \
	-chardev "file,id=con,path=$results/console.log" -serial chardev:con \
	-kernel "$image" -initrd "$results/initramfs.gz" -append "$append" \
	-device virtio-serial-pci,bus=pciB,disable-modern=on \
	-chardev "file,id=st,path=$results/status" \
	-device virtserialport,chardev=st,name=status \
	>"$results/qemu.log" 2>&1 &
qpid=$!
[ "${QUIET:-0}" = 1 ] || tail -n +1 -f --pid="$qpid" "$results/console.log" &
qrc=0
wait "$qpid" || qrc=$?
sleep 0.2
secs=$(elapsed "$t0")
[ -s "$results/qemu.log" ] && sed 's/^/qemu: /' "$results/qemu.log" >&2
tr -d '\r' <"$results/status" 2>/dev/null | grep -v '^status ' >"$results/guest.tap" || true
[ $qrc -eq 124 ] && die "guest timed out after $TIMEOUT s (console: $results/console.log)"
[ $qrc -eq 0 ] || die "qemu failed with status $qrc (console: $results/console.log)"
if grep -E '^\[ *[0-9]+\.[0-9]+\] Kernel panic - not syncing' "$results/console.log" >"$results/.panic"; then
	head -n 1 "$results/.panic" >&2
	die "the guest kernel panicked (console: $results/console.log)"
fi
awk -f "$TOP/guest/splat.awk" "$results/console.log" >"$results/.splat"
if [ -s "$results/.splat" ]; then
	head -n 20 "$results/.splat" >&2
	die "the kernel log shows a splat (console: $results/console.log)"
fi
status=$(tr -d '\r' <"$results/status" 2>/dev/null | sed -n 's/^status //p' | tail -n 1)
case $status in
'') die "the guest died without reporting a status after $secs s (console: $results/console.log)" ;;
*[!0-9]*) die "garbled status '$status' from the guest" ;;
esac
if [ "$status" -ne 0 ]; then
	printf '%s: error: %s test program(s) failed in the guest after %s s\n' "$PROG" "$status" "$secs" >&2
	exit 1
fi
log "guest reported status 0 after $secs s"
