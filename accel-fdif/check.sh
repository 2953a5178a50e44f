#!/bin/bash
# Static checks of the driver: checkpatch --strict on every file, and a
# W=1 build with sparse (C=2). Prints TAP on stdout (one test a check);
# exits non-zero if a check finds anything in our files, or if a checker
# did not run to its end (a tool that crashes finds nothing: that is a
# failure, not a pass).
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
	# checkpatch ends every run with a 'total:' line; without it, it died
	out="$("$ksrc/scripts/checkpatch.pl" --strict --no-tree --no-summary-file \
		--color=never -f "$f" 2>&1)" && rc=0 || rc=$?
	if ! grep -q '^total: [0-9]* errors, [0-9]* warnings' <<<"$out"; then
		report "checkpatch --strict $f" "checkpatch did not run to its end (exit $rc):
$out"
	elif ! grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
		report "checkpatch --strict $f" "$(grep -E '^(ERROR|WARNING|CHECK)' -A3 <<<"$out")"
	else
		report "checkpatch --strict $f" ""
	fi
done

progress "sparse and W=1 on drivers/accel/fdif"
touch "$ksrc"/drivers/accel/fdif/*.c
# kbuild prints '  CHECK   FILE' for each file sparse checks: every driver
# source must have one; anything else that names our files is a finding
out="$(make -C "$ksrc" O="$kbuild" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	C=2 W=1 drivers/accel/fdif/ 2>&1)" && rc=0 || rc=$?
if [ "$rc" -ne 0 ]; then
	report "sparse and W=1 clean" "the build failed (exit $rc):
$(tail -20 <<<"$out")"
else
	missing=
	for c in drivers/accel/fdif/*.c; do
		grep -Eq "^ +CHECK +(.*/)?$c\$" <<<"$out" || missing+=" $c"
	done
	if [ -n "$missing" ]; then
		report "sparse and W=1 clean" "sparse did not check:$missing"
	else
		report "sparse and W=1 clean" \
			"$(grep -E 'drivers/accel/fdif|fdif_accel\.h' <<<"$out" |
			   grep -Ev '^ +(CC|CHECK|LD|MODPOST|AR) |^make' || true)"
	fi
fi
echo "1..$n"
exit $fail
