#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check detected faces against the face boxes marked by hand on photos.

  truth.py --testdata DIR --json-dir DIR --floors PATH [--floors-file F]
           [--record]

testdata/photos.tsv lists the photos, testdata/faces.tsv the face boxes a
person marked on each (see testdata/README.md). --json-dir holds one
NAME.json a photo, in fdif-detect's --json format, as scripts/demo.sh
leaves them: per face x, y (its centre) and size (its side), and, when
present, width and height (the box's sides; fdif-detect prints them,
truth-host does not), all in the photo's pixels. A detection's box is
width x height around its centre when both are there and positive, else
size x size.

Matching rule: a detection matches a marked face when
  - its centre lies inside the marked box,
  - its size, sqrt(width * height), is within a factor of 2 of the box's
    sqrt(w * h), and
  - the intersection over union (IoU) of its box and the marked box is at
    least IOU_MIN = 0.35.
Detections are taken most confident first; each is given the free marked
face (of those it matches) nearest its centre, each marked face matches at
most one detection, and a detection with no free marked face is a false
positive (a second box on one face is one too).

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

Reachable faces: the library fits a photo into the device's frame, 320x240
on the OMAP4 (libfdif-drm/src/fit.c, called by fdif_detect_image() with the
frame the device reports and by truth-host with FDIF_FRAME_WIDTH x
FDIF_FRAME_HEIGHT): scale = max(width / 320, height / 240), aspect kept,
letterboxed. The device finds no face smaller than its minimum face size,
20 frame pixels (the OMAP4 FDIF's smallest, which the library asks for by
default; facedet's min_size 20 on the host path). A marked face is
reachable when its size, sqrt(w * h) (the size the matching rule compares
a detection's with; on this truth set its height or its width alone picks
the same 34 faces), divided by the photo's scale is at least 20.
Reachable recall is matched reachable faces / reachable faces: an
unreachable face missed is not a miss there. A detection that matches an
unreachable face is still a match, not a false positive: the face is real,
and a box marked by eye (each edge good to about 10%) just under the limit
may be a face the detector can find; counting it false would fault the
detector for being right. It counts in the overall recall, and in neither
part of the reachable recall.

Prints TAP: every photo has a result; the truth is the expected size; the
floors file covers every photo; then one subtest per photo (matched faces,
matched reachable faces and false positives against that photo's floors,
so a detector cannot trade a face on one photo for one on another); then
the totals over all photos (recall, reachable recall, precision) against
the totals' floors. Floors are read from --floors-file
(tests/truth-floors.tsv): one line per path and photo, and one per path
with photo '*' for the totals; they are what the detector achieved when
measured (a regression fails; an improvement should raise them). Details
per photo (mean IoU of the matches, misses, detections that failed only
on IoU) go to TAP comments.

--record prints the floors file with PATH's lines replaced by what this
run measured (other paths' lines kept); write it to a new file and move it
over the old one. It refuses to record from an incomplete set of results.
"""
import argparse
import csv
import json
import math
import os
import sys

IOU_MIN = 0.35			# see above
SIZE_RATIO = 2.0		# a detection's size within [1/2, 2] x the box's
FRAME_W, FRAME_H = 320, 240	# FDIF_FRAME_WIDTH, FDIF_FRAME_HEIGHT (fdif.h)
MIN_FACE = 20			# the FDIF's smallest face size, frame pixels
TOTAL = "*"			# the floors file's photo name for the totals
FLOOR_COLUMNS = ("path", "photo", "min_matched", "min_reachable", "max_false")


def read_tsv(path):
    """Rows of a tab-separated file with a header line; '#' lines are comments."""
    with open(path, newline="") as f:
        return list(csv.DictReader((l for l in f if not l.startswith("#")),
                                   delimiter="\t"))


def frame_scale(width, height):
    """Photo pixels per frame pixel when the library fits the photo (fit.c)."""
    return max(width / FRAME_W, height / FRAME_H)


def box_size(w, h):
    return math.sqrt(w * h)


def reachable(box, width, height):
    """Is this marked box at least the minimum face size in the frame?"""
    return box_size(box[2], box[3]) / frame_scale(width, height) >= MIN_FACE


def load_truth(testdata):
    """photos {name: photos.tsv row}, faces {name: [(box, tags, reachable)]}"""
    photos = {r["name"]: r for r in read_tsv(os.path.join(testdata, "photos.tsv"))}
    faces = {name: [] for name in photos}
    for r in read_tsv(os.path.join(testdata, "faces.tsv")):
        if r["name"] not in photos:
            sys.exit("faces.tsv: face of unknown photo %s" % r["name"])
        p = photos[r["name"]]
        box = tuple(float(r[k]) for k in ("x", "y", "w", "h"))
        tags = [] if r["tags"] in ("", "-") else r["tags"].split(",")
        faces[r["name"]].append(
            (box, tags, reachable(box, int(p["width"]), int(p["height"]))))
    for name, p in photos.items():
        if int(p["faces"]) != len(faces[name]):
            sys.exit("photos.tsv says %s has %s faces, faces.tsv lists %d"
                     % (name, p["faces"], len(faces[name])))
    return photos, faces


def det_box(d):
    """A detection's box (x, y, w, h), top-left corner and sides."""
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
    """Match detections to marked faces (the rule in the docstring).

    truth: [(box, ...)]. Returns (pairs, false, near): pairs [(face index,
    detection, IoU)], false [detections matching no free face], near
    [(face index, detection, IoU)] of false detections that would have
    matched a free face but for the IoU."""
    free = list(range(len(truth)))
    pairs, false, near = [], [], []
    for d in sorted(detections, key=lambda d: -d.get("confidence", 0)):
        db = det_box(d)
        best = best_dist = best_iou = nearest = None
        for i in free:
            x, y, w, h = truth[i][0]
            side = box_size(w, h)
            if not (x <= d["x"] <= x + w and y <= d["y"] <= y + h):
                continue
            if not (1 / SIZE_RATIO <= box_size(db[2], db[3]) / side <= SIZE_RATIO):
                continue
            overlap = iou(db, truth[i][0])
            if overlap < IOU_MIN:
                if nearest is None or overlap > nearest[2]:
                    nearest = (i, d, overlap)
                continue
            dist = math.hypot(d["x"] - (x + w / 2), d["y"] - (y + h / 2)) / side
            if best is None or dist < best_dist:
                best, best_dist, best_iou = i, dist, overlap
        if best is None:
            false.append(d)
            if nearest:
                near.append(nearest)
        else:
            free.remove(best)
            pairs.append((best, d, best_iou))
    return pairs, false, near


def read_floors(path):
    """{(path, photo): (min_matched, min_reachable, max_false)}, and the rows
    in order (for --record)."""
    rows = read_tsv(path)
    floors = {}
    for r in rows:
        if None in r or any(r.get(k) in (None, "") for k in FLOOR_COLUMNS):
            sys.exit("%s: a line without the columns %s: %s"
                     % (path, ", ".join(FLOOR_COLUMNS), r))
        key = (r["path"], r["photo"])
        if key in floors:
            sys.exit("%s: two lines for %s %s" % (path, key[0], key[1]))
        floors[key] = tuple(int(r[k]) for k in FLOOR_COLUMNS[2:])
    return floors, rows


def fmt_box(b):
    return ",".join("%g" % v for v in b)


def load_result(path, photo):
    """The faces of one NAME.json, or raise ValueError/OSError/LookupError."""
    with open(path) as f:
        entry = json.load(f)[0]
    for k in ("width", "height"):
        if k in entry and int(entry[k]) != int(photo[k]):
            raise ValueError("the photo is %sx%s, the result says %sx%s"
                             % (photo["width"], photo["height"],
                                entry.get("width"), entry.get("height")))
    dets = entry["faces"]
    for d in dets:
        for k in ("x", "y", "size"):
            if not isinstance(d[k], (int, float)):
                raise ValueError("face field %s is %r" % (k, d[k]))
    return dets


def measure(photos, faces, json_dir):
    """Per photo: a dict of what the detector did (None: no result)."""
    out = {}
    for name in sorted(photos):
        truth = faces[name]
        try:
            dets = load_result(os.path.join(json_dir, name + ".json"), photos[name])
        except (OSError, ValueError, LookupError, TypeError) as e:
            out[name] = {"error": str(e)}
            continue
        pairs, false, near = match(dets, truth)
        hit = {i for i, _, _ in pairs}
        out[name] = {
            "marked": len(truth),
            "reachable": sum(1 for f in truth if f[2]),
            "matched": len(pairs),
            "matched_reachable": sum(1 for i in hit if truth[i][2]),
            "false": len(false),
            "detections": len(dets),
            "ious": [v for _, _, v in pairs],
            "missed": [truth[i] for i in range(len(truth)) if i not in hit],
            "near": near,
            "hit": hit,
        }
    return out


def comment(name, m, truth, scale):
    if "error" in m:
        return ["# %s: no result (%s)" % (name, m["error"])]
    ious = m["ious"]
    lines = ["# %s: %d marked (%d reachable), %d detections: %d matched "
             "(%d reachable), %d false, mean IoU %s"
             % (name, m["marked"], m["reachable"], m["detections"], m["matched"],
                m["matched_reachable"], m["false"],
                "%.2f" % (sum(ious) / len(ious)) if ious else "-")]
    missed = [f for f in m["missed"] if f[2]]
    if missed:
        lines.append("#   missed: " + " ".join(
            "%s%s" % (fmt_box(b), ("/" + ",".join(t)) if t else "")
            for b, t, _ in missed))
    sides = [box_size(b[2], b[3]) / scale for b, _, r in m["missed"] if not r]
    if sides:
        lines.append("#   missed, unreachable (under %d px in the frame): %d, "
                     "%.1f to %.1f px" % (MIN_FACE, len(sides), min(sides), max(sides)))
    for i, d, v in m["near"]:
        lines.append("#   false: centre and size on %s but IoU %.2f < %.2f: %s"
                     % (fmt_box(truth[i][0]), v, IOU_MIN, fmt_box(det_box(d))))
    return lines


def record(a, photos, got):
    """The floors file, PATH's lines replaced by the measured values."""
    bad = [n for n, m in got.items() if "error" in m]
    if bad:
        sys.exit("--record: no result for %s; not recording" % ", ".join(bad))
    header, rows = [], []
    if os.path.exists(a.floors_file):
        with open(a.floors_file) as f:
            header = [l.rstrip("\n") for l in f if l.startswith("#")]
        rows = read_floors(a.floors_file)[1]
    tot = [sum(got[n][k] for n in got) for k in ("matched", "matched_reachable", "false")]
    mine = [[a.floors, TOTAL] + tot] + [
        [a.floors, n, got[n]["matched"], got[n]["matched_reachable"], got[n]["false"]]
        for n in sorted(photos)]
    out, done = [], False
    for r in rows:
        if r["path"] == a.floors:
            if not done:
                out += mine
                done = True
            continue
        out.append([r[k] for k in FLOOR_COLUMNS])
    if not done:
        out += mine
    print("\n".join(header + ["\t".join(FLOOR_COLUMNS)] +
                    ["\t".join(str(v) for v in r) for r in out]))
    return 0


def pct(a, b):
    return 100.0 * a / b if b else 0.0


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
    got = measure(photos, faces, a.json_dir)
    if a.record:
        return record(a, photos, got)
    floors = {k[1]: v for k, v in read_floors(a.floors_file)[0].items()
              if k[0] == a.floors}

    out, checks = [], []

    def check(ok, what):
        checks.append(ok)
        out.append("%s %d - %s: %s" % ("ok" if ok else "not ok", len(checks),
                                         a.floors, what))

    missing = ["%s (%s)" % (n, m["error"]) for n, m in got.items() if "error" in m]
    marked = sum(len(faces[n]) for n in photos)
    reach = sum(1 for n in photos for f in faces[n] if f[2])
    check(not missing, "every photo has a result" +
          ("" if not missing else ": missing " + ", ".join(missing)))
    check(marked >= 40 and len(photos) >= 17 and reach >= 30,
          "the truth has %d photos and %d marked faces, %d of them reachable "
          "(at least %d px in the %dx%d frame)"
          % (len(photos), marked, reach, MIN_FACE, FRAME_W, FRAME_H))
    stray = sorted(set(floors) - set(photos) - {TOTAL})
    lacking = sorted(set(photos) - set(floors)) + ([] if TOTAL in floors else [TOTAL])
    check(not stray and not lacking,
          "%s has floors for every photo and the totals"
          % os.path.basename(a.floors_file)
          + ("; none for " + ", ".join(lacking) if lacking else "")
          + ("; floors for photos not in the truth: " + ", ".join(stray)
             if stray else ""))

    for name in sorted(photos):
        m = got[name]
        out += comment(name, m, faces[name],
                       frame_scale(int(photos[name]["width"]), int(photos[name]["height"])))
        if name not in floors:
            check(False, "%s: no floors" % name)
            continue
        fm, fr, ff = floors[name]
        if "error" in m:
            check(False, "%s: no result" % name)
            continue
        check(m["matched"] >= fm and m["matched_reachable"] >= fr and m["false"] <= ff,
              "%s: matched %d/%d (floor %d), reachable %d/%d (floor %d), "
              "false %d (at most %d)"
              % (name, m["matched"], m["marked"], fm, m["matched_reachable"],
                 m["reachable"], fr, m["false"], ff))

    done = [m for m in got.values() if "error" not in m]
    matched = sum(m["matched"] for m in done)
    matched_reach = sum(m["matched_reachable"] for m in done)
    false = sum(m["false"] for m in done)
    dets = sum(m["detections"] for m in done)
    ious = [v for m in done for v in m["ious"]]
    by_tag = {}
    for name in photos:
        hit = got[name].get("hit", set())
        for i, (box, tags, r) in enumerate(faces[name]):
            for t in tags or ["-"]:
                v = by_tag.setdefault(t, [0, 0])
                v[0] += i in hit
                v[1] += 1
    out.append("# by tag (matched/marked): " + ", ".join(
        "%s %d/%d" % (t, v[0], v[1]) for t, v in sorted(by_tag.items())))
    out.append("# IoU of the %d matches: mean %s, least %s (a match needs %.2f)"
               % (len(ious), "%.2f" % (sum(ious) / len(ious)) if ious else "-",
                  "%.2f" % min(ious) if ious else "-", IOU_MIN))
    fm, fr, ff = floors.get(TOTAL, (marked + 1, reach + 1, -1))
    check(matched >= fm, "recall %d/%d = %.1f%%, floor %d/%d = %.1f%%"
          % (matched, marked, pct(matched, marked), fm, marked, pct(fm, marked)))
    check(matched_reach >= fr,
          "reachable recall %d/%d = %.1f%%, floor %d/%d = %.1f%%"
          % (matched_reach, reach, pct(matched_reach, reach), fr, reach,
             pct(fr, reach)))
    check(false <= ff, "precision %d/%d = %.1f%%, at most %d false positives "
          "(%d found)" % (matched, dets, pct(matched, dets) if dets else 100.0,
                          ff, false))
    out.append("1..%d" % len(checks))
    print("\n".join(out))
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
