#!/bin/bash
# Detector benchmark: ours against OpenCV's detectMultiScale on the test
# photographs, same cascade, single thread, in one run.  Prints a table, the
# speed ratio and the agreement.  --markdown prints the table for docs/.
# Not a test: nothing here asserts on time.
. "$(dirname "$0")/lib.sh"

apt_ensure "${FDIF_HOST_PKGS[@]}" libopencv-dev g++
meson_build
fx="$FDIF_BUILD/qemu-device/facedet/tests"
progress "benchmarking (each picture: ours and OpenCV interleaved)"
exec /usr/bin/python3 "$FDIF_ROOT/qemu-device/facedet/bench/bench-detector.py" \
	--facedet "$FDIF_BUILD/qemu-device/facedet/facedet" \
	--opencv "$FDIF_BUILD/qemu-device/facedet/bench/opencv-detect" \
	"$@" "$fx"/*.pgm
