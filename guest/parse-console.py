#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Split the fdif guest's console log into result files.

  parse-console.py CONSOLE.LOG OUTDIR

Writes OUTDIR/<test>.tap for every uAPI test binary, kunit-<suite>.tap for
every KUnit suite (its test cases as top-level TAP), dmesg.txt, and
guest.tap with the harness's own checks: the guest finished, every test
binary ended, and dmesg has no splat (BUG, WARNING, KASAN, lockdep,
kmemleak, hung task). Prints one line a file; exits 1 if anything failed.
"""
import os
import re
import sys

RESULT = re.compile(r"^\s*(ok|not ok)\b")


def exit_check(name, rc):
    """The harness check for a test binary's exit status.

    kselftest_harness exits 0 when every test passed or was skipped, 1 when
    one failed; the shell reports 126/127 for a binary that cannot run and
    128+N for one killed by signal N. Only 0 passes.
    """
    if rc is None:
        return (False, "%s: no exit status" % name)
    rc = int(rc)
    if rc == 0:
        return (True, "%s ran to its end and exited 0" % name)
    if rc in (126, 127):
        return (False, "%s could not be executed (exit %d)" % (name, rc))
    if rc > 128:
        return (False, "%s was killed by signal %d" % (name, rc - 128))
    return (False, "%s exited %d" % (name, rc))


def ktap_suite(body):
    """One KUnit suite's KTAP (debugfs results) as plain TAP.

    The debugfs file holds a one-test top-level KTAP document whose subtest
    is the suite: its plan and test cases are indented one level, and the
    suite's own result follows at the top level. The suite's plan is kept,
    so a suite that ends early reports fewer cases than planned and fails;
    a missing plan makes the file fail the summary's plan check.
    """
    lines = [l.rstrip() for l in body]
    plan, indent, cases, suite_ok = None, None, [], None
    for l in lines:
        stripped = l.lstrip()
        depth = len(l) - len(stripped)
        if indent is None:
            if depth > 0 and stripped.startswith("# Subtest:"):
                indent = depth
            continue
        if depth == indent:
            m = re.match(r"^1\.\.(\d+)$", stripped)
            if m and plan is None:
                plan = int(m.group(1))
            elif RESULT.match(stripped):
                cases.append(stripped)
        elif depth == 0 and RESULT.match(stripped):
            suite_ok = stripped.startswith("ok")
    text = "".join(c + "\n" for c in cases)
    if plan is not None:
        text += "1..%d\n" % plan
    if suite_ok is False and all(c.startswith("ok") for c in cases):
        text += "not ok %d - the suite itself failed\n" % (len(cases) + 1)
    return text


def main():
    log, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(log, errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]

    checks = []          # (ok, description)
    files = []
    cur, name, body = None, None, []
    splats, dmesg, in_dmesg, standby = [], [], False, []
    done = False
    cmd_mode = any(l.startswith("@@FDIF-CMD-BEGIN") for l in lines)
    for line in lines:
        if line.startswith("@@FDIF-DMESG-BEGIN"):
            in_dmesg = True
            continue
        if line.startswith("@@FDIF-DMESG-END"):
            in_dmesg = False
            continue
        if in_dmesg:
            dmesg.append(line)
            continue
        m = re.match(r"^@@FDIF-(TAP|KTAP)-BEGIN (\S+)", line)
        if m:
            cur, name, body = m.group(1), m.group(2), []
            continue
        m = re.match(r"^@@FDIF-(TAP|KTAP)-END(?: \S+)?(?: rc=(\d+))?", line)
        if m and cur:
            if cur == "TAP":
                path = os.path.join(out, name + ".tap")
                with open(path, "w") as f:
                    f.write("\n".join(body) + "\n")
                checks.append(exit_check(name, m.group(2)))
            else:
                path = os.path.join(out, "kunit-%s.tap" % name)
                with open(path, "w") as f:
                    f.write(ktap_suite(body))
            files.append(path)
            cur = None
            continue
        if cur:
            body.append(line)
            continue
        m = re.match(r"^@@FDIF-STANDBY (\S+) (\S+)", line)
        if m:
            standby.append((m.group(1), m.group(2)))
            continue
        if line.startswith("@@FDIF-SPLAT"):
            splats.append(line[len("@@FDIF-SPLAT "):])
        elif line.startswith("@@FDIF-ERROR"):
            checks.append((False, line[len("@@FDIF-ERROR "):]))
        elif line.startswith("@@FDIF-DONE"):
            done = True
        elif line.startswith("@@FDIF-CMD-END"):
            m = re.search(r"rc=(\d+)", line)
            checks.append((m is not None and m.group(1) == "0", "the guest command succeeded"))

    if cur:
        checks.append((False, "%s did not end (crashed or hung the guest)" % name))
    if not cmd_mode:
        checks.append((any(os.path.basename(p).startswith("kunit-") for p in files),
                       "the guest reported KUnit results"))
    checks.append((done, "the guest ran to its end"))
    touched = ["%s: %s" % (n, v) for n, v in standby if not re.match(r"^0x0+$", v)]
    checks.append((bool(standby) and not touched,
                   "the driver touched no module in standby (%s)" %
                   (", ".join(touched) if touched else
                    "%d emulated FDIFs: 0 accesses" % len(standby))))
    checks.append((not splats, "dmesg has no splat"))
    with open(os.path.join(out, "dmesg.txt"), "w") as f:
        f.write("\n".join(dmesg) + "\n")
    path = os.path.join(out, "guest.tap")
    with open(path, "w") as f:
        for i, (ok, what) in enumerate(checks, 1):
            f.write("%s %d - %s\n" % ("ok" if ok else "not ok", i, what))
            if not ok and what == "dmesg has no splat":
                for s in splats[:40]:
                    f.write("# %s\n" % s)
        f.write("1..%d\n" % len(checks))
    files.append(path)
    for s in splats[:40]:
        print("splat: %s" % s, file=sys.stderr)
    failed = False
    for p in files:
        text = open(p).read()
        bad = len(re.findall(r"^not ok", text, re.M))
        good = len(re.findall(r"^ok", text, re.M))
        failed |= bad > 0
        print("%-40s %d ok, %d not ok" % (os.path.basename(p), good, bad), file=sys.stderr)
    print("\n".join(files))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
