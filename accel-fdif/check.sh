#!/bin/bash
# Static checks of the driver: checkpatch --strict on every file (and on
# the test module igt-tests/kmod/fdif_delay.c), a W=1 build with sparse
# (C=2) for arm64 and for 32-bit ARM (omap2plus_defconfig, the OMAP4's
# own; no 64-bit division helpers there), kernel-doc -Wall on the uAPI header and the
# driver, and make dt_binding_check (dt-schema, yamllint) on the DT
# binding. Prints TAP on stdout (one test a check);
# exits non-zero if a check finds anything in our files, or if a checker
# did not run to its end (a tool that crashes finds nothing: that is a
# failure, not a pass).
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
apt_ensure sparse dt-schema yamllint libyaml-dev
kbuild="$("$KDIR/build.sh")"
ksrc="$(sed -n 's/^KSRC=//p' "$kbuild/.fdif-src")"
cd "$KDIR"
files=(drivers/accel/fdif/*.[ch] include/uapi/drm/fdif_accel.h)
[ -f "${files[0]}" ] || die "no driver sources in $KDIR"
# and the stress suite's test module, kernel code too
files+=(../igt-tests/kmod/fdif_delay.c)
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

# build_check NAME O ARCH CROSS_COMPILE: the driver at W=1 with sparse
# (C=2) in the build directory O; every driver source must be checked
build_check() {
	local name=$1 obj=$2 arch=$3 cross=$4 out rc missing c
	progress "sparse and W=1 on drivers/accel/fdif ($arch)"
	touch "$ksrc"/drivers/accel/fdif/*.c
	# kbuild prints '  CHECK   FILE' for each file sparse checks: every
	# driver source must have one
	out="$(make -C "$ksrc" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" \
		C=2 W=1 drivers/accel/fdif/ 2>&1)" && rc=0 || rc=$?
	if [ "$rc" -ne 0 ]; then
		report "$name" "the build failed (exit $rc):
$(tail -20 <<<"$out")"
		return
	fi
	missing=
	for c in drivers/accel/fdif/*.c; do
		grep -Eq "^ +CHECK +(.*/)?$c\$" <<<"$out" || missing+=" $c"
	done
	if [ -n "$missing" ]; then
		report "$name" "sparse did not check:$missing"
	else
		# a finding names our file with a line number: gcc, sparse and
		# W=1's kernel-doc pass all say "FILE:LINE[:COL]: warning|error"
		# (V=1's command lines and "# CC" echoes are not findings)
		report "$name" \
			"$(grep -E '(drivers/accel/fdif/[^ :]*|fdif_accel\.h):[0-9]+(:[0-9]+)?: (warning|error)' <<<"$out" || true)"
	fi
}
build_check "sparse and W=1 clean" "$kbuild" arm64 aarch64-linux-gnu-

# The real hardware's build: 32-bit ARM, omap2plus_defconfig with the
# OMAP4 fragment. A u64 division there calls a libgcc helper the kernel
# does not have (__aeabi_uldivmod): none may appear in the objects.
karm="$("$KDIR/build-arm32.sh")"
build_check "32-bit ARM (omap2plus_defconfig + omap4.config): sparse and W=1 clean" \
	"$karm" arm arm-linux-gnueabihf-
objs=("$karm"/drivers/accel/fdif/fdif_*.o)
if [ ! -f "${objs[0]}" ]; then
	report "32-bit ARM: no 64-bit division helpers" "no objects to look at in $karm"
else
	report "32-bit ARM: no 64-bit division helpers in ${#objs[@]} objects" \
		"$(for o in "${objs[@]}"; do
			nm -u "$o" | grep -Ew '__aeabi_u?ldivmod|__u?divdi3|__u?moddi3' |
				sed "s|^ *U |${o##*/}: |"
		done)"
fi

# kernel-doc: every structure, member, function and parameter described.
# -Werror makes it exit non-zero on a warning; an exit without any
# warning printed means it did not run.
out="$("$ksrc/scripts/kernel-doc" -none -Wall -Werror \
	include/uapi/drm/fdif_accel.h drivers/accel/fdif/*.[ch] 2>&1)" && rc=0 || rc=$?
if [ "$rc" -ne 0 ] && ! grep -q 'warning:' <<<"$out"; then
	report "kernel-doc -Wall" "kernel-doc did not run (exit $rc):
$out"
else
	report "kernel-doc -Wall" "$(grep -v 'warnings as Errors' <<<"$out" || true)"
fi

# dt_binding_check with Debian's dt-schema. bookworm has 2022.08, older
# than the 2023.9 this tree asks for: the version check is lowered to it
# (the name of the result says so), and the older meta-schema rejects
# some other bindings of the tree ("ignoring, error in schema"), not ours.
# Ours must produce its example .dtb and no line that names it.
binding=Documentation/devicetree/bindings/accel/ti,omap4-fdif.yaml
progress "make dt_binding_check on $binding"
dtver="$(dt-doc-validate --version 2>/dev/null || true)"
dtout="$FDIF_CACHE/kernel/dtcheck"
rm -f "$dtout/${binding%.yaml}.example.dtb"
out="$(make -C "$ksrc" O="$dtout" ARCH=arm64 dt_binding_check \
	DT_SCHEMA_FILES="${binding#Documentation/devicetree/bindings/}" \
	${dtver:+DT_SCHEMA_MIN_VERSION=$dtver} 2>&1)" && rc=0 || rc=$?
name="dt_binding_check $binding (dt-schema ${dtver:-missing}, yamllint $(yamllint --version 2>/dev/null | awk '{print $2}'))"
if [ -z "$dtver" ] || ! command -v yamllint >/dev/null; then
	report "$name" "dt-schema or yamllint is not installed: the check did not run"
elif [ "$rc" -ne 0 ]; then
	report "$name" "make dt_binding_check failed (exit $rc):
$(tail -20 <<<"$out")"
elif [ ! -s "$dtout/${binding%.yaml}.example.dtb" ]; then
	report "$name" "no example .dtb: the example was not built and checked"
else
	report "$name" "$(grep -F "${binding##*/}" <<<"$out" || true)"
fi

echo "1..$n"
exit $fail
