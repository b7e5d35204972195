#!/bin/sh
# description: built kernel's .config has every option guest/kernel.config asks for
#   the built kernel's .config has every option guest/kernel.config asks for
# requires: cache:kernel/current/.config
. "$TOP/tests/guest/lib/common.sh"
cfg=$CACHE/kernel/current/.config
[ -f "$cfg" ] || fail "no built kernel config at $cfg"
"$TOP/guest/kernel-config-check.sh" "$TOP/guest/kernel.config" "$cfg"
echo "ok: $(grep -c '^CONFIG_' "$TOP/guest/kernel.config") fragment options present"
