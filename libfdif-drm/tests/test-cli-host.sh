#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect on a host without the device: usage errors exit 2, a missing
# device exits 1 with a clear message. (The device path runs in the guest.)
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { # NAME WANT PATTERN CMD...
	name=$1 want=$2 pat=$3
	shift 3
	"$@" > "$tmp/out" 2>&1
	got=$?
	n=$((n + 1))
	if [ $got -eq "$want" ] && grep -q -- "$pat" "$tmp/out"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (exit $got)"; sed 's/^/# /' "$tmp/out"; fail=1
	fi
}
mkdir "$tmp/accel"
check help 0 'usage' "$cli" --help
check no-image 2 'usage' "$cli"
check bad-option 2 'usage' "$cli" --frobnicate x.png
check bad-lhit 2 "invalid value 'x' for --lhit" "$cli" --lhit x x.png
check bad-min-size 2 "invalid value '-20' for --min-size" "$cli" --min-size -20 x.png
check no-device 1 'no FDIF device' env FDIF_ACCEL_DIR="$tmp/accel" "$cli" x.png
echo "1..$n"
exit $fail
