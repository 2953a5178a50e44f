#!/bin/bash
# Static checks of the driver: checkpatch --strict on every file (and on
# the test module igt-tests/kmod/fdif_delay.c), a W=1 build with sparse
# (C=2) for arm64 and for 32-bit ARM (omap2plus_defconfig, the OMAP4's
# own; no 64-bit division helpers there), kernel-doc -Wall on the uAPI header and the
# driver, and make dt_binding_check (dt-schema, yamllint) on the DT
# binding. Prints TAP on stdout (one test a check);
# exits non-zero if a check finds anything in our files, or if a checker
# did not run to its end (a tool that crashes finds nothing: that is a
# failure, not a pass). Last, the OMAP4 boards' DTBs with the series' FDIF
# node, validated with dt-validate.
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
apt_ensure sparse dt-schema yamllint libyaml-dev device-tree-compiler cpp
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

# The scheduler's documented contract only (issue 39): its job lists,
# their lock, its credits and a job's link to its hardware fence are the
# scheduler's own; a driver that edits them breaks when the scheduler
# changes (6.17 puts a job back itself after DRM_GPU_SCHED_STAT_NO_HANG).
# Allowed: the sanity check that nothing is pending at teardown, and the
# read of a finished fence's parent that fdif_in_fence_error() explains.
report "drm_sched: no scheduler internals edited by the driver" \
	"$(grep -nE 'pending_list|job_list_lock|credit_count|free_guilty|s_fence->parent *=[^=]' \
		drivers/accel/fdif/*.[ch] |
		grep -v 'drm_WARN_ON(drm, !list_empty(&sched->pending_list))' || true)"

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

# The OMAP4 boards' device trees with the series' FDIF node, validated
# against every binding of the tree (ours included) with dt-schema: a
# copy of arch/arm/boot/dts/ti/omap gets the node (the script the series'
# DTS patch uses), each board is preprocessed and compiled as kbuild does,
# and dt-validate must report nothing about an fdif@ node; the node must
# be in each DTB. Other nodes' findings (bookworm's dt-schema is older
# than the tree) are not ours and are left out.
schema="$dtout/Documentation/devicetree/bindings/processed-schema.json"
boards=(omap4-panda omap4-panda-es omap4-sdp)
progress "dt-validate on the OMAP4 boards' DTBs with the FDIF node (${boards[*]})"
dts="$(mktemp -d)"
cp -r "$ksrc/arch/arm/boot/dts/ti/omap" "$dts/omap"
if ! out="$("$KDIR/dts/add-omap4-fdif-node.py" "$dts/omap/omap4-l4.dtsi" 2>&1)"; then
	for b in "${boards[@]}"; do report "$b.dtb with the FDIF node: dt-validate" "$out"; done
elif [ ! -s "$schema" ]; then
	for b in "${boards[@]}"; do
		report "$b.dtb with the FDIF node: dt-validate" "no processed schema: dt_binding_check did not make $schema"
	done
else
	dtbs=() errs=()
	for b in "${boards[@]}"; do
		if out="$(cpp -nostdinc -I "$dts/omap" -I "$ksrc/include" \
				-I "$ksrc/scripts/dtc/include-prefixes" -undef -D__DTS__ \
				-x assembler-with-cpp -E "$dts/omap/$b.dts" -o "$dts/$b.pre" 2>&1 &&
			dtc -q -I dts -O dtb -b 0 -i "$dts/omap" -o "$dts/$b.dtb" "$dts/$b.pre" 2>&1)"; then
			dtbs+=("$dts/$b.dtb")
			errs+=("")
		else
			errs+=("$b.dts does not build: $out")
		fi
	done
	# the control: an FDIF node with a property the binding does not allow
	# (the clock is the target module's) must be flagged, or the
	# validator never looked at such a node
	cat > "$dts/control.dts" <<'DTS'
/dts-v1/;
/ {
	#address-cells = <1>;
	#size-cells = <1>;
	fdif@0 {
		compatible = "ti,omap4-fdif";
		reg = <0x0 0x1000>;
		clock-names = "fck";
	};
};
DTS
	dtc -q -I dts -O dtb -o "$dts/control.dtb" "$dts/control.dts" 2>/dev/null
	# a DTB a process: each takes about a minute on one core
	val="$(printf '%s\n' "${dtbs[@]}" "$dts/control.dtb" |
		xargs -P "$(nproc)" -n 1 dt-validate -s "$schema" 2>&1)" && rc=0 || rc=$?
	report "dt-validate flags an FDIF node the binding does not allow (the control)" \
		"$(grep -q "^$dts/control.dtb: fdif@0: 'clock-names'" <<<"$val" ||
			printf 'no finding for the control node (dt-validate exit %s):\n%s' "$rc" "$(tail -5 <<<"$val")")"
	for i in "${!boards[@]}"; do
		b=${boards[$i]}
		if [ -n "${errs[$i]}" ]; then
			report "$b.dtb with the FDIF node: dt-validate" "${errs[$i]}"
		elif ! grep -q '"ti,omap4-fdif"' <<<"$(dtc -q -I dtb -O dts "$dts/$b.dtb" 2>&1)"; then
			report "$b.dtb with the FDIF node: dt-validate" "no ti,omap4-fdif node in the DTB"
		else
			report "$b.dtb with the FDIF node: dt-validate" \
				"$(grep -A1 "^$dts/$b.dtb: fdif@" <<<"$val" || true)"
		fi
	done
fi
rm -rf "$dts"

echo "1..$n"
exit $fail
