#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Our detector finds what OpenCV finds, on every test picture: a test.

  test-opencv-agreement.py FACEDET OPENCV_DETECT PICTURE...

Both run the same cascade (OpenCV's alt2 from opencv-data) upright, with
OpenCV's detectMultiScale parameters (scale step 1.1, min size 20, min
neighbours 3). For each picture, every face of OpenCV's must be matched by
one of ours at IoU >= 0.5, and every one of ours by one of OpenCV's. The
benchmark (bench-detector.py) reports the same agreement with timings;
this is the assertion. Prints TAP.
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench_detector", os.path.join(here, "..", "bench", "bench-detector.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

MODEL = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"


def main():
    facedet, opencv, pictures = sys.argv[1], sys.argv[2], sys.argv[3:]
    n, failed = 0, 0
    for pic in pictures:
        ours, _ = bench.run([facedet, "--rects", "--model", MODEL, "--scale-step", "1.1",
                             "--min-size", "20", "--min-neighbors", "3", "--repeat", "1",
                             pic])
        cv, _ = bench.run([opencv, MODEL, pic, "1.1", "20", "3", "1"])
        cv_hit, ours_hit = bench.matched(cv, ours), bench.matched(ours, cv)
        ok = cv_hit == len(cv) and ours_hit == len(ours)
        n += 1
        failed += not ok
        print("%s %d - %s: OpenCV %d faces (%d matched by ours), ours %d (%d matched)"
              % ("ok" if ok else "not ok", n, os.path.basename(pic), len(cv), cv_hit,
                 len(ours), ours_hit))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
