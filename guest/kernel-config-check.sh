#!/bin/sh
# kernel-config-check.sh FRAGMENT DOTCONFIG
# Fails, naming each one, when an option the fragment asks for did not survive
# Kconfig (a missing dependency silently turns it off). Needs: POSIX sh, grep.
set -eu
frag=$1 config=$2
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		want=$line ;;
	"# CONFIG_"*" is not set")
		want=$line ;;
	*)
		continue ;;
	esac
	if ! grep -qxF -- "$want" "$config"; then
		opt=${want#\# }
		opt=${opt%%[= ]*}
		got=$(grep -E "^(# )?${opt}[= ]" "$config" || echo "$opt absent")
		echo "kernel config: asked for '$want', Kconfig gave '$got'" >&2
		bad=1
	fi
done <"$frag"
exit $bad
