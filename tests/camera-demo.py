#!/usr/bin/python3
"""Check scripts/demo.sh --camera's output against the marked face.

camera-demo.py TESTDATA CAMERA_TXT FRAMES  - prints TAP.

The camera demo streams Debian's astronaut photo (512x512) through the
guest's camera, fitted into 320x240 frames (aspect kept, centred: the
library's fdif_image_fit_frame()), and leaves one 'faces TIME N x y w h'
line a frame. The marked box (testdata/faces.tsv, by a person) is mapped
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
n = 0
def check(ok, what):
    global n
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")

check(len(boxes) == 1, f"one marked face on {photo['name']}")
check(len(frames) >= want, f"{len(frames)} camera frames reported, at least {want}")
bad = []
for f in frames:
    faces = [tuple(map(float, f[3 + 4 * i:7 + 4 * i])) for i in range(int(f[2]))]
    on = [x for x in faces for b in boxes
          if b[0] <= x[0] + x[2] / 2 <= b[0] + b[2] and b[1] <= x[1] + x[3] / 2 <= b[1] + b[3]
          and 0.5 <= x[2] / (b[2] * b[3]) ** 0.5 <= 2]
    if len(faces) != 1 or len(on) != 1:
        bad.append(" ".join(f[1:]))
check(frames and not bad, "every frame has one face, on the marked box "
      f"({boxes[0][0]:.0f},{boxes[0][1]:.0f} {boxes[0][2]:.0f}x{boxes[0][3]:.0f} in the frame)"
      + (f": {len(bad)} frames not, e.g. {bad[0]}" if bad else ""))
print(f"1..{n}")
sys.exit(1 if bad or len(frames) < want else 0)
