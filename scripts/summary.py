#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Count the results of a test run and print 'N passed, N failed, N skipped'.

Arguments are result files: meson's testlog.json (one JSON object a line;
TAP tests count by their subtests, which meson keeps in stdout) or TAP
output (lines 'ok N ...', 'not ok N ...', '# SKIP' directives).  A TAP file
that reports fewer results than its plan, or bails out, counts a failure.
"""
import json
import re
import sys

TAP_LINE = re.compile(r"^\s*(not ok|ok)\b(.*)$")
PLAN = re.compile(r"^\s*1\.\.(\d+)")


def count_tap(text, counts):
    planned, seen = None, 0
    for line in text.splitlines():
        m = PLAN.match(line)
        if m:
            planned = int(m.group(1))
            continue
        if line.startswith("Bail out!"):
            counts["failed"] += 1
            return
        m = TAP_LINE.match(line)
        if not m:
            continue
        seen += 1
        rest = m.group(2)
        if re.search(r"#\s*SKIP", rest, re.I):
            counts["skipped"] += 1
        elif m.group(1) == "ok" or re.search(r"#\s*TODO", rest, re.I):
            counts["passed"] += 1
        else:
            counts["failed"] += 1
    if planned is not None and seen < planned:
        counts["failed"] += planned - seen


def count_meson(path, counts):
    for line in open(path):
        r = json.loads(line)
        out = r.get("stdout") or ""
        if any(PLAN.match(l) for l in out.splitlines()):
            before = counts["failed"]
            count_tap(out, counts)
            # a crash or timeout after all its subtests still fails
            if r["result"] not in ("OK", "SKIP") and counts["failed"] == before:
                counts["failed"] += 1
            continue
        key = {"OK": "passed", "SKIP": "skipped", "EXPECTEDFAIL": "passed"}
        counts[key.get(r["result"], "failed")] += 1


def main():
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for path in sys.argv[1:]:
        if path.endswith(".json"):
            count_meson(path, counts)
        else:
            with open(path, errors="replace") as f:
                count_tap(f.read(), counts)
    print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
