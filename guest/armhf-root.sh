#!/bin/bash
# The armhf libraries for the guest side's 32-bit build, from Debian's
# armhf .debs, unpacked into the cache rather than installed.
#
#   armhf-root.sh
#	prints a folder holding the -dev packages of the libraries the
#	static 32-bit programs link (libdrm, libpng, libjpeg, zlib, json-c,
#	libexif) at their Debian paths (usr/include, usr/lib/TRIPLET), with
#	their .pc files pointing into it. The C library is the cross
#	toolchain's own (libc6-dev-armhf-cross, run-guest.sh installs it).
#
# Installing them as armhf packages (multiarch) would tie them to the
# host: every Multi-Arch: same package they pull in (libc6-dev,
# linux-libc-dev, zlib1g...) must be at the host's own version, so a
# security update the armhf package lists lack (a mirror in the middle of
# a sync) makes them uninstallable. A static program needs only the .a
# files and headers: those are taken as they are, verified by apt-get
# download. The folder is named by the .debs' names, so a new version
# makes a new folder.
. "$(dirname "$0")/../scripts/lib.sh"

triplet=arm-linux-gnueabihf
pkgs=(libdrm-dev libpng-dev libjpeg62-turbo-dev zlib1g-dev libjson-c-dev libexif-dev)
dir="$FDIF_CACHE/guest/armhf-debs"
mkdir -p "$dir"

debs=()
for p in "${pkgs[@]}"; do
	f="$(ls "$dir/${p}"_*_armhf.deb 2>/dev/null | head -1 || true)"
	if [ -z "$f" ]; then
		progress "downloading $p:armhf"
		apt_fetch "$dir" download "$p:armhf" ||
			die "armhf-root.sh: cannot download $p:armhf"
		f="$(ls "$dir/${p}"_*_armhf.deb | head -1)"
	fi
	debs+=("$f")
done

root="$FDIF_CACHE/guest/armhf-root-$(printf '%s\n' "${debs[@]##*/}" | sha256sum | cut -c1-16)"
if [ ! -f "$root/.relocated" ]; then
	rm -rf "$root"
	for f in "${debs[@]}"; do
		dpkg -x "$f" "$root" || die "armhf-root.sh: cannot unpack $f"
	done
	# the .pc files' paths into the folder (absolute, so pkg-config
	# does not drop an -I$root/usr/include as the system's own)
	sed -i -E "s#^(prefix|exec_prefix|libdir|includedir)=/usr#\\1=$root/usr#" \
		"$root/usr/lib/$triplet/pkgconfig/"*.pc
	touch "$root/.relocated"
fi
echo "$root"
