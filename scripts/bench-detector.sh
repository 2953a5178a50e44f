#!/bin/bash
# Detector benchmark: ours against OpenCV's detectMultiScale on the test
# photographs, same cascade, single thread, in one run.  Prints a table, the
# upright speed ratio with the agreement, and the full FDIF job's time over
# OpenCV's upright time, for this project's build and for the detector built
# with QEMU's flags.  --markdown prints the table for docs/.
# Not a test: nothing here asserts on time.
. "$(dirname "$0")/lib.sh"

apt_ensure "${FDIF_HOST_PKGS[@]}" libopencv-dev g++
meson_build
fx="$FDIF_BUILD/qemu-device/facedet/tests"
progress "benchmarking (each picture: ours, OpenCV and the full job interleaved)"
exec /usr/bin/python3 "$FDIF_ROOT/qemu-device/facedet/bench/bench-detector.py" \
	--facedet "$FDIF_BUILD/qemu-device/facedet/facedet" \
	--opencv "$FDIF_BUILD/qemu-device/facedet/bench/opencv-detect" \
	--extra "qemu-flags=$FDIF_BUILD/qemu-device/facedet/bench/facedet-qemuflags" \
	"$@" "$fx"/*.pgm
