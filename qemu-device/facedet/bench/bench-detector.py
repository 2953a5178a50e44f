#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Benchmark: our detector against OpenCV's detectMultiScale, one run.

Both run the same cascade on the same pictures, single-threaded, with the
same scale step, minimum size and minimum neighbours.  For each picture it
measures, interleaved round by round so drift in machine load hits all
alike:

  - ours upright (`facedet --rects`, OpenCV semantics) and OpenCV upright:
    frames/s, the speed ratio (ours/OpenCV, > 1 means we are faster) and
    the agreement (the fraction of OpenCV's faces one of ours matches at
    IoU >= 0.5, and the other way round);
  - the full FDIF job (`facedet`: direction up, three angles, min size 20,
    LHIT 5) and its time over OpenCV's upright time (< 1 means the whole
    job costs less than OpenCV's upright scan);
  - the same job split over 2 threads as the emulated device splits it by
    default (`facedet --threads 2`), in wall time: what the device can do
    with two host cores to itself, against its 15 ms timing model.

Each measurement is a `--repeat` loop in one process; the figure kept per
picture is the median over --rounds rounds.  Times are CPU time of the
process (single-threaded on both sides), which other load on a shared
machine disturbs far less than wall time; read the ratios, not the
absolute numbers.  --extra NAME=BIN adds another build of the facedet
tool (e.g. one compiled with QEMU's flags, or the code before a change)
to the same rounds.

Usage: bench-detector.py --facedet BIN --opencv BIN [--extra NAME=BIN]...
                         [--model XML] [--repeat N] [--rounds N]
                         [--markdown] PICTURE...
"""
import argparse
import statistics
import subprocess
import sys


def run(cmd, wall=False):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rects, ms = [], None
    for line in out.splitlines():
        f = line.split()
        if f[0] == "rect":
            rects.append(tuple(int(v) for v in f[1:5]))
        elif f[0] == "time":
            # "time WALL ms/frame cpu CPU ms/frame": the CPU time unless @wall
            ms = float(f[4]) if len(f) > 4 and f[3] == "cpu" and not wall else float(f[1])
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
    ap.add_argument("--extra", action="append", default=[],
                    help="NAME=BIN: another facedet build measured in the same rounds")
    ap.add_argument("--model",
                    default="/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml")
    ap.add_argument("--repeat", type=int, default=4, help="frames per measurement")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds per picture")
    ap.add_argument("--scale-step", default="1.1")
    ap.add_argument("--min-size", default="20")
    ap.add_argument("--min-neighbors", default="3")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("pictures", nargs="+")
    a = ap.parse_args()

    builds = [("ours", a.facedet)] + [tuple(e.split("=", 1)) for e in a.extra]
    rep = str(a.repeat)

    def ours_rects(b, pic):
        return run([b, "--rects", "--model", a.model, "--scale-step", a.scale_step,
                    "--min-size", a.min_size, "--min-neighbors", a.min_neighbors,
                    "--repeat", rep, pic])

    def ours_job(b, pic):
        return run([b, "--model", a.model, "--min-size", a.min_size, "--dir", "up",
                    "--lhit", "5", "--repeat", rep, pic])

    def ours_job_split(pic):
        return run([a.facedet, "--model", a.model, "--min-size", a.min_size, "--dir", "up",
                    "--lhit", "5", "--threads", "2", "--repeat", rep, pic], wall=True)

    def opencv(pic):
        return run([a.opencv, a.model, pic, a.scale_step, a.min_size, a.min_neighbors, rep])

    rows = []
    tot = {"cv_ms": 0.0, "cv": 0, "ours": 0, "cv_hit": 0, "ours_hit": 0, "split": 0.0}
    for name, _ in builds:
        tot[name + "_up"] = tot[name + "_job"] = 0.0
    for pic in a.pictures:
        t = {"cv": [], "split": []}
        for name, _ in builds:
            t[name + "_up"], t[name + "_job"] = [], []
        for _ in range(a.rounds):
            for name, b in builds:
                ours, ms = ours_rects(b, pic)
                t[name + "_up"].append(ms)
                if name == "ours":
                    ours_faces = ours
            cv, ms = opencv(pic)
            t["cv"].append(ms)
            for name, b in builds:
                t[name + "_job"].append(ours_job(b, pic)[1])
            t["split"].append(ours_job_split(pic)[1])
        med = {k: statistics.median(v) for k, v in t.items()}
        cv_hit, ours_hit = matched(cv, ours_faces), matched(ours_faces, cv)
        rows.append((pic.rsplit("/", 1)[-1], med, len(ours_faces), len(cv), cv_hit, ours_hit))
        tot["cv_ms"] += med["cv"]
        tot["split"] += med["split"]
        for name, _ in builds:
            tot[name + "_up"] += med[name + "_up"]
            tot[name + "_job"] += med[name + "_job"]
        tot["cv"] += len(cv)
        tot["ours"] += len(ours_faces)
        tot["cv_hit"] += cv_hit
        tot["ours_hit"] += ours_hit

    n = len(a.pictures)
    agree_cv = tot["cv_hit"] / tot["cv"] if tot["cv"] else 1.0
    agree_ours = tot["ours_hit"] / tot["ours"] if tot["ours"] else 1.0
    extra_cols = [name for name, _ in builds[1:]]
    if a.markdown:
        head = ("| picture | ours fps | OpenCV fps | speed ours/OpenCV | full job ms | "
                "job / OpenCV upright | job on 2 threads, wall ms | faces ours | faces OpenCV | "
                "OpenCV's matched | ours matched |")
        for e in extra_cols:
            head += " %s upright/OpenCV | %s job/OpenCV |" % (e, e)
        print(head)
        print("|---" + "|---:" * (10 + 2 * len(extra_cols)) + "|")
        for pic, med, no, nc, ch, oh in rows:
            line = "| %s | %.1f | %.1f | %.2f | %.1f | %.2f | %.1f | %d | %d | %d | %d |" % (
                pic, 1e3 / med["ours_up"], 1e3 / med["cv"], med["cv"] / med["ours_up"],
                med["ours_job"], med["ours_job"] / med["cv"], med["split"], no, nc, ch, oh)
            for e in extra_cols:
                line += " %.2f | %.2f |" % (med["cv"] / med[e + "_up"], med[e + "_job"] / med["cv"])
            print(line)
        line = ("| **all** | %.1f | %.1f | **%.2f** | %.1f | **%.2f** | %.1f | %d | %d | "
                "%.1f%% | %.1f%% |") % (
            n * 1e3 / tot["ours_up"], n * 1e3 / tot["cv_ms"], tot["cv_ms"] / tot["ours_up"],
            tot["ours_job"] / n, tot["ours_job"] / tot["cv_ms"], tot["split"] / n,
            tot["ours"], tot["cv"], 100 * agree_cv, 100 * agree_ours)
        for e in extra_cols:
            line += " %.2f | %.2f |" % (tot["cv_ms"] / tot[e + "_up"], tot[e + "_job"] / tot["cv_ms"])
        print(line)
    else:
        print("%-18s %9s %9s %7s %8s %8s %9s %5s %5s" % (
            "picture", "ours fps", "cv fps", "ratio", "job ms", "job/cv", "2 thr ms", "ours", "cv"))
        for pic, med, no, nc, ch, oh in rows:
            print("%-18s %9.1f %9.1f %7.2f %8.1f %8.2f %9.1f %5d %5d  "
                  "(cv matched %d, ours matched %d)" % (
                      pic, 1e3 / med["ours_up"], 1e3 / med["cv"], med["cv"] / med["ours_up"],
                      med["ours_job"], med["ours_job"] / med["cv"], med["split"], no, nc, ch, oh))
    print("upright speed ratio ours/OpenCV: %.2f" % (tot["cv_ms"] / tot["ours_up"]))
    print("agreement: %.1f%% of OpenCV's faces matched by ours, %.1f%% of ours by OpenCV's"
          % (100 * agree_cv, 100 * agree_ours))
    print("full FDIF job (up, 3 angles) time / OpenCV upright time: %.2f"
          % (tot["ours_job"] / tot["cv_ms"]))
    print("full FDIF job split on 2 threads as the device does: %.1f ms wall per frame "
          "(the device's timing model: 15 ms)" % (tot["split"] / n))
    for e in extra_cols:
        print("%s: upright speed ratio %.2f, full job / OpenCV upright %.2f" % (
            e, tot["cv_ms"] / tot[e + "_up"], tot[e + "_job"] / tot["cv_ms"]))
    print("(CPU time, one thread each, except the 2-thread job's wall time; median of %d "
          "interleaved rounds of %d frames per picture)" % (a.rounds, a.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
