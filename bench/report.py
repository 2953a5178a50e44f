#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Turn the benchmark outputs of scripts/bench.sh into a markdown report."""
import datetime
import os
import platform
import sys


def records(path, kind):
    out = []
    for line in open(path):
        f = line.split()
        if not f or f[0] != kind:
            continue
        out.append({f[i]: f[i + 1] for i in range(1, len(f) - 1, 2)})
    return out


def main():
    d = sys.argv[1]
    thr = os.path.join(d, "throughput.txt")
    frame_us = next((l.split()[1] for l in open(thr) if l.startswith("frame_time_us")), "?")
    rows = records(thr, "throughput")
    cmp = records(os.path.join(d, "compare.txt"), "compare")
    ov = records(os.path.join(d, "overhead.txt"), "overhead")[0]
    lib = records(os.path.join(d, "library.txt"), "library")[0]
    det = open(os.path.join(d, "detector.md")).read().strip()

    p = print
    p("# Performance")
    p()
    p("Regenerate with `scripts/bench.sh --write-docs` (one guest boot, one run;")
    p("the machine is noisy, so read ratios, not absolutes). Measured %s on %s,"
      % (datetime.date.today().isoformat(), platform.machine()))
    p("2 host cores, the guest under TCG (`-smp 2`), the emulated FDIF's timing")
    p("model at %s µs per full frame (read back from the device's EMU_FRAME_TIME)."
      % frame_us)
    p()
    p("## Device-bound throughput")
    p()
    p("One client keeps N jobs in flight (submit, then wait for the oldest);")
    p("4 clients run 2 each. Device time is the driver's fdinfo busy counter")
    p("(`drm-engine-fdif`, run_job to interrupt); utilization = device time /")
    p("wall time. The device time per job is the timing model or the host's")
    p("detector, whichever is slower; the detector scans three rotated copies")
    p("of the frame, split across the device's `threads` host workers (2 by")
    p("default).")
    p()
    p("| clients | in flight each | jobs | jobs/s | device ms/job | utilization |")
    p("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        p("| %s | %s | %s | %.2f | %.1f | %.1f%% |" % (
            r["clients"], r["inflight"], r["jobs"], float(r["jobs_per_s"]),
            float(r["device_ms_per_job"]), 100 * float(r["utilization"])))
    p()
    p("## The device's host threads")
    p()
    p("Two emulated FDIFs in the same guest, the second with `threads=1`: one")
    p("client with 2 jobs in flight on each in turn, %d rounds of %s jobs;"
      % (len(cmp) // 2, cmp[0]["jobs"] if cmp else "?"))
    p("medians over the rounds (a change in the host's load hits both alike).")
    if any(r.get("model0_ms_per_job", "-") != "-" for r in cmp):
        p("Each round measures a device with its timing model, then with the model")
        p("at 0 (EMU_FRAME_TIME), where a job takes as long as the host's detector:")
        p("the model is met when that time is within the model's frame time.")
    p()
    p("| device threads | jobs/s | device ms/job | model at 0: jobs/s | model at 0: device ms/job |")
    p("|---:|---:|---:|---:|---:|")
    nodes = []
    for r in cmp:
        if r["node"] not in nodes:
            nodes.append(r["node"])

    def median(rows, key):
        v = sorted(float(r[key]) for r in rows if r.get(key, "-") != "-")
        return v[len(v) // 2] if v else None

    def cell(v, fmt):
        return fmt % v if v is not None else "-"

    med = {}
    for node, threads in zip(nodes, ("1", "2")):
        rs = [r for r in cmp if r["node"] == node]
        med[threads] = [median(rs, k) for k in ("jobs_per_s", "device_ms_per_job",
                                                "model0_jobs_per_s", "model0_ms_per_job")]
        p("| %s | %s | %s | %s | %s |" % (threads, cell(med[threads][0], "%.2f"),
                                         cell(med[threads][1], "%.1f"),
                                         cell(med[threads][2], "%.2f"),
                                         cell(med[threads][3], "%.1f")))
    model = "%.1f" % (float(frame_us) / 1000) if frame_us != "?" else "?"
    if len(med) == 2:
        p()
        p("On 2 threads: %.2fx the jobs/s and %.2fx the device time per job of"
          " 1 thread; the timing model asks for %s ms per frame."
          % (med["2"][0] / med["1"][0], med["2"][1] / med["1"][1], model))
        if med["1"][3] is not None and med["2"][3] is not None:
            p("With the model at 0 a job takes %.1f ms on 2 threads and %.1f ms on 1."
              % (med["2"][3], med["1"][3]))
    p()
    p("## Per-job software overhead")
    p()
    p("Timing model at 0, a 20x20 region of interest (the detector does almost")
    p("nothing), one job at a time: time from the submit ioctl to the fence's")
    p("POLLIN in userspace, minus the job's device time; %s jobs." % ov["jobs"])
    p()
    p("| median | p99 | device time (median) |")
    p("|---:|---:|---:|")
    p("| %.3f ms | %.3f ms | %.3f ms |" % (float(ov["median_ms"]), float(ov["p99_ms"]),
                                         float(ov["device_median_ms"])))
    p()
    p("## Library path on a 1920x1080 JPEG")
    p()
    p("`fdif_detect_image()` in the guest: decode, grey, area-filter resize to")
    p("320x240, submit, wait, map back; mean of %s runs." % lib["runs"])
    p()
    p("| decode | grey + fit | total (decode + detect_image) | faces |")
    p("|---:|---:|---:|---:|")
    p("| %.1f ms | %.1f ms | %.1f ms | %s |" % (float(lib["decode_ms"]),
                                               float(lib["gray_fit_ms"]),
                                               float(lib["total_ms"]), lib["faces"]))
    p()
    p("## Host detector against OpenCV")
    p()
    p("`scripts/bench-detector.sh` (see docs/detector.md): same cascade, single")
    p("thread; upright, and the full FDIF job against OpenCV's upright time.")
    p()
    p(det)
    return 0


if __name__ == "__main__":
    sys.exit(main())
