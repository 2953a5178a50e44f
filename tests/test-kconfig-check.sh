#!/bin/bash
# kconfig_check (scripts/lib.sh), which the kernel builds run on their
# .config: an option a fragment sets must be in the config as set, and an
# option a fragment sets off ("# CONFIG_X is not set") must not be on.
# TAP. Usage: test-kconfig-check.sh SOURCE_ROOT
root="$(realpath "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export FDIF_CACHE="$tmp/cache" FDIF_BUILD="$tmp/build"
. "$root/scripts/lib.sh" || exit 1
n=0 fail=0
check() { # check NAME WANT_RC WANT_MESSAGE CONFIG_LINES FRAGMENT_LINES
	local out rc
	n=$((n + 1))
	printf '%s\n' "$4" > "$tmp/config"
	printf '%s\n' "$5" > "$tmp/frag"
	out="$(kconfig_check "$tmp/config" "$tmp/frag" 2>&1)" && rc=0 || rc=$?
	if [ "$rc" -ne "$2" ] || [ "$out" != "$3" ]; then
		echo "not ok $n - $1 (exit $rc: '$out')"
		fail=1
	else
		echo "ok $n - $1"
	fi
}
echo "1..6"
check "an option set as the fragment says passes" 0 "" \
	"CONFIG_A=y
CONFIG_B=m" "CONFIG_A=y
CONFIG_B=m"
check "an option the config lost is named" 1 "config: CONFIG_B=m did not stick" \
	"CONFIG_A=y" "CONFIG_A=y
CONFIG_B=m"
check "an option set otherwise is named" 1 "config: CONFIG_A=y did not stick" \
	"CONFIG_A=m" "CONFIG_A=y"
check "an option set off and off passes" 0 "" \
	"# CONFIG_INET is not set
CONFIG_NET=y" "# CONFIG_INET is not set"
check "an option set off and absent passes" 0 "" \
	"CONFIG_NET=y" "# CONFIG_INET is not set"
check "an option set off but on is named" 1 "config: CONFIG_INET is on, though set off" \
	"CONFIG_INET=y
CONFIG_INET_DIAG=y" "# CONFIG_INET is not set"
exit $fail
