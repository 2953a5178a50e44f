#!/bin/bash
# The main job: detect the faces in a photo and print them.
#
#   scripts/demo.sh [PICTURE.pgm ...]
#
# With no argument it uses the bundled sample (the astronaut photograph from
# Debian's python3-skimage, made into a 320x240 FDIF frame at build time).
# Today this runs the FDIF's detector on the host; once the driver lands it
# runs on the emulated device in the guest (see docs/).
. "$(dirname "$0")/lib.sh"

apt_ensure "${FDIF_HOST_PKGS[@]}"
meson_build
fx="$FDIF_ROOT/build/qemu-device/facedet/tests"
[ $# -gt 0 ] || set -- "$fx/astronaut.pgm"
for pic in "$@"; do
	echo "$pic:"
	"$FDIF_ROOT/build/qemu-device/facedet/facedet" "$pic" ||
		die "detection failed on $pic"
done
