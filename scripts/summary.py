#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Count a test run's results against the manifest; fail closed.

  summary.py [--not-run STAGE]... --manifest MANIFEST RESULTS

RESULTS is the run's folder (build/results): one folder per stage with its
result files, and stages.tsv (stage, seconds, exit status, and how busy
the machine's CPUs were, where given) written by
scripts/test.sh. MANIFEST (tests/manifest.tsv) names every result file
each stage must produce and the least number of subtests in it.

A file counts by its TAP lines (ok, not ok, # SKIP, # TODO); meson's
testlog.json is split into one pseudo-file per test, named
'testlog.json:TEST'. Each of these is a failure:
  - a stage that did not run, timed out or exited non-zero;
  - a manifest file that is missing or empty, has no TAP plan, reports
    fewer results than its plan, fewer subtests than the manifest says,
    or bails out;
  - a 'not ok' line, 'not ok ... # TODO' included (a known failure is
    still a failure);
  - a skip the manifest does not allow: a skip-ok line names the stage,
    the file, text of the skip, why this machine may skip it and, in an
    optional last column, how many skips it allows in one run (default
    1): a skip past that number is a failure too.
There is no lenient mode: a run on a developer's machine counts as CI's.
--not-run STAGE names a stage left out on purpose (test.sh --quick).

A manifest line may end with a fourth column 'harness': that result is
one of the test harness's checks of itself (the summary, the stage
runner, the apt wrapper...), not a test of the product; the two are
counted on separate lines. A result with more subtests than its minimum
is noted, so that the minimum can be raised.

Prints each stage's time and status, every failure, the product's and
the harness's counts, and last the line 'N passed, N failed, N skipped'
(both together). Exits 1 if anything failed.
"""
import argparse
import fnmatch
import json
import os
import re
import sys

TAP_LINE = re.compile(r"^(not ok|ok)\b(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)")


class Count:
    """Counts of one kind of result (the product's or the harness's);
    problems are shared, so they print in the order found."""

    def __init__(self, problems):
        self.passed = self.failed = self.skipped = 0
        self.problems = problems

    def fail(self, what):
        self.failed += 1
        self.problems.append(what)

    def line(self):
        return "%d passed, %d failed, %d skipped" % (self.passed, self.failed,
                                                     self.skipped)


def parse_tap(text):
    """(plan or None, [(ok, description, directive)], bailed out)"""
    plan, results, bail = None, [], False
    for line in text.splitlines():
        m = PLAN.match(line)
        if m:
            plan = int(m.group(1))
            continue
        if line.startswith("Bail out!"):
            bail = True
            continue
        m = TAP_LINE.match(line)
        if not m:
            continue
        rest = m.group(2)
        directive = None
        d = re.search(r"#\s*(SKIP|TODO)\b(.*)$", rest, re.I)
        if d:
            directive = (d.group(1).upper(), d.group(2).strip())
        results.append((m.group(1) == "ok", rest.split("#")[0].strip(" -"), directive))
    return plan, results, bail


def meson_tests(path):
    """testlog.json -> {'testlog.json:NAME': (tap text or None, meson result)}"""
    tests = {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            out = r.get("stdout") or ""
            tap = out if any(PLAN.match(l) for l in out.splitlines()) else None
            # meson names a test 'PROJECT:SUITE / NAME'
            tests["testlog.json:" + r["name"].rsplit(" / ", 1)[-1]] = (tap, r["result"])
    return tests


def load_results(results):
    """{(stage, file): (tap text or None, meson result or None)}"""
    found = {}
    for stage in sorted(os.listdir(results)):
        d = os.path.join(results, stage)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if name == "testlog.json":
                try:
                    for k, v in meson_tests(path).items():
                        found[(stage, k)] = v
                except (OSError, ValueError, KeyError) as e:
                    found[(stage, name)] = ("", "unreadable: %s" % e)
            elif name.endswith(".tap"):
                with open(path, errors="replace") as f:
                    found[(stage, name)] = (f.read(), None)
    return found


def count_file(key, tap, meson_result, minimum, skip_ok, c):
    stage, name = key
    where = "%s/%s" % key
    if tap is None:
        # a meson test that is not TAP: its result alone
        if meson_result == "OK":
            c.passed += 1
        elif meson_result == "SKIP":
            c.skipped += 1
            why = allowed(skip_ok, key, "", c)
            if why is None:
                c.fail("%s: skipped, and this machine must run it" % where)
            else:
                print("note: %s: skipped, allowed: %s" % (where, why))
        else:
            c.fail("%s: %s" % (where, meson_result))
        if minimum is not None:
            c.fail("%s: printed no TAP plan; the manifest wants %d subtests"
                   % (where, minimum))
        return
    if not tap.strip():
        c.fail("%s: empty" % where)
        return
    plan, results, bail = parse_tap(tap)
    if bail:
        c.fail("%s: bailed out" % where)
    if plan is None:
        c.fail("%s: no TAP plan (the producer did not finish)" % where)
    elif len(results) < plan:
        c.fail("%s: %d of %d planned results" % (where, len(results), plan))
    if minimum is not None and len(results) < minimum:
        c.fail("%s: %d subtests, the manifest wants at least %d"
               % (where, len(results), minimum))
    elif minimum is not None and len(results) > minimum:
        print("note: %s: %d subtests, above the manifest's %d: raise it"
              % (where, len(results), minimum))
    for ok, desc, directive in results:
        if directive and directive[0] == "SKIP":
            c.skipped += 1
            why = allowed(skip_ok, key, desc + " " + directive[1], c)
            if why is None:
                c.fail("%s: '%s' skipped (%s), and this machine must run it"
                       % (where, desc, directive[1]))
            else:
                print("note: %s: '%s' skipped, allowed: %s" % (where, desc, why))
        elif ok:
            c.passed += 1
        elif directive and directive[0] == "TODO":
            c.fail("%s: not ok - %s # TODO %s (a known failure is a failure)"
                   % (where, desc, directive[1]))
        else:
            c.fail("%s: not ok - %s" % (where, desc))
    if meson_result not in (None, "OK", "SKIP") and not any(
            not ok for ok, _, _ in results):
        c.fail("%s: the test program ended with %s" % (where, meson_result))


def allowed(skip_ok, key, text, c):
    """why the manifest allows this skip, or None; a skip-ok line past
    the number of skips it allows in a run is a failure (on @c)"""
    for rule in skip_ok:
        stage, name, pattern, why, most = rule[:5]
        if stage == key[0] and fnmatch.fnmatch(key[1], name) and \
                fnmatch.fnmatch(text, "*" + pattern + "*"):
            rule[5] += 1
            if rule[5] > most:
                c.fail("%s/%s: skip %d of '%s', which the manifest allows %d "
                       "times in a run" % (key[0], key[1], rule[5], pattern, most))
            return why
    return None


def read_manifest(path):
    """({(stage, file): minimum}, [[stage, glob, text, why, most, seen]],
    [stage], {(stage, file) of the harness's own checks})"""
    files, skip_ok, stages, harness = {}, [], [], set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            col = line.split("\t")
            if col[0] == "skip-ok":
                if len(col) == 5:
                    col.append("1")
                if len(col) != 6 or not all(c.strip() for c in col[1:]) or \
                        not col[5].isdigit() or col[5] == "0":
                    sys.exit("%s:%d: want skip-ok<tab>STAGE<tab>FILE<tab>TEXT"
                             "<tab>WHY[<tab>MOST]" % (path, n))
                skip_ok.append(col[1:5] + [int(col[5]), 0])
                continue
            if len(col) not in (3, 4) or not col[2].isdigit() or \
                    col[3:] not in ([], ["harness"]):
                sys.exit("%s:%d: want STAGE<tab>FILE<tab>MIN_SUBTESTS"
                         "[<tab>harness]" % (path, n))
            files[(col[0], col[1])] = int(col[2])
            if col[3:]:
                harness.add((col[0], col[1]))
            if col[0] not in stages:
                stages.append(col[0])
    return files, skip_ok, stages, harness


def read_stages(results):
    ran = {}
    try:
        with open(os.path.join(results, "stages.tsv")) as f:
            for line in f:
                # stage, seconds, status[, how busy the CPUs were, %]
                col = line.rstrip("\n").split("\t")
                if len(col) in (3, 4):
                    ran[col[0]] = (int(col[1]), col[2]) + tuple(col[3:])
    except OSError:
        pass
    return ran


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--not-run", action="append", default=[])
    ap.add_argument("results")
    a = ap.parse_args()

    files, skip_ok, stages, harness = read_manifest(a.manifest)
    found = load_results(a.results)
    ran = read_stages(a.results)
    problems = []
    c, h = Count(problems), Count(problems)

    print("stage      time  CPUs  status")
    for stage in stages + sorted(set(ran) - set(stages)):
        if stage in a.not_run:
            print("%-8s      -     -  left out" % stage)
            continue
        if stage not in ran:
            print("%-8s      -     -  did not run" % stage)
            c.fail("stage %s did not run" % stage)
            continue
        secs, status = ran[stage][:2]
        cpu = ran[stage][2] if len(ran[stage]) > 2 else ""
        print("%-8s %6ds  %4s  %s" % (stage, secs, cpu + "%" if cpu else "-",
                                      "ok" if status == "0" else "exit " + status))
        if status == "timeout":
            c.fail("stage %s timed out after %ds" % (stage, secs))
        elif status == "skipped":
            c.fail("stage %s was not run: no time left in the budget" % stage)
        elif status != "0":
            c.fail("stage %s exited %s" % (stage, status))

    for key in sorted(set(files) | set(found)):
        if key[0] in a.not_run:
            continue
        if key not in found:
            (h if key in harness else c).fail("%s/%s: missing" % key)
            continue
        tap, meson_result = found[key]
        count_file(key, tap, meson_result, files.get(key), skip_ok,
                   h if key in harness else c)
        if key not in files:
            print("note: %s/%s is not in the manifest" % key)

    for p in problems:
        print("FAILED: %s" % p)
    print("product: " + c.line())
    print("harness self-checks: " + h.line())
    print("%d passed, %d failed, %d skipped" % (c.passed + h.passed, c.failed + h.failed,
                                                c.skipped + h.skipped))
    return 1 if c.failed or h.failed else 0


if __name__ == "__main__":
    sys.exit(main())
