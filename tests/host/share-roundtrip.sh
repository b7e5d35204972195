#!/bin/sh
# description: guest's 1 MiB file arrives intact (sha256) and the host's nonce echoes
#   what the guest wrote into the results share arrives intact, and
#   the guest read the host's nonce (guest test share-roundtrip)
# requires: sha256sum
. "$TOP/tests/guest/lib/common.sh"
grep -Eq '^(not )?ok [0-9]+ share-roundtrip( |$)' "$RES/guest.tap" 2>/dev/null ||
	skip "guest test share-roundtrip did not run (T= selects others)"
d=$RES/share
[ -f "$d/from-guest.bin" ] || fail "nothing arrived from the guest"
expect "size" "$(stat -c %s "$d/from-guest.bin")" 1048576
expect "digest computed in the guest" "$(sha256sum <"$d/from-guest.bin" | cut -d' ' -f1)" \
	"$(cat "$d/from-guest.sha256")"
expect "nonce echoed by the guest" "$(cat "$d/nonce-echo")" "$(cat "$d/nonce")"
