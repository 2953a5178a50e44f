#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The test summary fails closed: break each stage's results, see it go red.

  test-summary.py SOURCE_ROOT [--results DIR]

Without --results it makes a complete set of results from the manifest
(tests/manifest.tsv: every file, each with the least number of subtests
allowed, all passing), checks that scripts/summary.py calls it green, and
then breaks it one way at a time, checking that the summary goes red each
time. With --results (scripts/test.sh does this after a real run) it
breaks a copy of the run's own results instead, and checks that each break
adds at least one failure to what the run already had.

The ways to break, for every file the manifest names: remove it, empty it,
drop its TAP plan, drop subtests below the manifest's minimum, turn a
result into 'not ok' or into 'not ok # TODO', skip a test (the summary has
no lenient mode: CI or not, a skip the manifest does not allow fails); for
every stage: it did not run, timed out, or exited non-zero; for every
skip the manifest allows (skip-ok), one skip more than the number it
allows in a run. And the other way: each allowed skip, up to its number,
keeps a green set green. A failure of a harness check (a manifest line
marked 'harness') is counted on the harness's line, not the product's.
Prints TAP.
"""
import argparse
import contextlib
import fnmatch
import importlib.util
import io
import json
import os
import re
import shutil
import sys
import tempfile


SUMMARY = None


def read_manifest(path):
    files, stages = [], []
    with open(path) as f:
        for line in f:
            col = line.rstrip("\n").split("\t")
            if not line.strip() or line.startswith("#") or col[0] == "skip-ok":
                continue
            files.append((col[0], col[1], int(col[2]), col[3:] == ["harness"]))
            if col[0] not in stages:
                stages.append(col[0])
    return files, stages


def tap(n):
    return "".join("ok %d - subtest %d\n" % (i, i) for i in range(1, n + 1)) + \
        "1..%d\n" % n


def synthesize(files, stages, root):
    logs = {}
    for stage, name, minimum, _ in files:
        os.makedirs(os.path.join(root, stage), exist_ok=True)
        if name.startswith("testlog.json:"):
            logs.setdefault(stage, []).append(
                {"name": name.split(":", 1)[1], "result": "OK",
                 "stdout": tap(max(minimum, 1))})
        else:
            with open(os.path.join(root, stage, name), "w") as f:
                f.write(tap(max(minimum, 1)))
    for stage, tests in logs.items():
        with open(os.path.join(root, stage, "testlog.json"), "w") as f:
            for t in tests:
                f.write(json.dumps(t) + "\n")
    with open(os.path.join(root, "stages.tsv"), "w") as f:
        for s in stages:
            f.write("%s\t1\t0\n" % s)


def edit_file(root, stage, name, fn):
    """Apply fn to a result's TAP text (None: remove the result)."""
    if name.startswith("testlog.json:"):
        path = os.path.join(root, stage, "testlog.json")
        test = name.split(":", 1)[1]
        with open(path) as f:
            rows = [json.loads(l) for l in f if l.strip()]
        out = []
        for r in rows:
            if r["name"].rsplit(" / ", 1)[-1] == test:
                text = fn(r.get("stdout") or "")
                if text is None:
                    continue
                r["stdout"] = text
            out.append(r)
        with open(path, "w") as f:
            for r in out:
                f.write(json.dumps(r) + "\n")
        return
    path = os.path.join(root, stage, name)
    if not os.path.exists(path):
        return
    with open(path) as f:
        text = fn(f.read())
    if text is None:
        os.remove(path)
    else:
        with open(path, "w") as f:
            f.write(text)


def results_of(text):
    return [l for l in text.splitlines() if re.match(r"^(not ok|ok)\b", l)]


def few(minimum):
    def fn(text):
        keep = results_of(text)[:max(minimum - 1, 0)]
        return "".join(l + "\n" for l in keep) + "1..%d\n" % len(keep)
    return fn


def not_ok(text):
    return re.sub(r"^ok\b", "not ok", text, count=1, flags=re.M)


def skip(text):
    return re.sub(r"^ok (\d+)(.*)$", r"ok \1\2 # SKIP no device here", text,
                  count=1, flags=re.M)


def todo(text):
    return re.sub(r"^ok (\d+)(.*)$", r"not ok \1\2 # TODO known to fail", text,
                  count=1, flags=re.M)


def skip_with(reason):
    def fn(text):
        return re.sub(r"^ok (\d+)(.*)$", r"ok \1\2 # SKIP " + reason.replace("\\", r"\\"),
                      text, count=1, flags=re.M)
    return fn


def read_skip_ok(path):
    """[(stage, glob, text, why, most skips in a run)]"""
    rules = []
    with open(path) as f:
        for l in f:
            if l.startswith("skip-ok\t"):
                col = l.rstrip("\n").split("\t")[1:] + ["1"]
                rules.append((col[0], col[1], col[2], col[3], int(col[4])))
    return rules


def skip_n(reason, k):
    """the first @k results skipped, with @reason (results are added
    first where there are fewer than @k)"""
    def fn(text):
        have = results_of(text)
        if len(have) < k:
            keep = have + ["ok %d - added %d" % (i, i) for i in range(len(have) + 1, k + 1)]
            text = "".join(l + "\n" for l in keep) + "1..%d\n" % len(keep)
        for _ in range(k):
            text = re.sub(r"^ok (\d+)((?:(?!# SKIP).)*)$",
                          r"ok \1\2 # SKIP " + reason.replace("\\", r"\\"),
                          text, count=1, flags=re.M)
        return text
    return fn


def set_stage(root, stage, status):
    path = os.path.join(root, "stages.tsv")
    with open(path) as f:
        rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    with open(path, "w") as f:
        for r in rows:
            if r[0] == stage and status is None:
                continue
            if r[0] == stage:
                r[2] = status
            f.write("\t".join(r) + "\n")


def load_summary(src):
    """scripts/summary.py as a module: its main() is run in this process
    (hundreds of runs; a new interpreter each time is too slow)."""
    spec = importlib.util.spec_from_file_location(
        "summary", os.path.join(src, "scripts", "summary.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def summary(src, manifest, root, not_run=(), problems=None, kinds=None):
    """(exit status, failed count or None) of summary.py on @root, run as
    a person runs it (CI unset); the places it reports failed are added to
    @problems"""
    args = ["summary.py", "--manifest", manifest, root]
    for s in not_run:
        args[1:1] = ["--not-run", s]
    os.environ.pop("CI", None)
    out = io.StringIO()
    saved = sys.argv
    sys.argv = args
    try:
        with contextlib.redirect_stdout(out):
            rc = SUMMARY.main()
    except SystemExit as e:
        rc = e.code
    finally:
        sys.argv = saved
    if problems is not None:
        for line in out.getvalue().splitlines():
            m = re.match(r"^FAILED: (?:stage (\S+)|(\S+): )", line)
            if m:
                problems.add(("stage " + m.group(1)) if m.group(1) else m.group(2))
    m = re.search(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", out.getvalue(), re.M)
    if kinds is not None:
        for kind in ("product", "harness self-checks"):
            k = re.search(r"^%s: \d+ passed, (\d+) failed" % kind, out.getvalue(), re.M)
            kinds[kind] = int(k.group(1)) if k else None
    return rc, int(m.group(2)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_root")
    ap.add_argument("--results")
    ap.add_argument("--not-run", action="append", default=[])
    a = ap.parse_args()
    global SUMMARY
    SUMMARY = load_summary(a.source_root)
    manifest = os.path.join(a.source_root, "tests", "manifest.tsv")
    files, stages = read_manifest(manifest)
    files = [f for f in files if f[0] not in a.not_run]
    stages = [s for s in stages if s not in a.not_run]
    work = tempfile.mkdtemp(prefix="fdif-summary-")
    base = os.path.join(work, "base")
    if a.results:
        shutil.copytree(a.results, base)
    else:
        synthesize(files, stages, base)

    n, failed = 0, 0

    def check(what, ok):
        nonlocal n, failed
        n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
        failed += not ok

    already = set()
    rc, base_failed = summary(a.source_root, manifest, base, a.not_run, already)
    if not a.results:
        check("a complete set of results is green", rc == 0 and base_failed == 0)
    if base_failed is None:
        check("the summary prints its count line", False)
        base_failed = 0

    breaks = []
    for stage, name, minimum, _ in files:
        breaks.append(("%s/%s removed" % (stage, name), stage, name, lambda t: None))
        breaks.append(("%s/%s empty" % (stage, name), stage, name, lambda t: ""))
        breaks.append(("%s/%s without its plan" % (stage, name), stage, name,
                       lambda t: re.sub(r"^1\.\.\d+\s*$", "", t, flags=re.M)))
        if minimum > 0:
            breaks.append(("%s/%s with %d subtests (minimum %d)" % (stage, name, minimum - 1,
                                                                   minimum),
                           stage, name, few(minimum)))
        breaks.append(("%s/%s with a failure" % (stage, name), stage, name, not_ok))
        breaks.append(("%s/%s with a known failure (a not-ok line with a TODO directive)" % (stage, name),
                       stage, name, todo))
        breaks.append(("%s/%s with a skip, CI unset" % (stage, name), stage, name, skip))
    # a real run's own failures cannot get worse by breaking them again:
    # those files and stages are counted red already, and left alone here
    if already:
        print("# already failing, not broken again: " + ", ".join(sorted(already)))
    breaks = [b for b in breaks if "%s/%s" % (b[1], b[2]) not in already]
    for what, stage, name, fn in breaks:
        d = os.path.join(work, "case")
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(base, d)
        edit_file(d, stage, name, fn)
        rc, got = summary(a.source_root, manifest, d, a.not_run)
        check("red when " + what, rc != 0 and got is not None and got > base_failed)
    # an allowed skip is not a failure: each skip-ok line, on a file it names
    if not a.results:
        for stage, glob, text, why, most in read_skip_ok(manifest):
            targets = [(n, m) for s_, n, m, _ in files
                       if s_ == stage and fnmatch.fnmatch(n, glob)]
            for name, minimum in targets[:1]:
                for k, green in ((most, True), (most + 1, False)):
                    d = os.path.join(work, "case")
                    shutil.rmtree(d, ignore_errors=True)
                    shutil.copytree(base, d)
                    edit_file(d, stage, name, skip_n(text, k))
                    rc, got = summary(a.source_root, manifest, d, a.not_run)
                    if green:
                        check("green when %s/%s skips '%s' %d times (allowed: %s)"
                              % (stage, name, text, k, why), rc == 0 and got == 0)
                    else:
                        check("red when %s/%s skips '%s' %d times, one past the %d "
                              "allowed" % (stage, name, text, k, most),
                              rc != 0 and got is not None and got > 0)
        # the harness's own checks fail on their own line, the product's
        # on theirs
        for stage, name, _, is_harness in files[:1] + [f for f in files if f[3]][:1]:
            d = os.path.join(work, "case")
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(base, d)
            edit_file(d, stage, name, not_ok)
            seen = {}
            rc, got = summary(a.source_root, manifest, d, a.not_run, kinds=seen)
            kind, other = (("harness self-checks", "product") if is_harness
                           else ("product", "harness self-checks"))
            check("a failure in %s/%s is counted on the %s line, not the %s one"
                  % (stage, name, kind, other),
                  seen.get(kind) == 1 and seen.get(other) == 0)
    for stage in [s for s in stages if "stage " + s not in already]:
        for status, what in ((None, "did not run"), ("timeout", "timed out"),
                             ("1", "exited 1")):
            d = os.path.join(work, "case")
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(base, d)
            set_stage(d, stage, status)
            rc, got = summary(a.source_root, manifest, d, a.not_run)
            check("red when stage %s %s" % (stage, what),
                  rc != 0 and got is not None and got > base_failed)
    shutil.rmtree(work, ignore_errors=True)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
