#!/bin/sh
# description: module's count of every event equals trace-cmd's over the same window
#   the module's count of every event equals the number of
#   those events trace-cmd recorded over the same window (trace markers
#   around a reset and a snapshot taken with shell builtins into a file
#   opened beforehand, which fire no mm event); trace-cmd must have lost
#   no event
# requires: mmpreempt.ko trace-cmd forktree unmap filemap
# timeout: 180
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/module.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/window.sh"
. "$(dirname "$0")/lib/vs-trace.sh"
load_module
cd /tmp || exit 1
vs_trace "$RES/mod-vs-trace" sh -c 'forktree --depth 2 --width 3 && unmap --mib 32 && filemap --procs 3 --pages 32'
