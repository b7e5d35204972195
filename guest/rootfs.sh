#!/bin/sh
# rootfs.sh: the guest's root filesystem, a raw ext4 image made without loop
# mounts (debootstrap into a folder, then mkfs.ext4 -d). Debian bookworm
# minbase plus guest/rootfs.packages, stripped of docs, locales and apt caches.
# Cached as $CACHE/rootfs/<key>.img, key = hash of this recipe; QEMU opens it
# with snapshot=on, so no run ever changes it. Needs: root, debootstrap,
# e2fsprogs, network access to a Debian mirror. Prints the image path last.
set -eu
. "$(dirname "$0")/lib.sh"

MIRROR=${MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
key=$(rootfs_key)
img=$CACHE/rootfs/$key.img
if [ -f "$img" ]; then
	log "up to date: $img"
	echo "$img"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null || die "debootstrap missing: run 'make deps'"

mkdir -p "$CACHE/rootfs" "$CACHE/logs"
dir=$CACHE/rootfs/$key.dir
rm -rf "$dir"
pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/guest/rootfs.packages" | paste -sd, -)
logf=$CACHE/logs/rootfs.log
t0=$(date +%s)
log "debootstrap $SUITE minbase + $pkgs (log: $logf)"
debootstrap --variant=minbase --include="$pkgs" "$SUITE" "$dir" "$MIRROR" >"$logf" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sleep 15
	kill -0 "$pid" 2>/dev/null && log "$(tail -n 1 "$logf" | cut -c1-70) ($(elapsed "$t0") s)"
done
wait "$pid" || { tail -n 20 "$logf" >&2; die "debootstrap failed (log: $logf)"; }
raw=$(du -sm "$dir" | cut -f1)

# What a test guest never reads. libclang-cpp is a dependency of the bpftrace
# package that bpftrace itself does not load (it links libclang and LLVM).
rm -rf "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* \
	"$dir"/usr/share/locale/* "$dir"/var/cache/apt/* "$dir"/var/lib/apt/lists/* \
	"$dir"/var/cache/debconf/*-old "$dir"/var/log/*
rm -f "$dir"/usr/lib/llvm-*/lib/libclang-cpp.so* "$dir"/usr/lib/x86_64-linux-gnu/libclang-cpp.so*

install -m 0755 "$TOP/guest/rootfs-init" "$dir/sbin/mmpreempt-init"
echo mmpreempt >"$dir/etc/hostname"
mkdir -p "$dir/mnt/repo" "$dir/mnt/art" "$dir/mnt/results"

size=$(du -sm "$dir" | cut -f1)
mkfs.ext4 -q -F -L mmpreempt -d "$dir" "$img.tmp" "$((size + size / 4 + 64))M"
rm -rf "$dir"
mv "$img.tmp" "$img"
log "image $img: ${raw} MB unpacked, ${size} MB after stripping, built in $(elapsed "$t0") s"
echo "$img"
