#!/bin/sh
# description: tracefs events and fields match tracepoints/EVENTS.md exactly
#   every event that tracepoints/EVENTS.md documents exists in
#   tracefs with exactly the documented fields, and tracefs has no event in
#   the four systems that EVENTS.md leaves out
# requires: /mnt/repo/tracepoints/EVENTS.md
# timeout: 60
. "$(dirname "$0")/lib/common.sh"
doc=$REPO/tracepoints/EVENTS.md
[ -f "$doc" ] || fail "no $doc"
n=0
awk '/^### [a-z_]+:[a-z_]+/ { ev = $2 } /^Fields: / && ev { sub(/^Fields: /, ""); gsub(/[`,]/, ""); print ev, $0; ev = "" }' "$doc" >/tmp/catalog
[ -s /tmp/catalog ] || fail "EVENTS.md lists no events"
while read -r ev fields; do
	n=$((n + 1))
	fmt=$TRACEFS/events/${ev%%:*}/${ev#*:}/format
	[ -f "$fmt" ] || fail "$ev is documented but not in tracefs"
	got=$(sed -n 's/^[[:space:]]*field:.* \**\([a-z_]*\)\(\[.*\]\)*;.*/\1/p' "$fmt" | grep -v '^common_' | tr '\n' ' ' | sed 's/ $//')
	expect "$ev fields" "$got" "$fields"
done </tmp/catalog
for s in anon_vma i_mmap mmu_gather mm_all_locks; do
	for e in $TRACEFS/events/$s/*/; do
		name=$s:$(basename "$e")
		grep -q "^$name " /tmp/catalog || fail "$name is in tracefs but not in EVENTS.md"
	done
done
echo "ok: $n events documented and present"
