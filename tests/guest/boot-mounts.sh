#!/bin/sh
# description: debugfs, tracefs and the three 9p shares are mounted where expected
#   debugfs, tracefs and the three 9p shares are mounted where the kit expects
# requires:
# timeout: 10
. "$(dirname "$0")/lib/common.sh"
has() {
	awk -v d="$1" -v t="$2" '$2 == d && $3 == t { f = 1 } END { exit !f }' /proc/mounts ||
		fail "$1 is not mounted as $2"
	echo "ok: $1 ($2)"
}
has /sys/kernel/debug debugfs
has /sys/kernel/tracing tracefs
has /mnt/repo 9p
has /mnt/art 9p
has /mnt/results 9p
[ -d $TRACEFS/events/sched ] || fail "tracefs has no sched events"
# A file our config asks for (CONFIG_GUP_TEST), not just any debugfs.
[ -e /sys/kernel/debug/gup_test ] || fail "debugfs has no gup_test"
