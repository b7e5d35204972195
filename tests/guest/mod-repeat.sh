#!/bin/sh
# description: 10 mix recordings in one boot: module's 21 event counts equal trace's
#   10 consecutive recordings of the mix workload (forktree,
#   unmap, filemap, ksm where the kernel has it, migrate, alllocks through
#   the module) in one boot, each compared with its trace
#   (lib/vs-trace.sh): all 21 event counts equal every time, with no lost
#   event; the module is reset between them, never reloaded.
#   MMPREEMPT_REPEAT overrides the count
# requires: mmpreempt.ko trace-cmd mix
# debug-ci: skip ten mix recordings take over 10 min there; one such
#   window is mod-vs-trace, and the ten run in CI on the normal kernel
# timeout: 900
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
. "$(dirname "$0")/lib/vs-trace.sh"
load_module
cd /tmp || exit 1
n=${MMPREEMPT_REPEAT:-10}
i=1
while [ $i -le "$n" ]; do
	printf 'recording %d of %d: ' $i "$n"
	vs_trace "$RES/mod-repeat/$i" mix
	i=$((i + 1))
done
echo "ok: $n mix recordings, module and trace equal in each"
