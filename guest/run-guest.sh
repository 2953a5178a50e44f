#!/bin/bash
# Boot the fdif test guest in QEMU and turn what it reports into results.
#
#   run-guest.sh [--arch arm64|arm] [--debug-kernel] [--suite tests|stress] [--timeout S]
#                [--share DIR] [--cmd SCRIPT] [--data] [--gst] [--opencv]
#                [--device-opts OPTS] [--devices N] [--mem SIZE] [--out DIR]
#                [--kbuild DIR] [--module KO]... [--only NAME,...]
#
# Builds (or reuses from $FDIF_CACHE) the kernel with the driver, the
# patched QEMU, the arm64 programs and an initramfs; boots -M virt with the
# emulated FDIF (--devices N instances, default 2, each -device
# omap4-fdif,OPTS, or with OPTS 'A|B' the first A and the others B: QEMU's
# platform bus maps them at 0x0c000000, 0x0c001000, ... in command-line
# order); streams the console; enforces a timeout.
# Without --cmd it runs KUnit and every test binary of the suite and
# writes TAP files into --out (default $FDIF_BUILD/guest), failing if a
# test binary is missing, exits non-zero, crashes, or the guest splats,
# hangs or does not finish.
# --mem SIZE is the guest's RAM (default 1G; it starts at 1 GiB, so 4G puts
# memory above the device's 32-bit DMA reach, for the stress suite).
# --share DIR is mounted at /mnt in the guest (virtio-9p); --cmd runs the
# guest shell script SCRIPT (e.g. /mnt/run.sh) instead of the tests.
# The test pictures go to /data in the guest for the test suites, or with
# --data; the main job (--cmd, scripts/demo.sh) needs none of them.
# The test suites (no --cmd) run the 32-bit suites too: their armhf build
# (a cross compiler, the armhf libraries unpacked by armhf-root.sh) is
# made only for them and for --arch arm, never for a --cmd run on arm64
# (scripts/demo.sh, the benchmarks, the board kit's runner).
# --gst builds fdiffacedetect and its camera tests and tools for the
# arm64 guest and puts GStreamer in it (Debian's arm64 packages,
# gst-root.sh): the arm64 test suites always have it (fdif_gst), a --cmd
# run only when asked (scripts/demo.sh --camera, scripts/bench-camera.sh).
# --opencv adds gst-plugins-bad's facedetect (OpenCV) for the camera
# benchmark (scripts/bench-camera.sh; gst-root.sh --opencv, ~170 MB);
# it implies --gst.
# For the driver's mutation tests (tests/mutation/mutate.py, layer driver):
# --kbuild DIR boots the kernel build DIR (one accel-fdif/build.sh made and
# printed; with --debug-kernel its debug build) as it is, without running
# build.sh, so the cache's tree is neither synced nor rebuilt; --module KO
# puts KO, a module built out of tree against it, in place of the module
# of that name the build installs; --only NAME,... keeps only those
# programs of the suite (KUnit always runs), each of which must exist.
. "$(dirname "$0")/../scripts/lib.sh"

timeout_s=600 share= cmd= debug= suite=tests devopts="test-regs=on" out="$FDIF_BUILD/guest" data=
mem=1G arch=arm64 opencv= gst=
ndev=2 kbuild_given= only=
modules=()
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift ;;
	--debug-kernel) debug=--debug ;;
	--suite) suite=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	--share) share=$2; shift ;;
	--cmd) cmd=$2; shift ;;
	--device-opts) devopts=$2; shift ;;
	--devices) ndev=$2; shift ;;
	--mem) mem=$2; shift ;;
	--out) out=$2; shift ;;
	--data) data=1 ;;
	--gst) gst=1 ;;
	--opencv) opencv=--opencv gst=1 ;;
	--kbuild) kbuild_given=$2; shift ;;
	--module) modules+=("$2"); shift ;;
	--only) only=$2; shift ;;
	*) die "run-guest.sh: unknown option $1" ;;
	esac
	shift
done

case "$ndev" in [1-8]) ;; *) die "run-guest.sh: --devices takes 1..8" ;; esac
if [ -n "$kbuild_given" ]; then
	[ -f "$kbuild_given/.fdif-src" ] ||
		die "run-guest.sh: --kbuild $kbuild_given: not a kernel build of accel-fdif/build.sh (no .fdif-src)"
	kbuild_given="$(cd "$kbuild_given" && pwd)"
fi
for ko in ${modules[@]+"${modules[@]}"}; do
	case "$ko" in *.ko) ;; *) die "run-guest.sh: --module $ko: not a .ko file" ;; esac
	[ -f "$ko" ] || die "run-guest.sh: --module $ko: no such file"
done
[ -z "$only" ] || [ -z "$cmd" ] || die "run-guest.sh: --only is for the test suites, not --cmd"
case "$only" in *[!A-Za-z0-9_.,]*) die "run-guest.sh: --only takes NAME,NAME,..." ;; esac
case "$mem" in [1-8]G) ;; *) die "run-guest.sh: --mem takes 1G..8G" ;; esac
# --arch arm: a 32-bit ARM kernel (accel-fdif/build-arm32-virt.sh) on a
# Cortex-A15, and the armhf programs in /tests, as on an OMAP4 board
case "$arch" in
arm64) ;;
arm) [ -z "$debug" ] || die "run-guest.sh: no debug kernel for --arch arm"
	[ "$mem" = 1G ] || die "run-guest.sh: --arch arm takes 1G" ;;
*) die "run-guest.sh: --arch takes arm64 or arm" ;;
esac
# the armhf build: the test suites' 32-bit programs (on arm64 their
# .armhf copies, through the compat layer), or every program on --arch arm
armhf=
[ -n "$cmd" ] && [ "$arch" = arm64 ] || armhf=1
# GStreamer: the arm64 test suites' fdif_gst, or what --gst asked for
[ -n "$cmd" ] || [ "$arch" != arm64 ] || gst=1
[ -z "$gst" ] || [ "$arch" = arm64 ] ||
	die "run-guest.sh: --gst and --opencv are for the arm64 guest (the 32-bit one has no GStreamer)"

GUEST_PKGS=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross meson ninja-build cpio gzip
	pkg-config)
# arm64 libraries for the static guest build of libfdif-drm and fdif-detect
GUEST_ARM64_PKGS=(libdrm-dev:arm64 libpng-dev:arm64 libjpeg62-turbo-dev:arm64 libexif-dev:arm64
	zlib1g-dev:arm64 libjson-c-dev:arm64)
apt_ensure "${GUEST_PKGS[@]}"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	progress "enabling the arm64 architecture in dpkg (for guest packages)"
	as_root dpkg --add-architecture arm64
	rm -f "$FDIF_CACHE/.apt-updated"
fi
apt_ensure "${GUEST_ARM64_PKGS[@]}"
# the same for the 32-bit build of the uAPI, library and CLI suites (armhf,
# as OMAP4 boards run them; the arm64 kernel runs them through COMPAT):
# the cross toolchain and its C library; the other libraries' armhf .debs
# are unpacked, not installed (armhf-root.sh), and the armhf package
# lists are for those and busybox
GUEST_ARMHF_PKGS=(gcc-arm-linux-gnueabihf libc6-dev-armhf-cross file)
if [ -n "$armhf" ]; then
	if ! dpkg --print-foreign-architectures | grep -qx armhf; then
		progress "enabling the armhf architecture in dpkg (for 32-bit guest packages)"
		as_root dpkg --add-architecture armhf
		rm -f "$FDIF_CACHE/.apt-updated"
	fi
	apt_ensure "${GUEST_ARMHF_PKGS[@]}"
	# (an architecture just added has none until an update; one that fails
	# may still bring the lists the downloads need)
	armhf_lists() { [ -n "$(ls /var/lib/apt/lists/*_binary-armhf_Packages* 2>/dev/null)" ]; }
	if ! armhf_lists; then
		apt_update || true
		armhf_lists || die "run-guest.sh: no armhf package lists (apt-get update failed, above)"
	fi
	armhf_root="$("$FDIF_ROOT/guest/armhf-root.sh")" ||
		die "run-guest.sh: the armhf libraries could not be unpacked"
fi
# GStreamer for the arm64 guest's camera pipelines (fdiffacedetect,
# fdif_gst): the multiarch runtime and core development packages; the
# plugins-base development files, not multi-arch, come unpacked from
# their .deb (gst-root.sh --pkgconfig). The 32-bit guest has none.
GUEST_GST_PKGS=(libgstreamer1.0-dev:arm64 liborc-0.4-dev:arm64
	libgstreamer-plugins-base1.0-0:arm64 gstreamer1.0-plugins-base:arm64
	gstreamer1.0-plugins-good:arm64)
if [ -n "$gst" ]; then
	apt_ensure "${GUEST_GST_PKGS[@]}"
	gst_pc="$("$FDIF_ROOT/guest/gst-root.sh" --pkgconfig)"
fi

[ -n "$cmd" ] || data=1	# the test suites read the test pictures
if [ -n "$data" ]; then
	apt_ensure "${FDIF_HOST_PKGS[@]}"
	meson_build	# makes the test pictures (qemu-device/facedet/tests)
fi
if [ -n "$kbuild_given" ]; then
	kbuild=$kbuild_given
elif [ "$arch" = arm ]; then
	kbuild="$("$FDIF_ROOT/accel-fdif/build-arm32-virt.sh")"
else
	kbuild="$("$FDIF_ROOT/accel-fdif/build.sh" $debug)"
fi
qbuild="$("$FDIF_ROOT/qemu-device/build.sh")"
ksrc="$(sed -n 's/^KSRC=//p' "$kbuild/.fdif-src")"
mkdir -p "$out"

# busybox for the guest's Debian architecture (arm64, armhf), cached
busybox_deb() { # busybox_deb ARCH
	local dir="$FDIF_CACHE/guest" deb
	mkdir -p "$dir"
	deb="$(ls "$dir"/busybox-static_*_"$1".deb 2>/dev/null | head -1)"
	if [ -z "$deb" ]; then
		progress "downloading busybox-static:$1"
		apt_fetch "$dir" download "busybox-static:$1" ||
			die "cannot download busybox-static:$1"
		deb="$(ls "$dir"/busybox-static_*_"$1".deb | head -1)"
	fi
	echo "$deb"
}

# the arm64 programs (the 32-bit guest runs the armhf ones, below): with
# GStreamer in a build folder of their own, so that a run without it
# neither needs its packages nor undoes a build with it
if [ -n "$gst" ]; then
	gb="$FDIF_BUILD/guest-arm64-gst"
	# the cross file's pkg-config path with the unpacked plugins-base files first
	gst_ini="$FDIF_BUILD/guest-arm64-gst.ini"
	printf "[properties]\npkg_config_libdir = ['%s', '/usr/lib/aarch64-linux-gnu/pkgconfig', '/usr/share/pkgconfig']\n" \
		"$gst_pc" > "$gst_ini.new"
	cmp -s "$gst_ini.new" "$gst_ini" || { mv "$gst_ini.new" "$gst_ini"; rm -rf "$gb"; }
	rm -f "$gst_ini.new"
	cross=(--cross-file "$FDIF_ROOT/guest/aarch64.ini" --cross-file "$gst_ini")
else
	gb="$FDIF_BUILD/guest-arm64"
	cross=(--cross-file "$FDIF_ROOT/guest/aarch64.ini")
fi
if [ "$arch" = arm64 ]; then
	progress "building the guest side: libfdif-drm, fdif-detect, tests${gst:+, fdiffacedetect} (arm64, static)"
	# a folder set up with other cross files (one with GStreamer, before
	# it had a folder of its own) is set up again
	[ ! -f "$gb/build.ninja" ] || [ "$(cat "$gb/.fdif-cross" 2>/dev/null)" = "${cross[*]}" ] ||
		rm -rf "$gb"
	# the arm64 uAPI headers: the arm64 kernel's (the same tree and config)
	if [ ! -f "$gb/build.ninja" ]; then
		meson setup "$gb" "$FDIF_ROOT" -Dguest=true "${cross[@]}" \
			-Dkernel_headers="$kbuild/usr/include" \
			-Dselftests="$ksrc/tools/testing/selftests" >/dev/null
		echo "${cross[*]}" > "$gb/.fdif-cross"
	else
		meson configure "$gb" -Dkernel_headers="$kbuild/usr/include" \
			-Dselftests="$ksrc/tools/testing/selftests" >/dev/null
	fi
	ninja -C "$gb" >/dev/null || ninja -C "$gb"
fi

hb="$FDIF_BUILD/guest-armhf"
if [ -n "$armhf" ]; then
	progress "building the guest side for armhf: 32-bit uAPI, library and CLI suites"
	# 32-bit ARM uAPI headers (asm/), outside the source tree for meson
	hdr="$FDIF_CACHE/kernel/armhf-headers-$(basename "$ksrc")"
	make -s -C "$ksrc" O="$hdr" ARCH=arm headers_install >/dev/null ||
		die "run-guest.sh: ARCH=arm headers_install failed"
	# the cross file's libraries: the unpacked armhf ones (jconfig.h is in
	# the triplet's include folder, which no .pc file names)
	root_ini="$FDIF_BUILD/guest-armhf-root.ini"
	printf "[properties]\npkg_config_libdir = ['%s']\n[built-in options]\nc_args = ['-isystem', '%s']\n" \
		"$armhf_root/usr/lib/arm-linux-gnueabihf/pkgconfig" \
		"$armhf_root/usr/include/arm-linux-gnueabihf" > "$root_ini.new"
	cmp -s "$root_ini.new" "$root_ini" || { mv "$root_ini.new" "$root_ini"; rm -rf "$hb"; }
	rm -f "$root_ini.new"
	if [ ! -f "$hb/build.ninja" ]; then
		meson setup "$hb" "$FDIF_ROOT" -Dguest=true \
			--cross-file "$FDIF_ROOT/guest/armhf.ini" --cross-file "$root_ini" \
			-Dkernel_headers="$hdr/usr/include" \
			-Dselftests="$ksrc/tools/testing/selftests" >/dev/null ||
			die "run-guest.sh: meson setup of $hb failed (see its meson-logs)"
	else
		meson configure "$hb" -Dkernel_headers="$hdr/usr/include" \
			-Dselftests="$ksrc/tools/testing/selftests" >/dev/null
	fi
	ninja -C "$hb" >/dev/null || ninja -C "$hb"
fi

progress "packing the initramfs"
root="$FDIF_BUILD/guest-root"
rm -rf "$root" && mkdir -p "$root"/{bin,lib/modules,tests,data,proc,sys,dev,tmp,mnt}
if [ "$arch" = arm ]; then
	dpkg -x "$(busybox_deb armhf)" "$root/pkg"
else
	dpkg -x "$(busybox_deb arm64)" "$root/pkg"
fi
cp "$root/pkg/bin/busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
rm -rf "$root/pkg"
cp "$FDIF_ROOT/guest/init" "$root/init"
if [ "$arch" = arm ]; then
	make -s -C "$ksrc" O="$kbuild" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
		INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install >/dev/null
	# the guest's programs are the armhf ones
	gb=$hb
else
	make -s -C "$ksrc" O="$kbuild" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 modules_install >/dev/null
fi
# --module: a module built out of tree in place of the installed one
for ko in ${modules[@]+"${modules[@]}"}; do
	dest="$(find "$root/lib/modules" -name "$(basename "$ko")")"
	[ -n "$dest" ] && [ "$(printf '%s\n' "$dest" | wc -l)" -eq 1 ] ||
		die "run-guest.sh: --module $ko: the kernel build installed no one $(basename "$ko")"
	progress "$(basename "$ko"): $ko in place of the kernel build's"
	cp "$ko" "$dest"
done
# the stress suite's test module (stalls a function's entry), built
# out of tree against the debug kernel (the one with function tracing)
kmod="$FDIF_BUILD/guest-kmod-debug"
if [ -n "$debug" ]; then
	mkdir -p "$kmod" "$root/lib/fdif-test"
	rsync -r --checksum "$FDIF_ROOT/igt-tests/kmod/" "$kmod/"
	make -s -C "$ksrc" O="$kbuild" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		M="$kmod" W=1 modules >/dev/null
fi
# every program the guest runs; a missing one is an error, not a skip.
# Where each is in a guest build folder ($gb, the arm64 or the armhf one):
# the driver's suites in igt-tests/, the library's, the CLI's and the
# camera's in libfdif-drm/tests/guest/, the element's in gst/tests/guest/,
# the guest's own tools in guest/
guest_file() { # guest_file SRC DEST
	[ -f "$1" ] || die "run-guest.sh: $1 was not built"
	cp "$1" "$2"
}
UAPI_SUITES=(fdif_query fdif_bo fdif_submit_args fdif_submit_detect fdif_submit_sync
	fdif_submit_queue fdif_reset fdif_fdinfo fdif_pm fdif_multi)
# (in the order they run, the allocation failures last: an injected
# failure can turn DMA-API debugging off for the rest of the boot)
STRESS_SUITES=(fdif_stress_unbind fdif_stress_faults fdif_stress_timeout fdif_stress_alloc)
# the 32-bit suites the arm64 guest runs through the compat layer
COMPAT_SUITES=(fdif_query fdif_bo fdif_submit_args fdif_submit_detect fdif_submit_sync
	fdif_submit_queue)
lt=libfdif-drm/tests/guest
for t in "${UAPI_SUITES[@]}"; do
	guest_file "$gb/igt-tests/$t" "$root/tests/"
done
guest_file "$gb/$lt/fdif_lib" "$root/tests/"
guest_file "$gb/$lt/fdif_camera" "$root/tests/"
guest_file "$FDIF_ROOT/$lt/fdif_cli.sh" "$root/tests/fdif_cli"
guest_file "$FDIF_ROOT/$lt/fdif_camera_cli.sh" "$root/tests/fdif_camera_cli"
# on arm64, for the test suites, the 32-bit ones too, counted as their own
# result files (NAME.armhf.tap): the compat layer
if [ "$arch" = arm64 ] && [ -n "$armhf" ]; then
	for t in "${COMPAT_SUITES[@]}"; do
		guest_file "$hb/igt-tests/$t" "$root/tests/$t.armhf"
	done
	guest_file "$hb/$lt/fdif_lib" "$root/tests/fdif_lib.armhf"
	mkdir -p "$root/bin/armhf"
	guest_file "$hb/libfdif-drm/fdif-detect" "$root/bin/armhf/"
	file -b "$root/bin/armhf/fdif-detect" | grep -q '^ELF 32-bit.*ARM' ||
		die "run-guest.sh: the armhf fdif-detect is not a 32-bit ARM program"
	printf '#!/bin/sh\n# fdif_cli with the armhf fdif-detect\nPATH=/bin/armhf:$PATH exec sh /tests/fdif_cli\n' \
		> "$root/tests/fdif_cli.armhf"
	chmod +x "$root/tests/fdif_cli.armhf"
fi
mkdir -p "$root/stress"
for t in "${STRESS_SUITES[@]}"; do
	guest_file "$gb/igt-tests/$t" "$root/stress/"
done
[ -z "$debug" ] || guest_file "$kmod/fdif_delay.ko" "$root/lib/fdif-test/"
# the debug kernel's demonstration of a core bug (scripts/kasan-fence-demo.sh)
[ -z "$debug" ] || guest_file "$gb/igt-tests/fdif_fence_uaf" "$root/bin/"
# the debug kernel (KASAN, lockdep, kmemleak) runs the uAPI suites too,
# and the camera's (imports of vivid's buffers, the device unbound under
# a pipeline)
for t in "${UAPI_SUITES[@]}"; do
	guest_file "$gb/igt-tests/$t" "$root/stress/"
done
guest_file "$gb/$lt/fdif_camera" "$root/stress/"
guest_file "$gb/libfdif-drm/fdif-detect" "$root/bin/"
guest_file "$gb/igt-tests/fdif_bench" "$root/bin/"
# the camera: the frame loop example and the player for vivid's loop
guest_file "$gb/$lt/fdif-camera" "$root/bin/"
guest_file "$gb/guest/fdif-vivid-feed" "$root/bin/"
# GStreamer (Debian's arm64 libraries and plugins) and fdiffacedetect,
# for the camera pipelines (fdif_gst, scripts/demo.sh --camera)
if [ -n "$gst" ]; then
	gplug="$root/usr/lib/aarch64-linux-gnu/gstreamer-1.0"
	mkdir -p "$gplug"
	guest_file "$gb/gst/libgstfdif.so" "$gplug/"
	guest_file "$gb/gst/tests/guest/fdif_gst" "$root/tests/"
	cp "$root/tests/fdif_gst" "$root/stress/"
	guest_file "$gb/gst/tests/guest/fdif-gst-faces" "$root/bin/"
	"$FDIF_ROOT/guest/gst-root.sh" $opencv "$root" "$gplug/libgstfdif.so" \
		"$root/tests/fdif_gst" "$root/bin/fdif-gst-faces"
fi
# the stress boot's order (guest/init): the uAPI and camera suites by name,
# then the reliability suite's programs
(cd "$root/stress" && for t in fdif_*; do
	case " ${STRESS_SUITES[*]} " in *" $t "*) ;; *) echo "$t" ;; esac
done; printf '%s\n' "${STRESS_SUITES[@]}") > "$root/stress/ORDER"
# --only: the suite's other programs left out (and out of its order)
if [ -n "$only" ]; then
	sdir="$root/$suite"
	for n in ${only//,/ }; do
		[ -e "$sdir/$n" ] || die "run-guest.sh: --only $n: the $suite suite has no such program"
	done
	for t in "$sdir"/fdif_*; do
		case ",$only," in *",$(basename "$t"),"*) ;; *) rm -f "$t" ;; esac
	done
	if [ -f "$sdir/ORDER" ]; then
		tr ',' '\n' <<< "$only" | grep -Fx -f - "$sdir/ORDER" > "$sdir/ORDER.only" || true
		mv "$sdir/ORDER.only" "$sdir/ORDER"
	fi
fi
# the board kit's runner, as a board owner runs it (test.sh's guest stage:
# --cmd /bin/board-run). Its results come out on the console, as a
# tarball: a system suspend (fdif_pm) leaves the virtio-9p share hung.
guest_file "$FDIF_ROOT/scripts/board-test.sh" "$root/bin/"
cat > "$root/bin/board-run" <<'EOS'
#!/bin/sh
sh /bin/board-test.sh --suites /tests --detect /bin --cli /tests/fdif_cli \
	--out /tmp/board-results --no-summary
rc=$?
(cd /tmp/board-results && tar c . | gzip | base64) | sed 's/^/@@FDIF-BOARD /'
exit $rc
EOS
chmod +x "$root/bin/board-run"
if [ -n "$data" ]; then
	fx="$FDIF_BUILD/qemu-device/facedet/tests"
	for f in astronaut astronaut-cw90 astronaut-ccw90 landscape hopper lfw-15 lfw-60; do
		guest_file "$fx/$f.pgm" "$root/data/"
		guest_file "$fx/$f.truth" "$root/data/"
	done
	guest_file "$fx/astronaut-1080p.jpg" "$root/data/"
	# the original photo, with the faces marked on it (testdata/)
	astro=/usr/lib/python3/dist-packages/skimage/data/astronaut.png
	guest_file "$astro" "$root/data/"
	awk -F'\t' -v path="$astro" '
		FNR == 1 { next }
		FILENAME ~ /photos.tsv$/ { if ($5 == path) name = $1; next }
		$1 == name { print $2, $3, $4, $5 }' \
		"$FDIF_ROOT/testdata/photos.tsv" "$FDIF_ROOT/testdata/faces.tsv" \
		> "$root/data/astronaut.png.truth"
	[ -s "$root/data/astronaut.png.truth" ] || die "testdata/ has no faces for $astro"
fi
initrd="$FDIF_BUILD/guest-initramfs.cpio.gz"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd"

append="console=ttyAMA0 quiet loglevel=1 cma=256M panic=-1 fdif.timeout_ms=2000 fdif.suite=$suite"
case "$cmd" in *' '*) die "--cmd takes one guest path (a shell script), no spaces" ;; esac
[ -n "$cmd" ] && append+=" fdif.cmd=$cmd"
if [ "$arch" = arm ]; then
	cpu=cortex-a15 image="$kbuild/arch/arm/boot/zImage"
else
	cpu=cortex-a57 image="$kbuild/arch/arm64/boot/Image"
fi
qemu_args=(-M virt -cpu "$cpu" -smp 2 -m "$mem" -nodefaults -nographic
	-serial stdio -no-reboot
	-kernel "$image" -initrd "$initrd"
	-append "$append")
# every instance with the same options (fdif_multi needs two), or with
# its own: --device-opts 'A|B' gives the first A, the second (and later) B
IFS='|' read -r -a devopt_list <<< "$devopts"
for ((i = 0; i < ndev; i++)); do
	o=${devopt_list[i]-${devopt_list[${#devopt_list[@]} - 1]-}}
	qemu_args+=(-device "omap4-fdif${o:+,$o}")
done
if [ -n "$share" ]; then
	qemu_args+=(-fsdev "local,id=share,path=$share,security_model=none"
		-device "virtio-9p-device,fsdev=share,mount_tag=fdifshare")
fi

progress "booting the guest (timeout ${timeout_s}s)"
log="$out/console.log"
set +e
timeout --foreground "$timeout_s" "$qbuild/qemu-system-aarch64" "${qemu_args[@]}" \
	</dev/null 2>&1 | tee "$log" | sed -n 's/^@@FDIF-/[guest] /p; /^\(not \)\?ok /p' >&2
qrc=${PIPESTATUS[0]}
set -e
[ "$qrc" -eq 124 ] && echo "@@FDIF-ERROR timeout after ${timeout_s}s" >> "$log"

exec /usr/bin/python3 "$FDIF_ROOT/guest/parse-console.py" "$log" "$out"
