#!/bin/bash
# GStreamer for the arm64 test guest, from Debian's arm64 packages.
#
#   gst-root.sh --pkgconfig
#	prints a pkg-config directory for the guest build: GStreamer's
#	plugins-base development files for arm64, unpacked from their .deb
#	(that package is not multi-arch: installing it for arm64 would
#	remove the host's; everything else comes from the multiarch arm64
#	packages run-guest.sh installs)
#   gst-root.sh [--opencv] ROOT [PROGRAM...]
#	puts into the guest's root ROOT the GStreamer tools (gst-launch-1.0,
#	gst-inspect-1.0), the plugins a camera pipeline needs, and every
#	shared library they and the PROGRAMs (already in ROOT) need, with
#	the dynamic loader, at Debian's own paths (so GStreamer's compiled-in
#	plugin and scanner paths hold). No maintainer script runs.
#	--opencv adds gst-plugins-bad's facedetect (gstreamer1.0-opencv) with
#	two cascades, and rawvideoparse, for scripts/bench-camera.sh: the
#	arm64 .debs of the element and of every library it needs, found
#	through the host's own (amd64) installation of the same packages
#	(libopencv-dev), are unpacked in the cache; installing them for
#	arm64 would remove the host's OpenCV. About 100 MB more: not for
#	the test runs.
. "$(dirname "$0")/../scripts/lib.sh"

triplet=aarch64-linux-gnu
libdirs=(/usr/lib/$triplet /lib/$triplet)
plugdir=/usr/lib/$triplet/gstreamer-1.0
# the plugins: elements of the core (queue, fakesink, tee...), v4l2src,
# videoconvert and videoscale, videotestsrc, appsink
plugins=(coreelements video4linux2 videoconvertscale videotestsrc app)

# the cached PKG:arm64 .deb at version VER, downloaded once; prints its path
deb() { # deb PKG VER
	local dir="$FDIF_CACHE/guest" f
	f="$dir/$1_${2//:/%3a}_arm64.deb"
	if [ ! -f "$f" ]; then
		progress "downloading $1:arm64 ($2)"
		apt_fetch "$dir" download "$1:arm64=$2" && [ -f "$f" ] ||
			die "cannot download $1:arm64=$2"
	fi
	echo "$f"
}

# PKG:arm64 at the version of the installed RUNTIME:arm64, unpacked in the
# cache once; prints the directory
unpacked() { # unpacked PKG RUNTIME
	local ver f
	ver=$(dpkg-query -W -f '${Version}' "$2:arm64") ||
		die "gst-root.sh: $2:arm64 is not installed"
	f=$(deb "$1" "$ver") || exit 1
	if [ ! -d "$f.d" ]; then
		rm -rf "$f.d.tmp"
		dpkg -x "$f" "$f.d.tmp" && mv "$f.d.tmp" "$f.d"
	fi
	echo "$f.d"
}

if [ "${1:-}" = --pkgconfig ]; then
	dev=$(unpacked libgstreamer-plugins-base1.0-dev libgstreamer-plugins-base1.0-0)
	pc="$dev/usr/lib/$triplet/pkgconfig"
	if [ ! -f "$dev/.relocated" ]; then
		# its .pc files point into the unpacked tree; its libX.so
		# links (relative) at the installed arm64 runtime libraries
		sed -i "s|^prefix=/usr\$|prefix=$dev/usr|" "$pc"/*.pc
		for l in "$dev/usr/lib/$triplet"/*.so; do
			[ -L "$l" ] && ln -sfn "/usr/lib/$triplet/$(readlink "$l")" "$l"
		done
		touch "$dev/.relocated"
	fi
	echo "$pc"
	exit 0
fi

# copy FILE to the same path in the root (dereferenced), once
declare -A copied
put() { # put SRC [DEST]
	local dest="${2:-$1}"
	[ -n "${copied[$dest]-}" ] && return 0
	copied[$dest]=1
	mkdir -p "$root$(dirname "$dest")"
	cp -L "$1" "$root$dest"
	queue+=("$root$dest")
}

# the library NAME from the arm64 library directories
find_lib() {
	local d
	for d in "${libdirs[@]}"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	[ -n "$opencv" ] || return 1
	# the arm64 build of the host package that has this library
	local pkg= ver host ma p
	host=$(dpkg --print-architecture)
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	# (through update-alternatives' links too: liblapack.so.3, libblas.so.3)
	for p in "/usr/lib/$ma/$1" "/lib/$ma/$1"; do
		[ -e "$p" ] || continue
		[ -n "$pkg" ] || pkg=$(dpkg -S "$(readlink -f "$p")" 2>/dev/null |
				       sed -n '1s/:.*//p') || true
	done
	# (or wherever else its package put it: libarmadillo.so.11 is in /usr/lib)
	[ -n "$pkg" ] || pkg=$(dpkg -S "*/$1" 2>/dev/null | grep "/$1\$" |
			       sed -n '1s/[:,].*//p') || true
	[ -n "$pkg" ] || return 1
	ver=$(dpkg-query -W -f '${Version}' "$pkg:$host") || return 1
	extract "$pkg" "$ver" || return 1
	for d in "${libdirs[@]}"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	# an alternative's library, in a subdirectory of the unpacked tree
	p=$(find "$extra" -name "$1" \( -type f -o -type l \) | head -1)
	[ -n "$p" ] && echo "$p"
}

# unpack PKG:arm64=VER into $extra (the benchmark's own arm64 files): that
# version, or apt's candidate where arm64 has no build of it yet
extract() { # extract PKG VER
	local ver=$2
	# (apt-cache show exits 0 for a version it does not know, saying
	# nothing: a host package newer or older than the archive's)
	[ -n "$(apt-cache show "$1:arm64=$ver" 2>/dev/null)" ] ||
		ver=$(apt-cache policy "$1:arm64" | sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "no $1 for arm64 in apt's lists"
	dpkg -x "$(deb "$1" "$ver")" "$extra"
}

opencv=
if [ "${1:-}" = --opencv ]; then
	opencv=1
	shift
fi
root=$1
shift
queue=()
if [ -n "$opencv" ]; then
	extra="$root.opencv-debs"
	rm -rf "$extra" && mkdir -p "$extra"
	libdirs+=("$extra/usr/lib/$triplet" "$extra/lib/$triplet")
	ver=$(apt-cache policy gstreamer1.0-opencv:arm64 | sed -n 's/^ *Candidate: //p')
	extract gstreamer1.0-opencv "$ver"
	extract libgstreamer-opencv1.0-0 "$ver"
fi
tools="$(unpacked gstreamer1.0-tools libgstreamer1.0-0)"
put "$tools/usr/bin/gst-launch-1.0" /usr/bin/gst-launch-1.0
put "$tools/usr/bin/gst-inspect-1.0" /usr/bin/gst-inspect-1.0
put "/usr/lib/$triplet/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
for p in "${plugins[@]}"; do
	put "$plugdir/libgst$p.so"
done
for prog in "$@"; do
	queue+=("$prog")
done
if [ -n "$opencv" ]; then
	put "$extra$plugdir/libgstopencv.so" "$plugdir/libgstopencv.so"
	# rawvideoparse: the benchmark's same frames for every element
	put "$plugdir/libgstrawparse.so"
	# facedetect's default face profile and the FDIF model's cascade
	# (opencv-data, the host's; the benchmark runs facedetect on both;
	# Debian's OpenCV 4 has no nose, mouth or eye-pair cascades:
	# facedetect logs that and finds faces only, as on any Debian 12
	# machine)
	mkdir -p "$root/usr/share/opencv4/haarcascades"
	cp /usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml \
		/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml \
		"$root/usr/share/opencv4/haarcascades/"
fi
put "/lib/ld-linux-aarch64.so.1"
# every NEEDED library of everything copied, transitively
while [ ${#queue[@]} -gt 0 ]; do
	f=${queue[0]}
	queue=("${queue[@]:1}")
	for lib in $(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
		     sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ "$lib" = ld-linux-aarch64.so.1 ] && continue
		src=$(find_lib "$lib") || die "gst-root.sh: $lib (needed by $f) is not installed for arm64"
		put "$src" "/usr/lib/$triplet/$lib"
	done
done
[ -z "$opencv" ] || rm -rf "$extra"
