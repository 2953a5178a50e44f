#!/bin/bash
# Prepare a 32-bit ARM kernel build for OMAP4 boards (omap2plus_defconfig +
# config/omap4.config) on the same patched tree as the arm64 kernels, far
# enough to compile the driver's objects (modules_prepare): the checks
# stage builds drivers/accel/fdif there at W=1 with sparse. Cached in
# $FDIF_CACHE/kernel/build-arm32-*, keyed by the tree and the fragment.
# Prints the build directory on stdout.
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
KCACHE="$FDIF_CACHE/kernel"
apt_ensure gcc-arm-linux-gnueabihf
export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-

# the arm64 build unpacks, patches and syncs the tree (and is cached)
kbuild64="$("$KDIR/build.sh")"
ksrc="$(sed -n 's/^KSRC=//p' "$kbuild64/.fdif-src")"
frag="$KDIR/config/omap4.config"
KBUILD="$KCACHE/build-arm32-$(basename "$ksrc" | sed 's/^src-//')-$(hash_inputs "$frag")"
if [ ! -f "$KBUILD/.fdif-prepared" ]; then
	rm -rf "$KCACHE"/build-arm32-*	# other trees or fragments: superseded
	mkdir -p "$KBUILD"
	progress "configuring the 32-bit ARM kernel (omap2plus_defconfig + omap4.config)"
	make -s -C "$ksrc" O="$KBUILD" omap2plus_defconfig >/dev/null
	(cd "$KBUILD" && "$ksrc/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" \
		.config "$frag" >/dev/null)
	make -s -C "$ksrc" O="$KBUILD" olddefconfig >/dev/null
	kconfig_check "$KBUILD/.config" "$frag" ||
		die "the OMAP4 config fragment is not satisfiable"
	progress "preparing the 32-bit ARM kernel tree for module builds (~2 min)"
	make -s -C "$ksrc" O="$KBUILD" -j"$(nproc)" modules_prepare >&2 ||
		die "ARM modules_prepare failed"
	touch "$KBUILD/.fdif-prepared"
fi
echo "$KBUILD"
