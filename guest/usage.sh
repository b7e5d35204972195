# Sourced by the kit's drivers, which then call, right after `set -eu`:
#   usage_check USAGE MAXARGS "$@"
# -h or --help as the first argument prints the driver's header comment
# (what it measures or does, what it needs, its settings) and exits 0; more
# than MAXARGS arguments, or an option, print USAGE and exit 2. POSIX sh.
# usage_help: the driver's header comment, as -h prints it
usage_help() {
	awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}

usage_check() {
	_usage=$1 _max=$2
	shift 2
	case ${1:-} in
	-h|--help) usage_help; exit 0 ;;
	-*) printf 'usage: %s\n(%s -h says more)\n' "$_usage" "$(basename "$0")" >&2; exit 2 ;;
	esac
	[ $# -le "$_max" ] || { printf 'usage: %s\n(%s -h says more)\n' "$_usage" "$(basename "$0")" >&2; exit 2; }
}
