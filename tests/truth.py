#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check detected faces against the face boxes marked by hand on photos.

  truth.py --testdata DIR --json-dir DIR --floors PATH [--floors-file F]

testdata/photos.tsv lists the photos, testdata/faces.tsv the face boxes a
person marked on each (see testdata/README.md). --json-dir holds one
NAME.json a photo, in fdif-detect's --json format (x, y: the face's center,
size: its side, in the photo's pixels), as scripts/demo.sh leaves them.

Matching rule: a detection matches a marked face when its center lies
inside the marked box, its size is within a factor of 2 of the box's
(sqrt(w*h); a detection's is sqrt(width*height) when fdif-detect gives
width and height, else size), and the intersection over union (IoU) of
its box and the marked box is at least IOU_MIN = 0.35; detections are
taken most confident first, each marked face matches at most one
detection, and a detection with no free marked face is a false positive
(a second box on one face is one too).

Why IoU 0.35 beside centre and size: the centre-and-size rule alone takes a
box of the right size whose centre sits in a corner of the face (IoU 0.14),
and a concentric box twice the face's side (IoU 0.25): neither frames the
face. testdata/README.md asks for a tolerant rule (each edge of a marked
box is good to about 10%) and names IoU 0.3 to 0.4. A square detection on
a correctly found face loses IoU to the box's shape alone (the marked boxes
are up to 1.76 times taller than wide: 0.6 for a concentric square of the
same area) and more to the edges' 10% (a box of equal size shifted by 10%
of its side on both axes: 0.68). The real matches measured when this rule
was added have IoU 0.42 and more (host and device paths, docs/testing.md):
0.4 would leave the weakest one (fa-sample5, 0.42) 0.02 from failing, and
moving that box by one pixel of the 320x240 frame (6 photo pixels) takes
it under 0.4; at 0.35 it stays a match moved one frame pixel on both axes
(0.37) or two along one (0.36). 0.35 is the middle of the README's range,
still rejects both boxes above, and keeps a margin under every real match.
Recall = matched faces / marked faces, precision = matched / detections.

Prints TAP: every photo has a result, and recall and precision are at
least the floors recorded for PATH in tests/truth-floors.tsv (the values
measured when the floors were set: a regression fails; an improvement
should raise them). Per-photo numbers go to TAP comments. --record prints
the line to put in the floors file instead of checking.
"""
import argparse
import csv
import json
import math
import os
import sys

IOU_MIN = 0.35			# see above

def read_tsv(path):
    """Rows of a tab-separated file with a header line; '#' lines are comments."""
    with open(path, newline="") as f:
        return list(csv.DictReader((l for l in f if not l.startswith("#")),
                                   delimiter="\t"))


def load_truth(testdata):
    photos = {r["name"]: r for r in read_tsv(os.path.join(testdata, "photos.tsv"))}
    faces = {name: [] for name in photos}
    for r in read_tsv(os.path.join(testdata, "faces.tsv")):
        if r["name"] not in photos:
            sys.exit("faces.tsv: face of unknown photo %s" % r["name"])
        box = tuple(float(r[k]) for k in ("x", "y", "w", "h"))
        tags = [] if r["tags"] in ("", "-") else r["tags"].split(",")
        faces[r["name"]].append((box, tags))
    for name, p in photos.items():
        if int(p["faces"]) != len(faces[name]):
            sys.exit("photos.tsv says %s has %s faces, faces.tsv lists %d"
                     % (name, p["faces"], len(faces[name])))
    return photos, faces


def det_box(d):
    """A detection's box (x, y, w, h): width x height around its centre when
    fdif-detect gives both, else size x size."""
    w, h = d.get("width") or 0, d.get("height") or 0
    if not (w > 0 and h > 0):
        w = h = d["size"]
    return (d["x"] - w / 2, d["y"] - h / 2, w, h)


def iou(a, b):
    """Intersection over union of two (x, y, w, h) boxes."""
    iw = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    ih = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    inter = max(iw, 0) * max(ih, 0)
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def match(detections, truth):
    """(matched, false positives, unmatched marked faces)"""
    free = list(range(len(truth)))
    matched, false = 0, 0
    for d in sorted(detections, key=lambda d: -d.get("confidence", 0)):
        best, best_dist = None, None
        db = det_box(d)
        for i in free:
            (x, y, w, h), _ = truth[i]
            side = math.sqrt(w * h)
            if not (x <= d["x"] <= x + w and y <= d["y"] <= y + h):
                continue
            if not (0.5 <= math.sqrt(db[2] * db[3]) / side <= 2.0):
                continue
            if iou(db, truth[i][0]) < IOU_MIN:
                continue
            dist = math.hypot(d["x"] - (x + w / 2), d["y"] - (y + h / 2)) / side
            if best is None or dist < best_dist:
                best, best_dist = i, dist
        if best is None:
            false += 1
        else:
            free.remove(best)
            matched += 1
    return matched, false, [truth[i] for i in free]


def read_floors(path, name):
    for r in read_tsv(path):
        if r["path"] == name:
            return int(r["min_matched"]), int(r["max_false"])
    sys.exit("%s: no floors for %s" % (path, name))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--json-dir", required=True)
    ap.add_argument("--floors", required=True, help="which floors: host, device, ...")
    ap.add_argument("--floors-file", default=os.path.join(here, "truth-floors.tsv"))
    ap.add_argument("--record", action="store_true")
    a = ap.parse_args()

    photos, faces = load_truth(a.testdata)
    n, lines = 0, []
    total_truth = total_matched = total_false = total_dets = 0
    missing = []
    by_tag = {}
    for name in sorted(photos):
        path = os.path.join(a.json_dir, name + ".json")
        try:
            with open(path) as f:
                dets = json.load(f)[0]["faces"]
        except (OSError, ValueError, LookupError) as e:
            missing.append("%s (%s)" % (name, e))
            continue
        m, fp, unmatched = match(dets, faces[name])
        total_truth += len(faces[name])
        total_matched += m
        total_false += fp
        total_dets += len(dets)
        for box, tags in faces[name]:
            for t in tags or ["-"]:
                by_tag.setdefault(t, [0, 0])[1] += 1
        for box, tags in [f for f in faces[name] if f not in unmatched]:
            for t in tags or ["-"]:
                by_tag[t][0] += 1
        lines.append("# %-28s %2d marked, %2d found, %2d false, missed: %s"
                     % (name, len(faces[name]), m, fp,
                        " ".join("%d,%d,%d,%d%s" % (b + (("/" + ",".join(t)) if t else "",))
                                 for b, t in unmatched) or "-"))

    if a.record:
        print("%s\t%d\t%d" % (a.floors, total_matched, total_false))
        return 0
    min_matched, max_false = read_floors(a.floors_file, a.floors)
    out = lines[:]
    out.append("# by tag (matched/marked): " + ", ".join(
        "%s %d/%d" % (t, v[0], v[1]) for t, v in sorted(by_tag.items())))
    recall = total_matched / total_truth if total_truth else 0
    precision = total_matched / total_dets if total_dets else 1
    checks = [
        (not missing, "every photo has a result" +
         ("" if not missing else ": missing " + ", ".join(missing))),
        (total_truth >= 40 and len(photos) >= 17, "the truth has %d photos and %d marked faces"
         % (len(photos), total_truth)),
        (total_matched >= min_matched,
         "recall %d/%d = %.1f%%, floor %d/%d = %.1f%%"
         % (total_matched, total_truth, 100 * recall, min_matched, total_truth,
            100 * min_matched / total_truth if total_truth else 0)),
        (total_false <= max_false,
         "precision %d/%d = %.1f%%, at most %d false positives (%d found)"
         % (total_matched, total_dets, 100 * precision, max_false, total_false)),
    ]
    for i, (ok, what) in enumerate(checks, 1):
        out.append("%s %d - %s: %s" % ("ok" if ok else "not ok", i, a.floors, what))
    out.append("1..%d" % len(checks))
    print("\n".join(out))
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
