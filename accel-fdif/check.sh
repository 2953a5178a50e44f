#!/bin/bash
# Static checks of the driver: checkpatch --strict on every file, and a
# W=1 build with sparse (C=2). Prints TAP on stdout (one test a check);
# exits non-zero if a check finds anything in our files.
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
apt_ensure sparse
kbuild="$("$KDIR/build.sh")"
ksrc="$(sed -n 's/^KSRC=//p' "$kbuild/.fdif-src")"
cd "$KDIR"
files=(drivers/accel/fdif/*.[ch] include/uapi/drm/fdif_accel.h)
[ -f "${files[0]}" ] || die "no driver sources in $KDIR"
n=0 fail=0

report() { # report NAME OUTPUT
	n=$((n + 1))
	if [ -n "$2" ]; then
		echo "not ok $n - $1"
		printf '%s\n' "$2" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n - $1"
	fi
}

for f in "${files[@]}"; do
	out="$("$ksrc/scripts/checkpatch.pl" --strict --no-tree --quiet -f "$f" 2>&1 |
		grep -E '^(ERROR|WARNING|CHECK)' -A3 || true)"
	report "checkpatch --strict $f" "$out"
done

progress "sparse and W=1 on drivers/accel/fdif"
touch "$ksrc"/drivers/accel/fdif/*.c
out="$(make -s -C "$ksrc" O="$kbuild" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	C=2 W=1 drivers/accel/fdif/ 2>&1 | grep -E 'drivers/accel/fdif|fdif_accel\.h' || true)"
report "sparse and W=1 clean" "$out"
echo "1..$n"
exit $fail
