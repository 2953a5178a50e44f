#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check the pixels of a PNG a test made (what fdif-detect drew).

  png-pixels.py PICTURE W H [!]X,Y,R,G,B ...

PICTURE must be an 8-bit RGB PNG of W x H pixels; for each X,Y,R,G,B the
pixel at X,Y must be R,G,B, or with a leading '!' must not be ('.' for a
channel that may be anything). Exit status 0 when all of it holds, else 1
with what did not on stderr. Decoded by PIL (Debian's python3-pil, in
scripts/lib.sh's FDIF_HOST_PKGS), shared by test-cli-mock.sh and
test-facedetect-compat.sh.
"""
import sys

from PIL import Image


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    path, w, h, specs = argv[1], int(argv[2]), int(argv[3]), argv[4:]
    with open(path, "rb") as f:
        head = f.read(26)
    # PIL gives a 16-bit or palette PNG as RGB too: the header says which
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        print("%s: not a PNG" % path, file=sys.stderr)
        return 1
    if head[24:26] != b"\x08\x02":
        print("%s: bit depth %d, colour type %d; want 8-bit RGB (8, 2)"
              % (path, head[24], head[25]), file=sys.stderr)
        return 1
    im = Image.open(path)
    im.load()
    if im.size != (w, h):
        print("%s: %dx%d, want %dx%d" % (path, im.size[0], im.size[1], w, h), file=sys.stderr)
        return 1
    bad = 0
    for spec in specs:
        want_it = not spec.startswith("!")
        x, y, *rgb = spec.lstrip("!").split(",")
        got = im.getpixel((int(x), int(y)))
        match = len(rgb) == 3 and all(c == "." or g == int(c) for g, c in zip(got, rgb))
        if match != want_it:
            print("%s: pixel %s,%s is %s, want %s%s" % (path, x, y, ",".join(map(str, got)),
                                                       "" if want_it else "not ", ",".join(rgb)),
                  file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
