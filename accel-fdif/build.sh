#!/bin/bash
# Build the arm64 guest kernel from Debian's linux-source-6.12 with the
# fdif accel driver, cross-compiled with gcc-aarch64-linux-gnu.
# Everything lands in $FDIF_CACHE/kernel:
#
#   src-<ver>-<patchhash>/      pristine tree + patches/, overlay synced in
#   build-<ver>-<patchhash>-<cfghash>[-debug]/   O= build dir (incremental)
#
# Usage: build.sh [--debug]   (--debug: KASAN, lockdep, kmemleak, ...)
# Prints the build directory on stdout (arch/arm64/boot/Image, and the
# module drivers/accel/fdif/fdif.ko in it).
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
KCACHE="$FDIF_CACHE/kernel"
mkdir -p "$KCACHE"
KERNEL_PKGS=(linux-source-6.12 gcc-aarch64-linux-gnu make bc bison flex
	libssl-dev libelf-dev cpio kmod xz-utils rsync)
export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-

VARIANT=
[ "${1:-}" = --debug ] && VARIANT=-debug

extract_source() {
	local ver dir
	ver="$(dpkg-query -W -f='${Version}' linux-source-6.12)"
	dir="$KCACHE/src-$ver-$(hash_inputs "$KDIR/patches")"
	KSRC="$dir"
	[ -f "$dir/.fdif-ready" ] && return 0
	progress "unpacking linux-source-6.12 ($ver)"
	rm -rf "$KCACHE"/src-* "$KCACHE"/build-*
	mkdir -p "$dir"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$dir" --strip-components=1
	apply_patches "$dir" "$KDIR"/patches/*.patch
	touch "$dir/.fdif-ready"
}

# New files mirror the kernel tree under accel-fdif/ (drivers/, include/,
# Documentation/); --checksum keeps unchanged files' mtimes.
sync_new_files() {
	local d
	for d in drivers include Documentation; do
		[ -d "$KDIR/$d" ] && rsync -r --checksum "$KDIR/$d/" "$KSRC/$d/"
	done
	return 0
}

configure() {
	local frags=("$KDIR/config/fdif.config") cfg
	[ -n "$VARIANT" ] && frags+=("$KDIR/config/debug.config")
	cfg="$(hash_inputs "${frags[@]}")"
	KBUILD="$KCACHE/build-$(basename "$KSRC" | sed 's/^src-//')-$cfg$VARIANT"
	[ -f "$KBUILD/.config" ] && return 0
	progress "configuring the kernel (allnoconfig + ${frags[*]##*/})"
	local d	# drop superseded configurations of the same variant
	for d in "$KCACHE"/build-*; do
		[ -d "$d" ] || continue
		case "$d" in
		*-debug) [ -n "$VARIANT" ] && rm -rf "$d" ;;
		*) [ -z "$VARIANT" ] && rm -rf "$d" ;;
		esac
	done
	mkdir -p "$KBUILD"
	make -s -C "$KSRC" O="$KBUILD" allnoconfig >/dev/null
	(cd "$KBUILD" && "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" \
		.config "${frags[@]}" >/dev/null)
	make -s -C "$KSRC" O="$KBUILD" olddefconfig >/dev/null
	# every fragment line must have survived: a dropped option is a bug
	kconfig_check "$KBUILD/.config" "${frags[@]}" ||
		{ rm -f "$KBUILD/.config"; die "kernel config fragment not satisfiable"; }
}

main() {
	apt_ensure "${KERNEL_PKGS[@]}"
	extract_source
	sync_new_files
	configure
	local stamp="$KBUILD/.fdif-built" inputs
	inputs="$(kernel_build_inputs "$KDIR")"
	if [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ] && [ -f "$KBUILD/.fdif-src" ]; then
		echo "$KBUILD"
		return 0
	fi
	rm -f "$stamp"
	local eta=8	# minutes, measured cold on 2 cores (the debug kernel 11)
	[ -n "$VARIANT" ] && eta=11
	progress "building the arm64 kernel and modules in $KBUILD (cold: ~$eta min)"
	make -s -C "$KSRC" O="$KBUILD" -j"$(nproc)" Image modules >&2 ||
		die "kernel build failed"
	make -s -C "$KSRC" O="$KBUILD" headers_install >&2 ||
		die "kernel headers_install failed"
	echo "KSRC=$KSRC" > "$KBUILD/.fdif-src"
	echo "$inputs" > "$stamp"
	echo "$KBUILD"
}

main "$@"
