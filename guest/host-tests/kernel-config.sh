#!/bin/sh
# description: the built kernel's .config has every option guest/kernel.config asks for
# requires: make kernel
. "$TOP/guest/tests/lib/common.sh"
cfg=$CACHE/kernel/current/.config
[ -f "$cfg" ] || fail "no built kernel config at $cfg"
"$TOP/guest/kernel-config-check.sh" "$TOP/guest/kernel.config" "$cfg"
echo "ok: $(grep -c '^CONFIG_' "$TOP/guest/kernel.config") fragment options present"
