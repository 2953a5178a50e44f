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
    thr1 = os.path.join(d, "throughput-1.txt")
    rows1 = records(thr1, "throughput") if os.path.exists(thr1) else []
    ov = records(os.path.join(d, "overhead.txt"), "overhead")[0]
    lib = records(os.path.join(d, "library.txt"), "library")[0]
    det = open(os.path.join(d, "detector.md")).read().strip()

    p = print
    p("# Performance")
    p()
    p("Regenerate with `scripts/bench.sh --write-docs` (two guest boots, one run;")
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
    p("detector, whichever is slower. The detector scans three rotated copies")
    p("of the frame, split across the device's `threads` host workers: first")
    p("on 1 thread (a separate boot with `threads=1`), then on the default 2.")
    p()
    p("| device threads | clients | in flight each | jobs | jobs/s | device ms/job | utilization |")
    p("|---:|---:|---:|---:|---:|---:|---:|")
    for threads, rs in (("1", rows1), ("2", rows)):
        for r in rs:
            p("| %s | %s | %s | %s | %.2f | %.1f | %.1f%% |" % (
                threads, r["clients"], r["inflight"], r["jobs"],
                float(r["jobs_per_s"]), float(r["device_ms_per_job"]),
                100 * float(r["utilization"])))
    if rows1 and rows:
        def ms(rs):
            return sum(float(r["device_ms_per_job"]) for r in rs) / len(rs)
        p()
        p("Device ms/job, mean over the rows: %.1f on 1 thread, %.1f on 2 "
          "(%.2fx); the timing model asks for %.1f ms."
          % (ms(rows1), ms(rows), ms(rows1) / ms(rows),
             float(frame_us) / 1000 if frame_us != "?" else float("nan")))
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
    p("thread, upright only.")
    p()
    p(det)
    return 0


if __name__ == "__main__":
    sys.exit(main())
