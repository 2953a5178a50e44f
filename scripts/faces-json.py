#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Print the faces of one fdif-detect --json result and store it.

  faces-json.py --image PATH IN.json OUT.json

IN.json is what fdif-detect --json printed for one photo in the guest (a
list with one entry); OUT.json is the same with "image" set to PATH, the
photo's name on the host. The faces are printed as fdif-detect's text
output prints them. Exits 1 with a message if IN.json is not such a
result.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--image", required=True)
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    try:
        with open(a.input) as f:
            result = json.load(f)
        entry = result[0]
        faces = entry["faces"]
        width, height = entry["width"], entry["height"]
    except (OSError, ValueError, LookupError, TypeError) as e:
        print("%s: failed: unreadable result %s (%s)" % (a.image, a.input, e),
              file=sys.stderr)
        return 1
    entry["image"] = a.image
    with open(a.output, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    n = len(faces)
    print("%s: %d face%s (%dx%d)" % (a.image, n, "" if n == 1 else "s", width, height))
    for i, face in enumerate(faces, 1):
        print("  face %d: x=%.0f y=%.0f size=%.0f confidence=%d angle=%d direction=%s"
              % (i, face["x"], face["y"], face["size"], face["confidence"],
                 face["angle"], face["direction"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
