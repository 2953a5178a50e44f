#!/usr/bin/python3
"""Check scripts/demo.sh --camera's output against the marked face.

camera-demo.py TESTDATA CAMERA_TXT FRAMES  - prints TAP.

The camera demo streams Debian's astronaut photo (512x512) through the
guest's camera, fitted into 320x240 frames (aspect kept, centred: the
library's fdif_image_fit_frame()), and leaves one 'faces TIME N x y w h'
line a frame (TIME: the frame's timestamp). The marked box (testdata/faces.tsv, by a person) is mapped
the same way; every frame must hold one face on it, and there must be
FRAMES of them.
"""
import csv
import sys

testdata, camera_txt, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
path = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"
with open(f"{testdata}/photos.tsv") as f:
    photo = next(r for r in csv.DictReader(f, delimiter="\t") if r["path"] == path)
with open(f"{testdata}/faces.tsv") as f:
    marked = [r for r in csv.DictReader(f, delimiter="\t") if r["name"] == photo["name"]]
pw, ph = int(photo["width"]), int(photo["height"])
scale = min(320 / pw, 240 / ph)
ox, oy = (320 - pw * scale) / 2, (240 - ph * scale) / 2
boxes = [(ox + float(m["x"]) * scale, oy + float(m["y"]) * scale,
          float(m["w"]) * scale, float(m["h"]) * scale) for m in marked]

frames = [l.split() for l in open(camera_txt) if l.startswith("faces ")]
n = failed = 0


def check(ok, what):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")

# the testdata is what it is: not a subtest of the demo, a precondition
if len(boxes) != 1:
    print(f"Bail out! testdata marks {len(boxes)} faces on {photo['name']}, this check wants 1")
    sys.exit(1)


def iou(a, b):
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    inter = max(w, 0) * max(h, 0)
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


check(len(frames) >= want, f"{len(frames)} camera frames reported, at least {want}")
# TIME is GStreamer's H:MM:SS.NNNNNNNNN


def seconds(t):
    h, m, sec = t.split(":")
    return int(h) * 3600 + int(m) * 60 + float(sec)


times = [seconds(f[1]) for f in frames]
check(frames and all(a < b for a, b in zip(times, times[1:])),
      "each report is of a later frame than the one before (no frame twice)")
bad, loose = [], []
b = boxes[0]
for f in frames:
    faces = [tuple(map(float, f[3 + 4 * i:7 + 4 * i])) for i in range(int(f[2]))]
    on = [x for x in faces
          if b[0] <= x[0] + x[2] / 2 <= b[0] + b[2] and b[1] <= x[1] + x[3] / 2 <= b[1] + b[3]
          and 0.5 <= x[2] / (b[2] * b[3]) ** 0.5 <= 2]
    if len(faces) != 1 or len(on) != 1:
        bad.append(" ".join(f[1:]))
    elif iou(on[0], b) < 0.35:
        loose.append(" ".join(f[1:]))
check(frames and not bad, "every frame has one face, on the marked box "
      f"({b[0]:.0f},{b[1]:.0f} {b[2]:.0f}x{b[3]:.0f} in the frame)"
      + (f": {len(bad)} frames not, e.g. {bad[0]}" if bad else ""))
# tests/truth.py's rule for a match (docs/testing.md, "Truth")
check(frames and not bad and not loose, "... and overlaps it with an IoU of 0.35 or more"
      + (f": {len(loose)} frames less, e.g. {loose[0]}" if loose else ""))
print(f"1..{n}")
sys.exit(1 if failed else 0)
