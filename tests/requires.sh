# Sourced by the runners (tests/ktap.sh in the guest, tests/test.sh on the
# host). POSIX sh. A test's "# requires:" header line lists what it needs,
# (going on over "#   " lines) as tokens separated by spaces or commas,
# each checked before the test
# runs; anything a token cannot say belongs in the description.
#
#   NAME.ko        a module the kit builds: ART/NAME.ko or ART/modules/NAME.ko
#   CONFIG_X[=v]   the running kernel's config (/proc/config.gz) has X
#                  set (=y or =m), or set to v
#   nodes=N        at least N NUMA nodes online
#   cpus=N         at least N CPUs online
#   /PATH          that file or folder exists (the guest's, or the host's)
#   cache:PATH     CACHE/PATH exists (host tests: what make kernel leaves)
#   NAME           a command in PATH (ART/bin is on it in the guest)
#
# A missing module, command or file is a failure: the kit builds and ships
# them, so their absence is a defect, never a reason to skip. A config
# option, a CPU count or a NUMA shape the kernel or the boot does not have is a skip:
# the debug kernel leaves out KSM on purpose, SMP/NUMA are the user's.

# requires_tokens FILE: the tokens of FILE's "# requires:" line and the
# "#   " lines that go on from it
requires_tokens() {
	awk '/^# requires:/ { sub(/^# requires:/, ""); print; on = 1; next }
		on && /^#   / { sub(/^#/, ""); print; next } { on = 0 }' "$1" | tr ',' ' '
}

# allow_splat FILE...: the FILEs' "# allow-splat: ERE" lines as one ERE
# (joined with "|", blanks around each trimmed; a line with no ERE is
# dropped: as an empty alternative it would let every report through).
# ktap.sh applies a test's own to its share of the kernel log; boot-suite.sh
# gives those of every test it runs to guest/run.sh (ALLOW_SPLAT).
allow_splat() {
	sed -n '/^# allow-splat:/ { s/^# allow-splat:[[:blank:]]*//; s/[[:blank:]]*$//; /./p; }' "$@" |
		paste -sd'|'
}

# requires_config: the running kernel's config, read once
requires_config() {
	if [ -z "${_req_config:-}" ]; then
		_req_config=$(mktemp)
		if [ -r /proc/config.gz ]; then
			zcat /proc/config.gz >"$_req_config" 2>/dev/null || :
		fi
	fi
	echo "$_req_config"
}

# requires_kind TOKEN: which of the kinds above TOKEN is (ko, config,
# nodes, cpus, file, cache, command), or "unknown"
requires_kind() {
	case $1 in
	*.ko) echo ko ;;
	CONFIG_*) echo config ;;
	nodes=*[!0-9]* | cpus=*[!0-9]* | nodes= | cpus=) echo unknown ;;
	nodes=*) echo nodes ;;
	cpus=*) echo cpus ;;
	/*) echo file ;;
	cache:?*) echo cache ;;
	*/* | *=* | *:* | *'('* | *')'* | [0-9]*) echo unknown ;;
	*) echo command ;;
	esac
}

# requires_unmet FILE: for the first token of FILE not met, print
# "fail WHY" or "skip WHY" and return 1; return 0 when all are met.
requires_unmet() {
	set -f	# a token is a word, never a glob
	for _t in $(requires_tokens "$1"); do
		case $(requires_kind "$_t") in
		ko)
			[ -e "$ART/$_t" ] || [ -e "$ART/modules/$_t" ] && continue
			echo "fail requires $_t: not in $ART or $ART/modules (the build did not deliver it)"
			set +f; return 1 ;;
		config)
			case $_t in
			*=*) grep -qx "$_t" "$(requires_config)" && continue ;;
			*) grep -Eqx "$_t=(y|m)" "$(requires_config)" && continue ;;
			esac
			if [ ! -s "$(requires_config)" ]; then
				echo "fail requires $_t: no /proc/config.gz to read it from (CONFIG_IKCONFIG_PROC)"
			else
				echo "skip requires $_t: this kernel ($(uname -r)) has $(grep "^${_t%%=*}=" "$(requires_config)" || echo "${_t%%=*} unset")"
			fi
			set +f; return 1 ;;
		nodes)
			# the one glob here: tokens are read with globbing off
			_n=0
			set +f
			for _d in /sys/devices/system/node/node[0-9]*; do
				[ -d "$_d" ] && _n=$((_n + 1))
			done
			set -f
			[ "$_n" -ge "${_t#nodes=}" ] && continue
			echo "skip requires $_t: $_n NUMA node(s) online (make test NUMA=${_t#nodes=})"
			set +f; return 1 ;;
		cpus)
			_n=$(nproc)
			[ "$_n" -ge "${_t#cpus=}" ] && continue
			echo "skip requires $_t: $_n CPU(s) online (make test SMP=${_t#cpus=})"
			set +f; return 1 ;;
		file)
			[ -e "$_t" ] && continue
			echo "fail requires $_t: no such file"
			set +f; return 1 ;;
		cache)
			[ -e "$CACHE/${_t#cache:}" ] && continue
			echo "fail requires $_t: no $CACHE/${_t#cache:} (make kernel makes it)"
			set +f; return 1 ;;
		command)
			command -v "$_t" >/dev/null 2>&1 && continue
			echo "fail requires $_t: no such command in PATH"
			set +f; return 1 ;;
		*)
			echo "fail requires $_t: not a requirement this runner knows (tests/requires.sh)"
			set +f; return 1 ;;
		esac
	done
	set +f
	return 0
}
