#!/bin/sh
# SPDX-License-Identifier: MIT
# The detector library as QEMU links it: no call can end the process
# (abort, exit, assert) and nothing reads the environment (the device is
# configured by its properties, the tools by their options). Prints TAP.
# Usage: check-symbols.sh LIBFACEDET.a
set -eu
lib=$1
undef=$(nm -u "$lib" | awk 'NF == 2 { print $2 }' | sort -u)
n=0 fail=0
for sym in abort exit _exit __assert_fail __assert_perror_fail getenv secure_getenv; do
	n=$((n + 1))
	if printf '%s\n' "$undef" | grep -qx "$sym"; then
		echo "not ok $n - $sym is called from $(basename "$lib")"
		nm -A -u "$lib" | grep -w "$sym" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n - no call to $sym"
	fi
done
# the check itself sees symbols: the library does call malloc
n=$((n + 1))
if printf '%s\n' "$undef" | grep -qx malloc; then
	echo "ok $n - nm lists the library's calls (malloc seen)"
else
	echo "not ok $n - nm found no call to malloc: the check sees nothing"
	fail=1
fi
echo "1..$n"
exit $fail
