#!/bin/bash
# Camera benchmark: frames per second from the guest's camera through
# GStreamer, in one guest boot, on the same looped frames (vivid showing
# the marked test pictures, 320x240 grey at the camera's 60 frames/s):
#
#   camera alone      v4l2src io-mode=dmabuf, no detector (the ceiling)
#   fdif, dma-buf     ... ! fdiffacedetect: the camera's buffers imported
#   fdif, copies      v4l2src io-mode=mmap ! fdiffacedetect: each frame copied
#   facedetect        ... ! videoconvert ! facedetect: gst-plugins-bad's
#                     element, OpenCV's Haar cascade on the guest's CPU
#
# For each: frames/s, the CPU time a frame cost the pipeline's process,
# and, for fdiffacedetect, how busy it kept the FDIF (drm-engine-fdif in
# fdinfo over the wall time). Prints a markdown table with the ratios of
# this one run; --write-docs also puts it into docs/performance.md (its
# "Camera" section). Nothing here asserts on time. The guest gets
# facedetect's arm64 libraries unpacked (run-guest.sh --opencv, ~170 MB,
# downloaded once into the cache).
#
#   scripts/bench-camera.sh [--write-docs] [--frames N]
. "$(dirname "$0")/lib.sh"

write_docs= frames=300
while [ $# -gt 0 ]; do
	case "$1" in
	--write-docs) write_docs=1 ;;
	--frames) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "bench-camera.sh: --frames takes a count"
		frames=$2; shift ;;
	*) die "bench-camera.sh: unknown option $1" ;;
	esac
	shift
done
# OpenCV on the guest's emulated CPU is slow: a fifth of the frames
slow=$(( frames / 5 > 10 ? frames / 5 : 10 ))

share="$FDIF_BUILD/bench-camera"
rm -rf "$share" && mkdir -p "$share/out"
cat > "$share/run.sh" <<RUN
#!/bin/sh
fdif-vivid-feed -s 1 /data/astronaut.pgm /data/hopper.pgm /data/lfw-15.pgm \
	/data/landscape.pgm > /tmp/feed.log 2>&1 &
feeder=\$!
i=0
while ! grep -q '^capture ' /tmp/feed.log && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
node=\$(sed -n 's/^capture //p' /tmp/feed.log)
caps=video/x-raw,format=GRAY8,width=320,height=240
run() { # run NAME FRAMES PIPELINE
	fdif-gst-faces -q -n "\$2" "\$3" > /dev/null 2> /mnt/out/\$1.txt
	echo "rc \$?" >> /mnt/out/\$1.txt
}
run camera $frames "v4l2src device=\$node io-mode=dmabuf ! \$caps"
run import $frames "v4l2src device=\$node io-mode=dmabuf ! \$caps ! fdiffacedetect display=false"
run copy $frames "v4l2src device=\$node io-mode=mmap ! \$caps ! fdiffacedetect display=false"
run facedetect $slow "v4l2src device=\$node io-mode=mmap ! \$caps ! videoconvert ! facedetect display=false"
kill \$feeder
wait
RUN

progress "running the camera pipelines in the guest (one boot; $frames frames, facedetect $slow)"
"$FDIF_ROOT/guest/run-guest.sh" --share "$share" --cmd /mnt/run.sh --data \
	--gst --opencv --mem 2G --out "$FDIF_BUILD/bench-camera-guest" --timeout 1800 >/dev/null ||
	die "the camera benchmark failed: see $FDIF_BUILD/bench-camera-guest/console.log"

report=$(/usr/bin/python3 - "$share/out" <<'PY'
import re, sys
out = sys.argv[1]
rows = [("camera", "camera alone (v4l2src, dma-buf)"),
        ("import", "fdiffacedetect, dma-buf import"),
        ("copy", "fdiffacedetect, copies (io-mode=mmap)"),
        ("facedetect", "facedetect (OpenCV, guest CPU)")]
pat = re.compile(r"(\d+) frames in ([\d.]+) s: ([\d.]+) frames/s, ([\d.]+) ms CPU a frame"
                 r"(?:, FDIF busy (\d+)%)?; (\d+) facedetect messages, (\d+) with faces")
res = {}
for key, _ in rows:
    text = open(f"{out}/{key}.txt").read()
    m = pat.search(text)
    if not m or "rc 0" not in text:
        sys.exit(f"bench-camera.sh: the {key} pipeline failed:\n{text}")
    res[key] = m.groups()
print("## Camera\n")
print("Regenerate with `scripts/bench-camera.sh --write-docs` (one guest boot).")
print("vivid's HDMI output looped to its input shows the marked test pictures")
print("(astronaut, hopper, lfw-15, landscape, 1 s each) as 320x240 grey frames")
print("at 60 frames/s; `fdif-gst-faces` runs each pipeline into a fakesink.")
print("CPU is the pipeline process's user and system time a frame (the")
print("guest has 2 emulated CPUs; at 60 frames/s a CPU has 16.7 ms a frame);")
print("FDIF busy is the element's DRM file's `drm-engine-fdif` time over the")
print("wall time. Three of the four pictures have faces, so about 3/4 of")
print("the messages should have some.\n")
print("| pipeline | frames | frames/s | CPU ms a frame | FDIF busy | messages with faces |")
print("|---|---:|---:|---:|---:|---:|")
for key, name in rows:
    n, _, fps, cpu, busy, msgs, faces = res[key]
    print(f"| {name} | {n} | {float(fps):.1f} | {float(cpu):.1f} | "
          f"{busy + '%' if busy else '-'} | {faces + ' of ' + msgs if int(msgs) else '-'} |")
fd = float(res["facedetect"][2])
imp, cp, cam = (float(res[k][2]) for k in ("import", "copy", "camera"))
print()
print(f"fdiffacedetect with dma-buf import: {imp / fd:.1f}x facedetect's frames/s "
      f"at {float(res['import'][3]) / float(res['facedetect'][3]):.2f}x its CPU a frame; "
      f"{imp / cam:.2f}x the camera alone; {imp / cp:.2f}x the copying path's frames/s "
      f"at {float(res['import'][3]) / float(res['copy'][3]):.2f}x its CPU a frame.")
PY
) || die "no report"
printf '%s\n' "$report"
if [ -n "$write_docs" ]; then
	doc="$FDIF_ROOT/docs/performance.md"
	# the Camera section is ours: replace it (or add it at the end)
	/usr/bin/python3 - "$doc" "$report" <<'PY'
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
fi
