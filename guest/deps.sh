#!/bin/sh
# deps.sh: install, with apt-get, every Debian package the kit needs on the
# host, and nothing when all are present (no apt-get update either).
# Needs: Debian 12, root (or sudo).
set -eu
. "$(dirname "$0")/lib.sh"

# kernel build | guest | sparc64 cross build and guest (OpenBIOS is in
# qemu-system-data) | trace reading, reports, plots | kernelshark
# screenshots (Xvfb, xwd, xwininfo, netpbm) | checks
pkgs="linux-source-6.1 gcc make bc bison flex libelf-dev libssl-dev ccache cpio xz-utils git perl shellcheck
qemu-system-x86 debootstrap e2fsprogs
gcc-sparc64-linux-gnu libc6-dev-sparc64-cross qemu-system-sparc qemu-system-data
trace-cmd kernelshark libtracecmd-dev libtraceevent-dev libtracefs-dev gnuplot-nox pkg-config
xvfb x11-apps x11-utils netpbm
ca-certificates"

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $st in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done
if [ -z "$missing" ]; then
	log "all $(echo $pkgs | wc -w) packages present"
	exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
log "installing:$missing"
t0=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
log "installed in $(elapsed "$t0") s"
