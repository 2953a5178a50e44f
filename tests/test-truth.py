#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tests/truth.py fails when it should: synthetic detectors against the truth.

  test-truth.py SOURCE_ROOT

Writes made-up detection results (fdif-detect's --json format) for the
marked photos of SOURCE_ROOT/testdata and runs SOURCE_ROOT/tests/truth.py on
them as scripts/test.sh and tests/truth-host.sh do, checking its verdicts:
the marked boxes themselves pass every path's floors; a detector that
trades a face on one photo for one on another passes the totals but fails
that photo; a box with its centre on a face but too little overlap is not a
match; a detection on a face too small for the device neither counts
against the reachable recall nor as a false positive; a missing or
mismatched result, or a floors file without a photo, fails. Prints TAP.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), ".."))
TESTDATA = os.path.join(ROOT, "testdata")
TRUTH_PY = os.path.join(ROOT, "tests", "truth.py")
FLOORS = os.path.join(ROOT, "tests", "truth-floors.tsv")
sys.path.insert(0, os.path.join(ROOT, "tests"))
import truth  # noqa: E402

PHOTOS, FACES = truth.load_truth(TESTDATA)
TMP = tempfile.mkdtemp(prefix="test-truth.")
results = []


def report(ok, what, detail=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), what))
    if not ok and detail:
        print("\n".join("# " + l for l in detail.rstrip("\n").split("\n")))


def exact(box, square=False):
    """A detection on exactly this marked box: fdif-detect's fields with
    width and height, or (square) truth-host's, size only."""
    x, y, w, h = box
    d = {"x": x + w / 2, "y": y + h / 2, "confidence": 500, "angle": 0}
    if square:
        d["size"] = truth.box_size(w, h)
    else:
        d.update(size=max(w, h), width=w, height=h)
    return d


def perfect(square=False, skip=(), only_reachable=False):
    """{photo: detections}: every marked face found on its own box, less the
    (photo, face index) pairs in skip."""
    return {n: [exact(b, square) for i, (b, _, r) in enumerate(FACES[n])
                if (n, i) not in skip and (r or not only_reachable)]
            for n in PHOTOS}


def write(dets, name, sizes=None):
    d = os.path.join(TMP, name)
    os.makedirs(d)
    for n, faces in dets.items():
        p = PHOTOS[n]
        w, h = (sizes or {}).get(n, (int(p["width"]), int(p["height"])))
        with open(os.path.join(d, n + ".json"), "w") as f:
            json.dump([{"image": n, "width": w, "height": h, "faces": faces}], f)
    return d


def run(json_dir, path, floors=FLOORS, record=False):
    """(exit status, [(ok, description)], output) of truth.py."""
    cmd = ["/usr/bin/python3", TRUTH_PY, "--testdata", TESTDATA,
           "--json-dir", json_dir, "--floors", path, "--floors-file", floors]
    p = subprocess.run(cmd + (["--record"] if record else []),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    tap = [(m.group(1) == "ok", m.group(2)) for m in
           (re.match(r"(ok|not ok) \d+ - (.*)", l) for l in p.stdout.split("\n")) if m]
    return p.returncode, tap, p.stdout


def record(json_dir, path, name):
    rc, _, out = run(json_dir, path, floors=os.path.join(TMP, "none.tsv"), record=True)
    if rc:
        raise SystemExit("Bail out! truth.py --record failed:\n" + out)
    f = os.path.join(TMP, name)
    with open(f, "w") as o:
        o.write(out)
    return f


def failing(tap):
    return [what for ok, what in tap if not ok]


def line(tap, start):
    return [what for ok, what in tap if what.startswith(start)]


def main():
    paths = sorted({r["path"] for r in truth.read_tsv(FLOORS)})
    n_photos, n_faces = len(PHOTOS), sum(len(f) for f in FACES.values())
    n_reach = sum(1 for f in FACES.values() for b in f if b[2])
    subtests = n_photos + 6

    # 1. the marked boxes themselves meet every path's committed floors
    for square in (False, True):
        d = write(perfect(square), "perfect-square" if square else "perfect")
        for path in paths:
            rc, tap, out = run(d, path)
            report(rc == 0 and len(tap) == subtests and not failing(tap) and
                   (square or "mean IoU 1.00" in out),
                   "the marked boxes as %s pass the %s floors (%d subtests)"
                   % ("squares of sqrt(w*h)" if square else "width x height boxes",
                      path, len(tap)), out)

    # 2. trading a face on one photo for one on another: totals hold, the
    # photo that lost its face fails, by name
    a = ("fa-sample4", 0)
    b = ("fa-sample3", 0)
    floors = record(write(perfect(skip={a}), "base"), "synthetic", "base.tsv")
    rc, tap, out = run(write(perfect(skip={b}), "traded"), "synthetic", floors)
    bad = failing(tap)
    report(rc != 0 and len(bad) == 1 and bad[0].startswith("synthetic: fa-sample3: matched 2/3 (floor 3)"),
           "a detector trading a fa-sample4 face for a fa-sample3 face fails "
           "fa-sample3 alone: %s" % "; ".join(bad), out)
    report(all(ok for ok, what in tap if re.match(
        r"synthetic: (recall|reachable recall|precision) ", what)) and
        len(line(tap, "synthetic: recall ")) == 1,
        "... while its totals meet the totals' floors", out)

    # 3. a box centred on the face, or off-centre with too little overlap
    name = "astronaut"
    box = FACES[name][0][0]
    x, y, w, h = box
    side = truth.box_size(w, h)
    off = {"x": x + 0.2 * w, "y": y + 0.2 * h, "size": side, "confidence": 500}
    v = truth.iou(truth.det_box(off), box)
    pairs, false, _ = truth.match([off], FACES[name])
    report(v < truth.IOU_MIN and not pairs and len(false) == 1 and
           x <= off["x"] <= x + w and y <= off["y"] <= y + h,
           "a box of the face's size, centre inside it at 20%% of its sides "
           "(IoU %.2f < %.2f), is no match" % (v, truth.IOU_MIN))
    pairs, false, _ = truth.match([exact(box, True)], FACES[name])
    report(len(pairs) == 1 and not false and pairs[0][2] >= truth.IOU_MIN,
           "the same box centred on the face matches (IoU %.2f)"
           % (pairs[0][2] if pairs else 0))
    dets = perfect()
    dets[name] = [off]
    rc, tap, out = run(write(dets, "off-centre"), "synthetic", floors)
    report(rc != 0 and failing(tap) and all(
        w.startswith("synthetic: %s: matched 0/1" % name) or
        w.startswith("synthetic: precision ") for w in failing(tap)) and
        "IoU %.2f < %.2f" % (v, truth.IOU_MIN) in out,
        "truth.py fails %s with that box, counts it false and says why: %s"
        % (name, "; ".join(failing(tap))), out)
    big = dict(exact(box, True), size=side * 1.9)
    pairs, _, _ = truth.match([big], FACES[name])
    report(not pairs and truth.iou(truth.det_box(big), box) < truth.IOU_MIN,
           "a concentric box 1.9 times the face's side (inside the size rule, "
           "IoU %.2f) is no match" % truth.iou(truth.det_box(big), box))

    # 4. faces too small for the device
    small = [b for f in FACES.values() for b in f if not b[2]]
    report(n_reach == 34 and len(small) == 29 and
           {n for n in PHOTOS for b in FACES[n] if not b[2]} == {"solvay-1927"},
        "%d of %d marked faces are reachable; the %d others are solvay-1927's"
        % (n_reach, n_faces, len(small)))
    scale = truth.frame_scale(1024, 705)
    report(truth.reachable((0, 0, 20 * scale, 20 * scale), 1024, 705) and
           not truth.reachable((0, 0, 19.9 * scale, 19.9 * scale), 1024, 705),
           "a box 20 frame pixels on a side is reachable, 19.9 is not "
           "(solvay-1927: %.2f photo pixels a frame pixel)" % scale)
    reach_only = write(perfect(only_reachable=True), "reachable-only")
    rc1, tap1, out1 = run(reach_only, "synthetic", floors)
    rc2, tap2, out2 = run(write(perfect(), "all"), "synthetic", floors)
    r1 = line(tap1, "synthetic: reachable recall")
    r2 = line(tap2, "synthetic: reachable recall")
    report(r1 and r1 == r2 and r1[0].startswith(
        "synthetic: reachable recall %d/%d = 100.0%%" % (n_reach, n_reach)) and
        [w.split(",")[0] for w in failing(tap1)] == [
            "synthetic: solvay-1927: matched 0/29 (floor 29)",
            "synthetic: recall %d/%d = %.1f%%" % (n_reach, n_faces, 100.0 * n_reach / n_faces)],
        "missing every unreachable face leaves reachable recall whole (%s), "
        "fails solvay-1927 and the overall recall (floors with them found)" %
        (r1[0] if r1 else "no such line"), out1 + out2)
    solvay = line(tap2, "synthetic: solvay-1927")
    report(rc2 == 0 and solvay and "matched 29/29" in solvay[0] and
           "false 0" in solvay[0] and line(tap2, "synthetic: precision %d/%d"
                                           % (n_faces, n_faces)),
           "detections on the unreachable faces are matches, not false "
           "positives: %s" % (solvay[0] if solvay else "no such line"), out2)
    s_floors = record(reach_only, "synthetic", "reachable.tsv")
    dets = perfect(only_reachable=True)
    dets["solvay-1927"] = [{"x": 50, "y": 50, "size": 30, "confidence": 500}]
    rc, tap, out = run(write(dets, "solvay-false"), "synthetic", s_floors)
    report(rc != 0 and any(w.startswith("synthetic: solvay-1927: matched 0/29")
                           and "false 1 (at most 0)" in w for w in failing(tap)),
           "a box on no face of solvay-1927 is still a false positive", out)

    # 5. incomplete or inconsistent input
    d = write(perfect(), "missing")
    os.remove(os.path.join(d, "jq-faces.json"))
    rc, tap, out = run(d, "synthetic", floors)
    report(rc != 0 and "synthetic: jq-faces: no result" in failing(tap) and
           any(w.startswith("synthetic: every photo has a result: missing jq-faces (")
               for w in failing(tap)),
        "a missing result fails: %s" % "; ".join(failing(tap)), out)
    d = write(perfect(), "resized", sizes={"jq-faces": (320, 240)})
    rc, tap, out = run(d, "synthetic", floors)
    report(rc != 0 and "synthetic: jq-faces: no result" in failing(tap),
           "a result for a picture of another size fails", out)
    with open(floors) as f:
        text = f.read()
    short = os.path.join(TMP, "short.tsv")
    with open(short, "w") as f:
        f.write(re.sub(r"(?m)^synthetic\tcamera\t.*\n", "", text))
    rc, tap, out = run(write(perfect(), "short"), "synthetic", short)
    report(rc != 0 and "synthetic: camera: no floors" in failing(tap) and
           any("none for camera" in w for w in failing(tap)),
           "a floors file without a line for a photo fails", out)
    rc, _, out = run(d, "synthetic", os.path.join(TMP, "none.tsv"), record=True)
    report(rc != 0 and "not recording" in out,
           "--record refuses an incomplete or inconsistent set of results", out)

    print("1..%d" % len(results))
    shutil.rmtree(TMP)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
