#!/bin/bash
# Build qemu-system-aarch64 from Debian's qemu source with the emulated
# OMAP4 FDIF added.  Idempotent; everything lands in $FDIF_CACHE/qemu:
#
#   dl-<ver>/                     the Debian source package
#   src-<ver>-<patchhash>/        unpacked, Debian's patches + ours applied
#   build-<ver>-<patchhash>-<cfg> meson/ninja build dir (incremental)
#
# Our new files (the device, the detector) are synced into the source tree
# by content, so a change to them rebuilds only the objects that use them.
# Prints the build directory on stdout (qemu-system-aarch64 and
# tests/qtest/omap4-fdif-test are in it).
. "$(dirname "$0")/../scripts/lib.sh"

QDEV="$FDIF_ROOT/qemu-device"
QCACHE="$FDIF_CACHE/qemu"
mkdir -p "$QCACHE"

QEMU_BUILD_PKGS=(dpkg-dev build-essential meson ninja-build pkg-config
	python3 libglib2.0-dev libfdt-dev libpixman-1-dev zlib1g-dev
	libattr1-dev libcap-ng-dev rsync opencv-data)

fetch_source() {
	local ver dsc
	ver="$(apt-cache showsrc qemu | sed -n 's/^Version: //p' | sort -V | tail -1)"
	[ -n "$ver" ] || die "apt-cache showsrc qemu found no source package"
	QEMU_VER="${ver#*:}"
	QEMU_DL="$QCACHE/dl-$QEMU_VER"
	dsc="$QEMU_DL/qemu_${QEMU_VER}.dsc"
	if [ ! -f "$dsc" ]; then
		progress "downloading Debian qemu $QEMU_VER source (apt-get source)"
		rm -rf "$QEMU_DL.tmp"
		apt_fetch "$QEMU_DL.tmp" source --download-only "qemu=$ver" ||
			die "apt-get source --download-only qemu=$ver failed"
		mv "$QEMU_DL.tmp" "$QEMU_DL"
	fi
}

patch_hash() {
	hash_inputs "$QDEV/patches"
}

extract_source() {
	local dir="$QCACHE/src-$QEMU_VER-$(patch_hash)"
	QEMU_SRC="$dir"
	[ -f "$dir/.fdif-ready" ] && return 0
	progress "unpacking qemu $QEMU_VER with Debian's patches (dpkg-source -x)"
	rm -rf "$QCACHE"/src-* "$QCACHE"/build-*	# superseded by new patches
	dpkg-source -x --no-check "$QEMU_DL/qemu_${QEMU_VER}.dsc" "$dir" >/dev/null
	apply_patches "$dir" "$QDEV"/patches/*.patch
	touch "$dir/.fdif-ready"
}

# Copy our own files in (overlay/ mirrors the QEMU tree; the detector goes
# to hw/misc/facedet/); --checksum keeps the mtimes of unchanged files, so
# ninja rebuilds only what changed.
sync_new_files() {
	rsync -r --checksum "$QDEV/overlay/" "$QEMU_SRC/"
	mkdir -p "$QEMU_SRC/hw/misc/facedet"
	rsync -r --checksum "$QDEV/facedet/src/" "$QDEV/facedet/include/" \
		"$QEMU_SRC/hw/misc/facedet/"
}

CONFIGURE_ARGS=(--target-list=aarch64-softmmu --without-default-features
	--without-default-devices --with-devices-aarch64=fdif-virt
	--enable-fdt=system --with-git-submodules=ignore
	--disable-install-blobs --disable-docs --disable-werror
	--enable-virtfs --enable-attr --enable-cap-ng)

configure_build() {
	local cfg
	cfg="$( { printf '%s\n' "${CONFIGURE_ARGS[@]}";
		hash_inputs "$QDEV/overlay/configs"; } | sha256sum | cut -c1-8)"
	QEMU_BUILD="$QCACHE/build-$QEMU_VER-$(patch_hash)-$cfg"
	[ -f "$QEMU_BUILD/build.ninja" ] && return 0
	progress "configuring qemu (aarch64-softmmu, virt board only)"
	rm -rf "$QCACHE"/build-*	# other configurations: superseded
	mkdir -p "$QEMU_BUILD"
	(cd "$QEMU_BUILD" && "$QEMU_SRC/configure" "${CONFIGURE_ARGS[@]}" \
		>configure.log 2>&1) ||
		{ tail -30 "$QEMU_BUILD/configure.log" >&2; rm -rf "$QEMU_BUILD"; die "qemu configure failed"; }
}

# ninja with a progress line every 200 steps instead of thousands of lines.
run_ninja() {
	local target=("$@")
	(cd "$QEMU_BUILD" && NINJA_STATUS='[%f/%t] ' ninja "${target[@]}" 2>&1) |
		awk '
			/^\[[0-9]+\/[0-9]+\] / { s = $1; gsub(/[][]/, "", s); split(s, a, "/");
				if (a[1] % 200 == 0 || a[1] == a[2])
					printf("[fdif] qemu build step %s of %s\n", a[1], a[2]) > "/dev/stderr";
				next }
			{ print > "/dev/stderr" }'
	return "${PIPESTATUS[0]}"
}

main() {
	apt_ensure "${QEMU_BUILD_PKGS[@]}"
	apt_src_enable
	fetch_source
	extract_source
	sync_new_files
	configure_build
	progress "building qemu-system-aarch64 and the qtest in $QEMU_BUILD (cold: ~6 min)"
	run_ninja qemu-system-aarch64 tests/qtest/omap4-fdif-test "$@" ||
		die "qemu build failed"
	echo "$QEMU_BUILD"
}

main "$@"
