#!/bin/bash
# GStreamer benchmark, in one guest boot: fdiffacedetect against
# gst-plugins-bad's facedetect on the same frames, and fdiffacedetect on
# the guest's camera against the camera alone. Every pipeline runs RUNS
# times (default 5), the pipelines of a part taking turns, and the table
# gives each one's median with the lowest and highest run.
#
# Same frames (non-live, each element as fast as it goes): the marked test
# pictures (astronaut, hopper, lfw-15, landscape; SAME/4 frames each) as
# raw 320x240 grey, read from the guest's memory into
#   fdiffacedetect    the upright direction (the device's scans at 0 and
#                     +-20 degrees), min-size 20, min-neighbors 3 (copied
#                     into the device's buffers: no dma-bufs)
#   facedetect        the FDIF model's cascade (frontalface_alt2), min-size
#                     20, scale-factor 1.1, min-neighbors 3: the device
#                     model's own detector settings, one upright scan, on
#                     the guest's emulated arm64 CPU
# and facedetect with the same settings on this machine's own CPU (the
# host's Debian facedetect, natively: a bound, not a guest's number).
# The model's frames/s cannot pass 1 / its frame-time-us (15 ms a full
# frame by default: about 66 frames/s), whatever the host's speed.
#
# Camera (live: vivid's looped output, asked for 60 frames/s, the same
# pictures 1 s each):
#   camera alone      v4l2src io-mode=dmabuf, no detector (the ceiling)
#   fdif, dma-buf     ... ! fdiffacedetect directions=up: frames imported
#   fdif, copies      v4l2src io-mode=mmap ! fdiffacedetect directions=up
#
# For each: frames/s, the CPU time a frame cost the pipeline's process,
# and, for fdiffacedetect, how busy it kept the FDIF (drm-engine-fdif in
# fdinfo over the wall time). Prints a markdown table with the ratios of
# this one boot; --write-docs also puts it into docs/performance.md (its
# "Camera" section). Nothing here asserts on time. The guest gets
# facedetect's arm64 libraries unpacked (run-guest.sh --opencv, ~170 MB,
# downloaded once into the cache); the host gets gstreamer1.0-opencv.
#
#   scripts/bench-camera.sh [--write-docs] [--runs N] [--frames N] [--same N]
#   scripts/bench-camera.sh --report [--write-docs]
#                                      (the last run's table again, no run)
. "$(dirname "$0")/lib.sh"

write_docs='' frames=300 same=120 runs=5 report_only=''
# the rate the camera is asked for (its caps): the ceiling of the camera part
camera_fps=60
count() { [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "bench-camera.sh: $1 takes a count"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--write-docs) write_docs=1 ;;
	--report) report_only=1 ;;
	--frames) count "$@"; frames=$2; shift ;;
	--same) count "$@"; same=$2; shift ;;
	--runs) count "$@"; runs=$2; shift ;;
	*) die "bench-camera.sh: unknown option $1" ;;
	esac
	shift
done
[ "$same" -ge 4 ] || die "bench-camera.sh: --same takes at least 4 frames (one a picture)"

share="$FDIF_BUILD/bench-camera"
nsame=$(( same / 4 * 4 ))

# report: the tables of the runs in $share/out (and docs/performance.md's
# Camera section with --write-docs)
report() {
	local text
	text=$(/usr/bin/python3 - "$share/out" "$nsame" "$(nproc)" \
		"$(lscpu | sed -n 's/^Model name: *//p' | head -1)" "$camera_fps" <<'PY'
import glob, os, re, statistics, sys
out, nsame, ncpu, cpu = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
CAMERA_FPS = int(sys.argv[5])
pat = re.compile(r"(\d+) frames in ([\d.]+) s: ([\d.]+) frames/s, ([\d.]+) ms CPU a frame"
                 r"(?:, FDIF busy (\d+)%)?; (\d+) facedetect messages, (\d+) with faces")
runs = len(glob.glob(os.path.join(out, "same-fdif-*.txt")))
if not runs:
    sys.exit(f"bench-camera.sh: no runs in {out}")
def load(key):
    rs = []
    for r in range(1, runs + 1):
        path = f"{out}/{key}-{r}.txt"
        text = open(path).read() if os.path.exists(path) else "(missing)"
        m = pat.search(text)
        if not m or not re.search(r"^rc 0$", text, re.M):
            sys.exit(f"bench-camera.sh: run {r} of {key} failed:\n{text}")
        n, _, fps, ms, busy, msgs, faces = m.groups()
        rs.append(dict(n=int(n), fps=float(fps), ms=float(ms),
                       busy=int(busy) if busy else None, msgs=int(msgs), faces=int(faces)))
    return rs
def busy(key):
    b = [r["busy"] for r in res[key]]
    if None in b:
        sys.exit(f"bench-camera.sh: a run of {key} has no FDIF busy time (no fdinfo?)")
    return statistics.median(b)
def med(rs, k):
    return statistics.median(r[k] for r in rs)
def spread(rs, k, fmt="{:.1f}"):
    v = [r[k] for r in rs]
    mid = fmt.format(statistics.median(v))
    return mid if min(v) == max(v) else f"{mid} ({fmt.format(min(v))}–{fmt.format(max(v))})"
def row(name, key):
    rs = res[key]
    faces = {f"{r['faces']} of {r['msgs']}" for r in rs}
    return (f"| {name} | {spread(rs, 'n', '{:.0f}')} | {spread(rs, 'fps')} | "
            f"{spread(rs, 'ms')} | {str(round(busy(key))) + '%' if key in fdif else '-'} | "
            f"{', '.join(sorted(faces)) if any(r['msgs'] for r in rs) else '-'} |")
same = [("same-fdif", "fdiffacedetect (the FDIF model)"),
        ("same-facedetect", "facedetect, guest (OpenCV on the emulated arm64 CPU)"),
        ("host-facedetect", f"facedetect, host ({ncpu} x {cpu}, native)")]
cam = [("camera", "camera alone (v4l2src, dma-buf)"),
       ("import", "fdiffacedetect, dma-buf import"),
       ("copy", "fdiffacedetect, copies (io-mode=mmap)")]
fdif = {"same-fdif", "import", "copy"}
res = {k: load(k) for k, _ in same + cam}
def table(rows):
    print("| pipeline | frames | frames/s | CPU ms a frame | FDIF busy | messages with faces |")
    print("|---|---:|---:|---:|---:|---:|")
    for k, name in rows:
        print(row(name, k))
    print()
print("## Camera\n")
print("Regenerate with `scripts/bench-camera.sh --write-docs` (one guest boot;")
print("`--report` prints the last run's tables again).")
print(f"Each pipeline ran {runs} times, the pipelines of a part taking turns;")
print("each cell is the median, with the lowest and highest run in brackets.")
print("`fdif-gst-faces` runs each pipeline into a fakesink (`sync=false`).")
print("Frames/s count from the first frame at the sink to the last; CPU is")
print("the pipeline process's user and system time from start to stop (its")
print("setup included: the cascade's load for facedetect) over the frames")
print("(the guest has 2 emulated CPUs). FDIF busy is the element's DRM")
print("file's `drm-engine-fdif` time over the wall time, and a job's time")
print("is about busy / frames/s.\n")
print("### The same frames\n")
print(f"{nsame} frames of raw 320x240 grey, the marked pictures astronaut,")
print("hopper, lfw-15 and landscape a quarter each, read from memory as fast")
print("as each element takes them. Both detectors run the same cascade")
print("(`haarcascade_frontalface_alt2`), the smallest face 20 px, scale steps")
print("of 1.1 and 3 neighbours (fdiffacedetect's `min-neighbors=3`, the")
print("device's threshold 5, whose neighbours are (3 x 5 + 2) / 5 = 3).")
print("They do not do the same work: fdiffacedetect's upright direction")
print("(`directions=up`) is the device's three scans, at 0 and +-20 degrees")
print("(the OMAP4's up covers -30..30), facedetect's is one scan at 0.")
print("facedetect's caps are RGB, so its pipeline has a `videoconvert` from")
print("grey; fdiffacedetect copies each frame into a buffer of the device")
print("(these frames are no dma-bufs), which is most of its CPU here.")
print("The model's detector is C on the host's own CPU, and a job takes at")
print("least its `frame-time-us` (the default, 15 ms a full frame), so the")
print("model's frames/s are about 1 / its job time: at most 66.7, less where")
print("the detector's threads share the host's cores with the guest's")
print("emulated CPUs. The guest's facedetect is OpenCV on QEMU's emulated")
print("CPU, so the ratio to it is mostly the emulation's cost; the host's")
print("facedetect is the same pipeline on this machine's own CPU, the bound")
print("of what OpenCV does here. The ratio of the model to it compares the")
print("model's detector with OpenCV on the same CPU, not hardware with")
print("software.\n")
table(same)
fd, fg, fh = (med(res[k], "fps") for k in ("same-fdif", "same-facedetect", "host-facedetect"))
sb = busy("same-fdif")
print(f"fdiffacedetect: {fd / fg:.1f}x the guest's facedetect frames/s at "
      f"{med(res['same-fdif'], 'ms') / med(res['same-facedetect'], 'ms'):.3f}x its CPU a frame; "
      f"the model {fd / fh:.2f}x the host's native facedetect; {fd * 0.015:.2f}x the model's "
      f"bound (1 / 15 ms), with a job time of {10 * sb / fd:.1f} ms ({sb:.0f}% busy at "
      f"{fd:.1f} frames/s).\n")
print("### Camera\n")
print("vivid's HDMI output looped to its input shows the same pictures, 1 s")
print(f"each, at {CAMERA_FPS} frames/s; fdiffacedetect looks for upright faces")
print("(`directions=up`).\n")
table(cam)
c, i, p = (med(res[k], "fps") for k in ("camera", "import", "copy"))
ims = med(res["import"], "ms")
ib = busy("import")
# the camera alone may fall short of the rate vivid is set to (an emulated
# guest's hiccups): the ratio to that rate too, and the camera's own spread
cam_fps = [r["fps"] for r in res["camera"]]
print(f"fdiffacedetect with dma-buf import: {i / c:.2f}x the camera alone's frames/s "
      f"and {i / CAMERA_FPS:.2f}x the {CAMERA_FPS} frames/s the camera is set to "
      f"(goal 0.97x; the camera alone's runs {min(cam_fps):.1f} to {max(cam_fps):.1f}), "
      f"{ims:.1f} ms CPU a frame (goal 5), a job time of {10 * ib / i:.1f} ms "
      f"against the camera's {1000 / CAMERA_FPS:.1f} ms a frame; {i / p:.2f}x the copying "
      f"path's frames/s at {ims / med(res['copy'], 'ms'):.2f}x its CPU a frame.")
PY
) || die "no report"
	printf '%s\n' "$text"
	[ -n "$write_docs" ] || return 0
	# the Camera section is ours: replace it (or add it at the end); its
	# own subsections are ### headings
	/usr/bin/python3 - "$FDIF_ROOT/docs/performance.md" "$text" <<'PY'
import sys
path, section = sys.argv[1], sys.argv[2].rstrip("\n") + "\n"
text = open(path).read()
start = text.find("\n## Camera\n")
if start >= 0:
    end = text.find("\n## ", start + 1)
    text = text[:start + 1] + section + (text[end:] if end >= 0 else "")
else:
    text = text.rstrip("\n") + "\n\n" + section
open(path, "w").write(text)
PY
	progress "wrote the Camera section of docs/performance.md"
}

if [ -n "$report_only" ]; then
	nsame=$(sed -n 's/^fdif-gst-faces: \([0-9]*\) frames.*/\1/p' "$share/out/same-fdif-1.txt" \
		2>/dev/null) || true
	[ -n "$nsame" ] || die "bench-camera.sh: $share/out has no complete run to report"
	report
	exit 0
fi

# the host's facedetect and the program that times a pipeline, built here
apt_ensure "${FDIF_HOST_PKGS[@]}" gstreamer1.0-opencv gstreamer1.0-plugins-base \
	gstreamer1.0-tools opencv-data libgstreamer1.0-dev
meson_build
rm -rf "$share" && mkdir -p "$share/out" "$share/host"
progress "building fdif-gst-faces for the host"
# shellcheck disable=SC2046 # pkg-config's words
cc -O2 -o "$share/host/fdif-gst-faces" "$FDIF_ROOT/gst/tests/guest/fdif_gst_faces.c" \
	$(pkg-config --cflags --libs gstreamer-1.0) ||
	die "bench-camera.sh: could not build fdif-gst-faces for the host"

# the same frames for every element: raw GRAY8, each picture same/4 times
fx="$FDIF_BUILD/qemu-device/facedet/tests"
/usr/bin/python3 - "$share/frames.gray" $((same / 4)) \
	"$fx"/{astronaut,hopper,lfw-15,landscape}.pgm <<'PY' || die "bench-camera.sh: no frames"
import sys
out, each, pics = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
with open(out, "wb") as o:
    for p in pics:
        data = open(p, "rb").read()
        words, pos = [], 0
        while len(words) < 4:     # P5, width, height, maxval; '#' comments
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos)
                continue
            end = pos
            while not data[end:end + 1].isspace():
                end += 1
            words.append(data[pos:end])
            pos = end
        if words != [b"P5", b"320", b"240", b"255"]:
            sys.exit(f"{p}: not a 320x240 8-bit PGM")
        pix = data[pos + 1:pos + 1 + 320 * 240]
        if len(pix) != 320 * 240:
            sys.exit(f"{p}: short")
        o.write(pix * each)
PY

raw="rawvideoparse format=gray8 width=320 height=240 framerate=60/1"
alt2=/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml
fdif_same="fdiffacedetect display=false directions=up min-size-width=20 min-size-height=20 min-neighbors=3"
cv_same="videoconvert ! facedetect display=false profile=$alt2 min-size-width=20 min-size-height=20 scale-factor=1.1 min-neighbors=3"

cat > "$share/run.sh" <<RUN
#!/bin/sh
run() { # run NAME FRAMES PIPELINE
	fdif-gst-faces -q -n "\$2" "\$3" > /dev/null 2> /mnt/out/\$1.txt
	echo "rc \$?" >> /mnt/out/\$1.txt
}
# the same frames: from the guest's memory, no camera running
cp /mnt/frames.gray /tmp/frames.gray
src="filesrc location=/tmp/frames.gray ! $raw"
r=1
while [ \$r -le $runs ]; do
	run same-fdif-\$r $nsame "\$src ! $fdif_same"
	run same-facedetect-\$r $nsame "\$src ! $cv_same"
	r=\$((r + 1))
done
rm /tmp/frames.gray
fdif-vivid-feed -s 1 /data/astronaut.pgm /data/hopper.pgm /data/lfw-15.pgm \
	/data/landscape.pgm > /tmp/feed.log 2>&1 &
feeder=\$!
i=0
while ! grep -q '^capture ' /tmp/feed.log && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
node=\$(sed -n 's/^capture //p' /tmp/feed.log)
caps=video/x-raw,format=GRAY8,width=320,height=240,framerate=$camera_fps/1
r=1
while [ \$r -le $runs ]; do
	run camera-\$r $frames "v4l2src device=\$node io-mode=dmabuf ! \$caps"
	run import-\$r $frames "v4l2src device=\$node io-mode=dmabuf ! \$caps ! fdiffacedetect display=false directions=up"
	run copy-\$r $frames "v4l2src device=\$node io-mode=mmap ! \$caps ! fdiffacedetect display=false directions=up"
	r=\$((r + 1))
done
kill \$feeder
wait
RUN

progress "running facedetect on this machine's CPU ($runs runs of $nsame frames)"
for r in $(seq "$runs"); do
	rc=0
	"$share/host/fdif-gst-faces" -q -n "$nsame" \
		"filesrc location=$share/frames.gray ! $raw ! $cv_same" \
		>/dev/null 2>"$share/out/host-facedetect-$r.txt" || rc=$?
	echo "rc $rc" >>"$share/out/host-facedetect-$r.txt"
done

progress "running the pipelines in the guest (one boot; $runs runs each: $nsame same frames, $frames camera frames)"
"$FDIF_ROOT/guest/run-guest.sh" --share "$share" --cmd /mnt/run.sh --data \
	--gst --opencv --mem 2G --out "$FDIF_BUILD/bench-camera-guest" --timeout 3600 >/dev/null ||
	die "the camera benchmark failed: see $FDIF_BUILD/bench-camera-guest/console.log"
report
