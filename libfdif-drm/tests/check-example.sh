#!/bin/sh
# SPDX-License-Identifier: MIT
# The documented example builds against the *installed* libraries through
# libfdif-image's pkg-config file (which requires libfdif-drm's), and runs
# (reporting the missing device on a host).
# Usage: check-example.sh BUILD_DIR SOURCE_DIR      Prints TAP.
set -u
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

step() { # step NAME CMD...
	name=$1
	shift
	n=$((n + 1))
	if "$@" > "$tmp/log" 2>&1; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$tmp/log"
		echo "1..$n"
		exit 1
	fi
}

step meson-install meson install -C "$build" --destdir "$tmp/root" --no-rebuild
for name in libfdif-drm libfdif-image; do
	pc=$(find "$tmp/root" -name $name.pc | head -1)
	[ -n "$pc" ] || { echo "not ok $((n + 1)) - $name.pc installed"; echo "1..$((n + 1))"; exit 1; }
	# relocate the installed .pc into the staging root
	prefix=$(sed -n 's/^prefix=//p' "$pc")
	sed -i "s|^prefix=.*|prefix=$tmp/root$prefix|" "$pc"
done
export PKG_CONFIG_PATH="$(dirname "$pc")"
# each .pc file's version is its library's (libfdif-image.so.1.2.0: 1.2.0)
for name in libfdif-drm libfdif-image; do
	so=$(find "$tmp/root" -name "$name.so.*.*.*" | head -1)
	step "$name.pc-version-is-the-library's" sh -c \
		'want=${1##*.so.}; got=$(pkg-config --modversion "$2"); echo "$2.pc: $got, ${1##*/}: $want"; [ "$got" = "$want" ]' \
		sh "$so" "$name"
done
step compile-with-pkg-config sh -c "cc -std=c11 -Wall -Werror -o '$tmp/faces' \
	'$src/libfdif-drm/examples/faces.c' \$(pkg-config --cflags --libs libfdif-image)"
# a program that only submits frames needs no image format library
step drm-alone-needs-no-image-library sh -c "! pkg-config --libs --static libfdif-drm | grep -E 'png|jpeg'"
# the camera frame loop (V4L2, dma-buf import) needs only libfdif-drm
step compile-camera-loop sh -c "cc -std=c11 -Wall -Werror -D_GNU_SOURCE -o '$tmp/camera' \
	'$src/libfdif-drm/examples/camera.c' \$(pkg-config --cflags --libs libfdif-drm)"
lib=$(dirname "$(find "$tmp/root" -name 'libfdif-drm.so' | head -1)")
mkdir -p "$tmp/accel"
n=$((n + 1))
out=$(LD_LIBRARY_PATH="$lib" FDIF_ACCEL_DIR="$tmp/accel" "$tmp/faces" "$src/README.md" 2>&1)
if [ $? -eq 1 ] && echo "$out" | grep -q 'no FDIF device'; then
	echo "ok $n - runs and reports the missing device"
else
	echo "not ok $n - runs and reports the missing device: $out"
fi
n=$((n + 1))
out=$(LD_LIBRARY_PATH="$lib" FDIF_ACCEL_DIR="$tmp/accel" "$tmp/camera" /dev/video0 2>&1)
if [ $? -eq 1 ] && echo "$out" | grep -q 'no FDIF device'; then
	echo "ok $n - the camera loop runs and reports the missing device"
else
	echo "not ok $n - the camera loop runs and reports the missing device: $out"
fi
# a count past 32 bits is refused, not wrapped to a small one (8)
n=$((n + 1))
out=$(LD_LIBRARY_PATH="$lib" FDIF_ACCEL_DIR="$tmp/accel" "$tmp/camera" -b 4294967304 /dev/video0 2>&1)
if [ $? -eq 2 ] && echo "$out" | grep -q -- '-b 4294967304: want 3 to 32 buffers'; then
	echo "ok $n - the camera loop refuses -b past 32 bits"
else
	echo "not ok $n - the camera loop refuses -b past 32 bits: $out"
fi
# strtoul() skips blanks and negates after a minus: no way round the range
n=$((n + 1))
out=$(LD_LIBRARY_PATH="$lib" FDIF_ACCEL_DIR="$tmp/accel" "$tmp/camera" -b ' -18446744073709551608' /dev/video0 2>&1)
if [ $? -eq 2 ] && echo "$out" | grep -q -- '-b  -18446744073709551608: want 3 to 32 buffers'; then
	echo "ok $n - the camera loop refuses a blank and a minus before -b's number"
else
	echo "not ok $n - the camera loop refuses a blank and a minus before -b's number: $out"
fi
echo "1..$n"
