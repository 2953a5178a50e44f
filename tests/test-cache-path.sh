#!/bin/bash
# The scripts refuse, at once and with a message, a cache that meson would
# take for a part of the source tree (scripts/lib.sh), and accept others.
# TAP. Usage: test-cache-path.sh SOURCE_ROOT
root="$(realpath "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { # check NAME WANT_RC CACHE [MESSAGE]
	local out rc
	n=$((n + 1))
	out="$(FDIF_CACHE="$3" FDIF_BUILD="$tmp/build" bash -c ". '$root/scripts/lib.sh'" 2>&1)"
	rc=$?
	if [ "$rc" -ne "$2" ] || { [ -n "${4:-}" ] && ! grep -qF -- "$4" <<<"$out"; }; then
		echo "not ok $n - $1 (exit $rc: $out)"
		fail=1
	else
		echo "ok $n - $1"
	fi
}
echo "1..4"
check "a cache inside the clone is refused" 1 "$root/cache" "starts with the source tree's path"
check "a cache beside the clone, its path a prefix, is refused" 1 "$root-cache" "choose a cache elsewhere"
n=$((n + 1))
if [ ! -e "$root-cache" ] && [ ! -e "$root/cache" ]; then
	echo "ok $n - a refused cache directory is not created"
else
	echo "not ok $n - a refused cache directory was created"
	rm -rf "$root-cache" "$root/cache"
	fail=1
fi
check "a cache elsewhere is taken" 0 "$tmp/elsewhere"
exit $fail
