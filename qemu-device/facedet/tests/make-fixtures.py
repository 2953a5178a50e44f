#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Build the detector's test pictures from photographs Debian ships.

Every picture is an FDIF frame: 320x240, 8-bit gray, written as PGM into
OUTDIR.  Sources (package, path, licence) are listed in docs/detector.md;
nothing here is committed, it is derived at build time from the installed
packages:

  python3-skimage          skimage/data/astronaut.png, lfw_subset.npy,
                           coffee.png, rocket.jpg
  python-matplotlib-data   mpl-data/sample_data/grace_hopper.jpg
  facedetect               examples/640px-IceBlockNearJoekullsarlon.jpg

Usage: make-fixtures.py OUTDIR
"""
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


def letterbox(img, fill=128):
    """Fit img into 320x240 keeping its aspect ratio, padded with fill."""
    scale = min(W / img.width, H / img.height)
    size = (round(img.width * scale), round(img.height * scale))
    small = img.resize(size, Image.LANCZOS)
    frame = Image.new("L", (W, H), fill)
    frame.paste(small, ((W - size[0]) // 2, (H - size[1]) // 2))
    return frame


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
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def save(name, img):
        img.save(os.path.join(out, name + ".pgm"))

    astro = gray(os.path.join(SKIMAGE, "astronaut.png"))
    hopper = gray(os.path.join(MPL, "grace_hopper.jpg"))
    save("astronaut", letterbox(astro))
    save("hopper", letterbox(hopper))
    save("astronaut-cw90", letterbox(astro.transpose(Image.ROTATE_270)))
    save("astronaut-ccw90", letterbox(astro.transpose(Image.ROTATE_90)))
    save("astronaut-cw20", letterbox(astro.rotate(-20, Image.BICUBIC, fillcolor=128)))
    save("hopper-ccw20", letterbox(hopper.rotate(20, Image.BICUBIC, fillcolor=128)))
    save("landscape", cover(gray(os.path.join(FACEDETECT,
                                              "640px-IceBlockNearJoekullsarlon.jpg"))))
    save("coffee", cover(gray(os.path.join(SKIMAGE, "coffee.png"))))
    save("rocket", cover(gray(os.path.join(SKIMAGE, "rocket.jpg"))))

    # a full-HD JPEG for the library benchmark
    big = Image.new("RGB", (1920, 1080), (128, 128, 128))
    big.paste(Image.open(os.path.join(SKIMAGE, "astronaut.png")).convert("RGB")
              .resize((1080, 1080), Image.LANCZOS), (420, 0))
    big.save(os.path.join(out, "astronaut-1080p.jpg"), quality=90)

    faces = lfw_faces()
    frame, boxes = mosaic(faces, 48, 5, 3)
    save("lfw-15", frame)
    with open(os.path.join(out, "lfw-15.boxes"), "w") as f:
        for b in boxes:
            f.write("%d %d %d %d\n" % b)
    frame, boxes = mosaic(faces, 28, 10, 6)
    save("lfw-60", frame)
    with open(os.path.join(out, "lfw-60.boxes"), "w") as f:
        for b in boxes:
            f.write("%d %d %d %d\n" % b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
