#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Build the detector's test pictures from photographs Debian ships.

Every picture is an FDIF frame: 320x240, 8-bit gray, written as PGM into
OUTDIR, with NAME.truth next to it: the faces in it, one 'x y w h' box a
line in frame pixels. The boxes come from outside the detector: for the
photos, the boxes a person marked on the original (testdata/faces.tsv),
moved by the same letterbox and rotation as the picture; for the LFW
mosaics, where each face was pasted; the face-free pictures have none.
Sources (package, path, licence) are listed in docs/detector.md; nothing
here is committed, it is derived at build time from the installed
packages:

  python3-skimage          skimage/data/astronaut.png, lfw_subset.npy,
                           coffee.png, rocket.jpg
  python-matplotlib-data   mpl-data/sample_data/grace_hopper.jpg
  facedetect               examples/640px-IceBlockNearJoekullsarlon.jpg

Usage: make-fixtures.py TESTDATA OUTDIR
"""
import csv
import math
import os
import sys

import numpy as np
from PIL import Image

SKIMAGE = "/usr/lib/python3/dist-packages/skimage/data"
MPL = "/usr/share/matplotlib/mpl-data/sample_data"
FACEDETECT = "/usr/share/doc/facedetect/examples"

W, H = 320, 240


def gray(path):
    return Image.open(path).convert("L")


def marked_faces(testdata, path):
    """The boxes marked on the photo at path, from testdata/faces.tsv."""
    with open(os.path.join(testdata, "photos.tsv"), newline="") as f:
        names = [r["name"] for r in csv.DictReader(f, delimiter="\t")
                 if r["source"] == "deb" and r["path"] == path]
    if len(names) != 1:
        sys.exit("make-fixtures.py: %s is not in testdata/photos.tsv" % path)
    with open(os.path.join(testdata, "faces.tsv"), newline="") as f:
        return [tuple(float(r[k]) for k in "xywh")
                for r in csv.DictReader(f, delimiter="\t") if r["name"] == names[0]]


def letterbox(img, fill=128, boxes=()):
    """Fit img into 320x240 keeping its aspect ratio, padded with fill;
    returns the frame and boxes moved the same way."""
    scale = min(W / img.width, H / img.height)
    size = (round(img.width * scale), round(img.height * scale))
    small = img.resize(size, Image.LANCZOS)
    frame = Image.new("L", (W, H), fill)
    ox, oy = (W - size[0]) // 2, (H - size[1]) // 2
    frame.paste(small, (ox, oy))
    sx, sy = size[0] / img.width, size[1] / img.height
    return frame, [(x * sx + ox, y * sy + oy, w * sx, h * sy) for x, y, w, h in boxes]


def turn90(img, boxes, clockwise):
    """img turned by 90 degrees, and its boxes with it."""
    if clockwise:
        return img.transpose(Image.ROTATE_270), [
            (img.height - y - h, x, h, w) for x, y, w, h in boxes]
    return img.transpose(Image.ROTATE_90), [
        (y, img.width - x - w, h, w) for x, y, w, h in boxes]


def tilt(img, deg, boxes):
    """img rotated by deg counter-clockwise about its center (PIL's
    rotate, same size); each box keeps its size, its center turns."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    cx, cy = img.width / 2, img.height / 2
    out = []
    for x, y, w, h in boxes:
        dx, dy = x + w / 2 - cx, y + h / 2 - cy
        # y grows downwards: a counter-clockwise turn on screen
        nx, ny = cx + dx * c + dy * s, cy - dx * s + dy * c
        out.append((nx - w / 2, ny - h / 2, w, h))
    return img.rotate(deg, Image.BICUBIC, fillcolor=128), out


def cover(img):
    """Scale img to cover 320x240 and crop the center."""
    scale = max(W / img.width, H / img.height)
    size = (round(img.width * scale), round(img.height * scale))
    big = img.resize(size, Image.LANCZOS)
    left, top = (size[0] - W) // 2, (size[1] - H) // 2
    return big.crop((left, top, left + W, top + H))


def lfw_faces():
    data = np.load(os.path.join(SKIMAGE, "lfw_subset.npy"))
    # the first 100 crops are faces, the last 100 are not
    return [Image.fromarray((d * 255).round().astype(np.uint8)) for d in data[:100]]


def mosaic(faces, side, cols, rows, fill=110):
    """Faces of side px on a grid; returns the frame and the face boxes."""
    frame = Image.new("L", (W, H), fill)
    boxes = []
    cw, ch = W // cols, H // rows
    k = 0
    for r in range(rows):
        for c in range(cols):
            face = faces[k % len(faces)].resize((side, side), Image.BICUBIC)
            x = c * cw + (cw - side) // 2
            y = r * ch + (ch - side) // 2
            frame.paste(face, (x, y))
            boxes.append((x, y, side, side))
            k += 1
    return frame, boxes


def main():
    testdata, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)

    def save(name, img, boxes=()):
        img.save(os.path.join(out, name + ".pgm"))
        with open(os.path.join(out, name + ".truth"), "w") as f:
            for b in boxes:
                f.write("%.1f %.1f %.1f %.1f\n" % b)

    astro_path = os.path.join(SKIMAGE, "astronaut.png")
    hopper_path = os.path.join(MPL, "grace_hopper.jpg")
    astro, hopper = gray(astro_path), gray(hopper_path)
    astro_faces = marked_faces(testdata, astro_path)
    hopper_faces = marked_faces(testdata, hopper_path)
    save("astronaut", *letterbox(astro, boxes=astro_faces))
    save("hopper", *letterbox(hopper, boxes=hopper_faces))
    img, boxes = turn90(astro, astro_faces, True)
    save("astronaut-cw90", *letterbox(img, boxes=boxes))
    img, boxes = turn90(astro, astro_faces, False)
    save("astronaut-ccw90", *letterbox(img, boxes=boxes))
    img, boxes = tilt(astro, -20, astro_faces)
    save("astronaut-cw20", *letterbox(img, boxes=boxes))
    img, boxes = tilt(hopper, 20, hopper_faces)
    save("hopper-ccw20", *letterbox(img, boxes=boxes))
    save("landscape", cover(gray(os.path.join(FACEDETECT,
                                              "640px-IceBlockNearJoekullsarlon.jpg"))))
    save("coffee", cover(gray(os.path.join(SKIMAGE, "coffee.png"))))
    save("rocket", cover(gray(os.path.join(SKIMAGE, "rocket.jpg"))))

    # a full-HD JPEG for the library benchmark
    big = Image.new("RGB", (1920, 1080), (128, 128, 128))
    big.paste(Image.open(astro_path).convert("RGB")
              .resize((1080, 1080), Image.LANCZOS), (420, 0))
    big.save(os.path.join(out, "astronaut-1080p.jpg"), quality=90)

    faces = lfw_faces()
    save("lfw-15", *mosaic(faces, 48, 5, 3))
    save("lfw-60", *mosaic(faces, 28, 10, 6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
