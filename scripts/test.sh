#!/bin/bash
# Run every test of the project:
#   1. host unit tests (meson test): the face detector and its CLI;
#   2. the device-model qtests against the patched QEMU;
#   3. static checks of the driver: checkpatch --strict, sparse, W=1;
#   4. in the guest (arm64 kernel with the driver, booted in that QEMU):
#      the driver's KUnit tests and the IGT-style uAPI tests;
#   5. the reliability (stress) suite on the debug kernel (KASAN, lockdep,
#      kmemleak, DMA-API debug), failing on any splat. --quick skips it.
# Installs what it needs (apt-get), builds what is not cached in
# $FDIF_CACHE, and ends with the line 'N passed, N failed, N skipped'
# counted over every subtest. Exits non-zero if anything failed.
. "$(dirname "$0")/lib.sh"

apt_ensure "${FDIF_HOST_PKGS[@]}" libopencv-dev
meson_build
results=("$FDIF_ROOT/build/meson-logs/testlog.json")

progress "running host tests (meson test)"
meson test -C "$FDIF_ROOT/build" --print-errorlogs || true

qemu_build="$("$FDIF_ROOT/qemu-device/build.sh")"
progress "running the omap4-fdif qtests"
tap="$FDIF_ROOT/build/qtest-omap4-fdif.tap"
(cd "$qemu_build" &&
	QTEST_QEMU_BINARY=./qemu-system-aarch64 \
	FDIF_QTEST_PICTURE="$FDIF_ROOT/build/qemu-device/facedet/tests/astronaut.pgm" \
	timeout 600 ./tests/qtest/omap4-fdif-test --tap -k) >"$tap" 2>&1 || true
grep -E '^(ok|not ok|Bail out)' "$tap" | sed 's/^/  qtest: /' >&2
results+=("$tap")

progress "static checks of the driver (checkpatch --strict, sparse, W=1)"
"$FDIF_ROOT/accel-fdif/check.sh" > "$FDIF_ROOT/build/driver-checks.tap" || true
results+=("$FDIF_ROOT/build/driver-checks.tap")

# guest_run OUT ARGS...: boot the guest with run-guest.sh ARGS; its result
# files, or one failing result if the harness itself could not run.
guest_run() {
	local out=$1 files
	shift
	rm -rf "$out"
	mapfile -t files < <("$FDIF_ROOT/igt-tests/harness/run-guest.sh" --out "$out" "$@" || true)
	if [ ${#files[@]} -eq 0 ]; then
		mkdir -p "$out"
		printf 'not ok 1 - the guest harness ran (%s)\n1..1\n' "$*" > "$out/harness.tap"
		files=("$out/harness.tap")
	fi
	results+=("${files[@]}")
}

progress "running the driver's tests in the guest"
guest_run "$FDIF_ROOT/build/guest"

if [ "${1:-}" != --quick ]; then
	progress "reliability: the stress suite on the debug kernel (KASAN, lockdep, kmemleak, DMA-API debug)"
	guest_run "$FDIF_ROOT/build/guest-debug" --debug-kernel --suite stress --timeout 3600
fi

exec /usr/bin/python3 "$FDIF_ROOT/scripts/summary.py" "${results[@]}"
