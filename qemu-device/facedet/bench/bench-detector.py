#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Benchmark: our detector against OpenCV's detectMultiScale, one run.

Both run the same cascade on the same pictures, single-threaded, upright
only, with the same scale step, minimum size and minimum neighbours.  For
each picture and in total it prints frames/s of each, their ratio
(ours/OpenCV, > 1 means we are faster) and the detection agreement: the
fraction of OpenCV's faces that one of ours matches at IoU >= 0.5, and the
fraction of ours that one of OpenCV's matches.  Timings are means over
--repeat runs, interleaved, in one process each; a noisy machine moves both
sides alike, so read the ratio, not the absolute numbers.

Usage: bench-detector.py --facedet BIN --opencv BIN [--model XML]
                         [--repeat N] [--markdown] PICTURE...
"""
import argparse
import subprocess
import sys


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rects, ms = [], None
    for line in out.splitlines():
        f = line.split()
        if f[0] == "rect":
            rects.append(tuple(int(v) for v in f[1:5]))
        elif f[0] == "time":
            ms = float(f[1])
    return rects, ms


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = max(0, min(ax + aw, bx + bw) - max(ax, bx))
    iy = max(0, min(ay + ah, by + bh) - max(ay, by))
    inter = ix * iy
    union = aw * ah + bw * bh - inter
    return inter / union if union else 0.0


def matched(src, dst):
    return sum(1 for a in src if any(iou(a, b) >= 0.5 for b in dst))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--facedet", required=True)
    ap.add_argument("--opencv", required=True)
    ap.add_argument("--model",
                    default="/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--scale-step", default="1.1")
    ap.add_argument("--min-size", default="20")
    ap.add_argument("--min-neighbors", default="3")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("pictures", nargs="+")
    a = ap.parse_args()

    rows = []
    tot = {"ours_ms": 0.0, "cv_ms": 0.0, "cv": 0, "ours": 0, "cv_hit": 0, "ours_hit": 0}
    for pic in a.pictures:
        # interleave the two so drift in machine load hits both
        ours_ms = cv_ms = 0.0
        for _ in range(2):
            ours, t = run([a.facedet, "--rects", "--model", a.model, "--scale-step",
                           a.scale_step, "--min-size", a.min_size, "--min-neighbors",
                           a.min_neighbors, "--repeat", str(a.repeat // 2 or 1), pic])
            ours_ms += t / 2
            cv, t = run([a.opencv, a.model, pic, a.scale_step, a.min_size,
                         a.min_neighbors, str(a.repeat // 2 or 1)])
            cv_ms += t / 2
        cv_hit, ours_hit = matched(cv, ours), matched(ours, cv)
        rows.append((pic.rsplit("/", 1)[-1], 1e3 / ours_ms, 1e3 / cv_ms, cv_ms / ours_ms,
                     len(ours), len(cv), cv_hit, ours_hit))
        tot["ours_ms"] += ours_ms
        tot["cv_ms"] += cv_ms
        tot["cv"] += len(cv)
        tot["ours"] += len(ours)
        tot["cv_hit"] += cv_hit
        tot["ours_hit"] += ours_hit

    n = len(a.pictures)
    agree_cv = tot["cv_hit"] / tot["cv"] if tot["cv"] else 1.0
    agree_ours = tot["ours_hit"] / tot["ours"] if tot["ours"] else 1.0
    ratio = tot["cv_ms"] / tot["ours_ms"]
    if a.markdown:
        print("| picture | ours fps | OpenCV fps | speed ours/OpenCV | faces ours | faces OpenCV | OpenCV's matched | ours matched |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print("| %s | %.1f | %.1f | %.2f | %d | %d | %d | %d |" % r)
        print("| **all** | %.1f | %.1f | **%.2f** | %d | %d | %.1f%% | %.1f%% |" % (
            n * 1e3 / tot["ours_ms"], n * 1e3 / tot["cv_ms"], ratio, tot["ours"], tot["cv"],
            100 * agree_cv, 100 * agree_ours))
    else:
        print("%-18s %9s %9s %7s %5s %5s" % ("picture", "ours fps", "cv fps", "ratio",
                                            "ours", "cv"))
        for r in rows:
            print("%-18s %9.1f %9.1f %7.2f %5d %5d  (cv matched %d, ours matched %d)" % r)
    print("speed ratio ours/OpenCV: %.2f" % ratio)
    print("agreement: %.1f%% of OpenCV's faces matched by ours, %.1f%% of ours by OpenCV's"
          % (100 * agree_cv, 100 * agree_ours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
