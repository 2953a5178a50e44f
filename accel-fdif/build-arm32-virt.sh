#!/bin/bash
# Build the 32-bit ARM guest kernel (zImage and modules) for QEMU's virt
# machine: allnoconfig + config/fdif.config (without its arm64-only lines)
# + config/arm32-virt.config, on the same patched tree as the arm64
# kernels. The arm32 stage boots it (run-guest.sh --arch arm). Cached in
# $FDIF_CACHE/kernel/build-arm32virt-*, keyed by the tree and fragments.
# Prints the build directory on stdout.
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
KCACHE="$FDIF_CACHE/kernel"
apt_ensure gcc-arm-linux-gnueabihf
export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-

# the arm64 build unpacks, patches and syncs the tree (and is cached)
kbuild64="$("$KDIR/build.sh")"
ksrc="$(sed -n 's/^KSRC=//p' "$kbuild64/.fdif-src")"
frags=("$KDIR/config/fdif.config" "$KDIR/config/arm32-virt.config")
key="$(basename "$ksrc" | sed 's/^src-//')-$(hash_inputs "${frags[@]}")"
KBUILD="$KCACHE/build-arm32virt-$key"
if [ ! -f "$KBUILD/.config" ]; then
	rm -rf "$KCACHE"/build-arm32virt-*	# other trees or fragments: superseded
	mkdir -p "$KBUILD"
	progress "configuring the 32-bit ARM guest kernel (allnoconfig + fdif.config + arm32-virt.config)"
	# fdif.config's arm64-only lines (the compat layer) do not apply
	grep -v '^CONFIG_COMPAT=' "$KDIR/config/fdif.config" > "$KBUILD/fdif-arm.config"
	make -s -C "$ksrc" O="$KBUILD" allnoconfig >/dev/null
	(cd "$KBUILD" && "$ksrc/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" \
		.config fdif-arm.config "$KDIR/config/arm32-virt.config" >/dev/null)
	make -s -C "$ksrc" O="$KBUILD" olddefconfig >/dev/null
	kconfig_check "$KBUILD/.config" "$KBUILD/fdif-arm.config" "$KDIR/config/arm32-virt.config" ||
		{ rm -f "$KBUILD/.config"; die "the 32-bit ARM guest config is not satisfiable"; }
fi
inputs="$(kernel_build_inputs "$KDIR")"
if [ "$(cat "$KBUILD/.fdif-built" 2>/dev/null)" = "$inputs" ] && [ -f "$KBUILD/.fdif-src" ]; then
	echo "$KBUILD"
	exit 0
fi
rm -f "$KBUILD/.fdif-built"
progress "building the 32-bit ARM guest kernel and modules in $KBUILD (cold: ~6 min)"
make -s -C "$ksrc" O="$KBUILD" -j"$(nproc)" zImage modules >&2 ||
	die "32-bit ARM kernel build failed"
echo "KSRC=$ksrc" > "$KBUILD/.fdif-src"
echo "$inputs" > "$KBUILD/.fdif-built"
echo "$KBUILD"
