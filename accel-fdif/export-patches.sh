#!/bin/bash
# Export the driver as a `git am`-able patch series on top of the pristine
# Debian linux-source-6.12 tree.
#
#   export-patches.sh [OUTDIR]     (default: build/accel-fdif-patches)
#
# The pristine tree is unpacked and committed once into
# $FDIF_CACHE/kernel/pristine-<ver> (a git repository); each export builds
# a fresh branch there, one commit per logical step, and runs
# `git format-patch`. It then checks the series with `git am` on a clean
# checkout and with scripts/checkpatch.pl --strict.
. "$(dirname "$0")/../scripts/lib.sh"

KDIR="$FDIF_ROOT/accel-fdif"
out="${1:-$FDIF_BUILD/accel-fdif-patches}"
apt_ensure linux-source-6.12 git xz-utils python3
ver="$(dpkg-query -W -f='${Version}' linux-source-6.12)"
repo="$FDIF_CACHE/kernel/pristine-$ver"
git_() { git -C "$repo" -c user.name="$(git -C "$FDIF_ROOT" config user.name || echo fdif)" \
	-c user.email="$(git -C "$FDIF_ROOT" config user.email || echo fdif@localhost)" "$@"; }

if [ ! -f "$repo/.fdif-ready" ]; then
	progress "unpacking and committing the pristine tree (once, ~2 min)"
	rm -rf "$repo" && mkdir -p "$repo"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$repo" --strip-components=1
	git_ init -q -b pristine
	git_ add -A -f >/dev/null	# Debian's tree ignores "/*"
	git_ commit -q -m "Debian linux-source-6.12 $ver"
	touch "$repo/.git/fdif-ready" "$repo/.fdif-ready"
	echo ".fdif-ready" >> "$repo/.git/info/exclude"
fi

git_ checkout -q -f pristine
git_ branch -q -D fdif 2>/dev/null || true
git_ checkout -q -b fdif

commit() { # commit SUBJECT BODY PATH...
	local subject=$1 body=$2
	shift 2
	git_ add -f "$@"
	git_ commit -q -s -m "$subject" -m "$body"
}

cp -r "$KDIR/include/." "$repo/include/"
commit "accel/fdif: add the uAPI header" \
"The uAPI of the TI OMAP4 Face Detection module driver: sized capability
queries (device, picture formats, minimum sizes, object classes, result
layout), contiguous buffer objects with an absolute-deadline wait, and
batches of detection jobs with syncobj and sync_file fences, whose results
the kernel writes into a versioned, sized result region.

Nothing in it is fixed to the OMAP4's 320x240 grey faces: pictures are DRM
fourccs with up to three planes, classes and directions are masks, jobs are
passed with their size and grow by appending fields whose zero keeps the
old behaviour, and query answers and result objects grow at the end. What
the OMAP4 does not use (planes 1 and 2, unknown flags and mask bits,
padding) must be zero, so later hardware can give it a meaning." \
	include/uapi/drm/fdif_accel.h

mkdir -p "$repo/Documentation/devicetree/bindings/accel"
cp "$KDIR/Documentation/devicetree/bindings/accel/ti,omap4-fdif.yaml" \
	"$repo/Documentation/devicetree/bindings/accel/"
commit "dt-bindings: accel: add the TI OMAP4 Face Detection module" \
"The FDIF of OMAP4 finds faces in pictures in memory; describe its register
window and its interrupt towards the MPU." \
	Documentation/devicetree/bindings/accel/ti,omap4-fdif.yaml

cp -r "$KDIR/drivers/." "$repo/drivers/"
patch -d "$repo" -p1 --quiet < "$KDIR/patches/0001-accel-hook-up-the-fdif-driver.patch"
commit "accel/fdif: add the TI OMAP4 Face Detection module driver" \
"A DRM accel driver for the FDIF: GEM DMA buffer objects below 4 GiB, a
query ioctl whose answers are the module's limits and a job check that
enforces the same limits (one device: no generation table, the register
code called by name), a batched submit ioctl that validates every handle,
offset and size and runs jobs through drm_sched (one hardware queue, one
entity per file), completion from a threaded interrupt, recovery of hung
jobs by soft reset through drm_sched_stop() and drm_sched_start(),
runtime PM with autosuspend and the standby handshake, fdinfo and
debugfs. KUnit walks every query answer through the job check, tests
the growth rules (sized jobs and answers) in user memory, register
packing and result unpacking." \
	drivers/accel/fdif drivers/accel/Kconfig drivers/accel/Makefile

mkdir -p "$repo/Documentation/accel/fdif"
cp "$KDIR/Documentation/accel/fdif/index.rst" "$repo/Documentation/accel/fdif/"
python3 - "$repo/Documentation/accel/index.rst" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
if "fdif/index" not in s:
    s = s.replace("   amdxdna/index\n", "   amdxdna/index\n   fdif/index\n", 1) \
        if "amdxdna/index" in s else s.replace("   qaic/index\n", "   fdif/index\n   qaic/index\n", 1)
open(p, "w").write(s)
PY
commit "Documentation/accel: document the fdif driver" \
"How the FDIF is exposed, its uAPI, fdinfo keys and debugfs files." \
	Documentation/accel/fdif/index.rst Documentation/accel/index.rst

python3 - "$repo/MAINTAINERS" "$(git -C "$FDIF_ROOT" config user.name || echo fdif)" \
	"$(git -C "$FDIF_ROOT" config user.email || echo fdif@localhost)" <<'PY'
import sys
p, name, mail = sys.argv[1:4]
s = open(p).read()
entry = ("DRM ACCEL DRIVER FOR TI OMAP4 FACE DETECTION MODULE (FDIF)\n"
         "M:\t%s <%s>\n"
         "L:\tdri-devel@lists.freedesktop.org\n"
         "S:\tMaintained\n"
         "F:\tDocumentation/accel/fdif/\n"
         "F:\tDocumentation/devicetree/bindings/accel/ti,omap4-fdif.yaml\n"
         "F:\tdrivers/accel/fdif/\n"
         "F:\tinclude/uapi/drm/fdif_accel.h\n\n") % (name, mail)
anchor = "DRM ACCEL DRIVERS FOR INTEL VPU"
i = s.index(anchor)
open(p, "w").write(s[:i] + entry + s[i:])
PY
commit "MAINTAINERS: add an entry for accel/fdif" "Who looks after the FDIF driver." MAINTAINERS

"$KDIR/dts/add-omap4-fdif-node.py" "$repo/arch/arm/boot/dts/ti/omap/omap4-l4.dtsi"
commit "ARM: dts: omap4: add the Face Detection module" \
"The FDIF target module at 0x4a10a000 had no child node: describe the FDIF
itself, with its MPU interrupt (69), so its driver binds." \
	arch/arm/boot/dts/ti/omap/omap4-l4.dtsi

git_ config branch.fdif.description "accel: add a driver for the TI OMAP4 Face Detection module

The OMAP4 FDIF finds faces in 320x240 grey pictures in memory. A misc
driver for it was proposed in 2011 and not merged; this series exposes it
as a DRM accel device instead: GEM buffer objects, a validated, batched
submit ioctl scheduled through drm_sched, syncobj and sync_file fences, and
results written into a sized result region before each job's fence
signals. Capabilities are sized queries; pictures are fourccs with planes;
classes and directions are masks; jobs grow by appending fields. Later
hardware (bigger or NV12 pictures, several directions a pass, more objects,
landmarks) is new query answers, not a new uAPI.

Why accel and not V4L2 mem2mem, as asked in 2011:
- a detection is a job whose completion other engines' work chains on:
  DRM has syncobjs, sync_file and dma-resv implicit sync, and drm_sched
  gives per-file queues, timeouts and recovery; V4L2 has no fences;
- frames from a V4L2 camera import without a copy (VIDIOC_EXPBUF, then
  PRIME), so the camera stays in V4L2;
- a V4L2 path would still need a metadata capture format for object lists,
  controls for every detection parameter, and a way to pair each metadata
  buffer with its frame, and would still lack fences.

It was developed against the emulated FDIF of a patched QEMU (-M virt
-device omap4-fdif) and tested there with KUnit and IGT-style tests. It
has not run on OMAP4 silicon. For the OMAP4 itself: the driver builds for
ARCH=arm with omap2plus_defconfig at W=1 with sparse and without 64-bit
division helpers, and the omap4-panda, omap4-panda-es and omap4-sdp DTBs
with the new node pass dt-validate against every binding (no finding for
the FDIF node; Debian bookworm's dt-schema 2022.08).

Recovery is a soft reset only (the PRCM's reset line is ti-sysc's, and
not requested). When one does not complete, the module may still run the
job it was meant to stop: that job's BOs stay with the device until a
reset completes, and if the device goes first, their memory is never
freed, and the kernel log says how much.

A bug this driver cannot fix, in the scheduler's core code: a job killed
before it ran (its file closed while it waited on another driver's fence)
has no hardware fence, so nothing holds the scheduler for its scheduler
fences, and drm_sched_fence_get_timeline_name() reads fence->sched->name.
Once the job is freed with the device unbound and every file closed, the
drm_device, and the scheduler in it, go; SYNC_IOC_FILE_INFO on a sync_file
of that job's fence then reads freed memory. The driver's own sync_files
(FENCE_FD_OUT) hold a fence of the driver's that holds the device; a
syncobj's fence exported as a sync_file is the scheduler's own. Shown on 6.12 under KASAN
(scripts/kasan-fence-demo.sh in the development tree): \"BUG: KASAN:
slab-use-after-free in drm_sched_fence_get_timeline_name+0xa8/0xc0
[gpu_sched]\", read from sync_file_ioctl, the memory freed by
drm_dev_put() from the job's release. Since 6.17, sync_file asks through
dma_fence_timeline_name(), which does not call a signalled fence's ops;
a driver is not told when a scheduler fence is released, so it cannot
hold the device for it.

Who uses each uAPI field:

$(cat "$KDIR/cover-uapi-users.txt")"
rm -rf "$out" && mkdir -p "$out"
git_ format-patch -q --cover-letter --cover-from-description=subject -o "$out" pristine..fdif
series=()
for p in "$out"/*.patch; do
	case "$p" in */0000-cover-letter.patch) ;; *) series+=("$p") ;; esac
done
progress "checking that the series applies with git am"
git_ am --abort >/dev/null 2>&1 || true
git_ checkout -q -f pristine
git_ branch -q -D fdif-am 2>/dev/null || true
git_ checkout -q -b fdif-am
git_ am -q "${series[@]}" || die "git am failed"
git_ diff --quiet fdif fdif-am || die "git am result differs from the exported branch"
git_ checkout -q -f pristine
progress "checkpatch --strict"
report="$(cd "$repo" && ./scripts/checkpatch.pl --strict --no-tree --ignore FILE_PATH_CHANGES \
	"${series[@]}" 2>&1)" || true
totals="$(grep -c '^total:' <<<"$report" || true)"
[ "$totals" -eq "${#series[@]}" ] ||
	{ echo "$report" >&2; die "checkpatch did not check every patch ($totals of ${#series[@]})"; }
if grep -E '^(ERROR|WARNING|CHECK)' <<<"$report" >&2 ||
	grep '^total:' <<<"$report" | grep -qv '^total: 0 errors, 0 warnings, 0 checks'; then
	die "checkpatch --strict is not clean on the series"
fi
ls "$out"/*.patch
