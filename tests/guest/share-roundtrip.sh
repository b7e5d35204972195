#!/bin/sh
# description: guest reads the host's nonce and writes 1 MiB plus digest to the share
#   the results share carries files both ways: the host's nonce is
#   read here, and what is written here is checked by the host (host test
#   share-roundtrip)
#   The host writes share/nonce before the boot
# requires:
# timeout: 20
. "$(dirname "$0")/lib/common.sh"
d=$RES/share
[ -s "$d/nonce" ] || fail "the host's nonce is missing from the share"
nonce=$(cat "$d/nonce")
# 1 MiB of guest randomness, plus its digest as computed here.
head -c 1048576 /dev/urandom >"$d/from-guest.bin"
sha256sum <"$d/from-guest.bin" | cut -d' ' -f1 >"$d/from-guest.sha256"
echo "$nonce" >"$d/nonce-echo"
sync
expect "re-read digest" "$(sha256sum <"$d/from-guest.bin" | cut -d' ' -f1)" "$(cat "$d/from-guest.sha256")"
