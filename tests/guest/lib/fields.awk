# The prelude of events_awk (lib/trace.sh): for an events.txt line,
# "ts cpu pid comm event key=value...", f["key"] is that field's value.
{ delete f; for (i = 6; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
