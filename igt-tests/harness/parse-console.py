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


def main():
    log, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(log, errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]

    checks = []          # (ok, description)
    files = []
    cur, name, body = None, None, []
    splats, dmesg, in_dmesg = [], [], False
    done = False
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
                checks.append((True, "%s ran to its end" % name))
            else:
                cases = [l.strip() for l in body if RESULT.match(l) and l[:1] in " \t"]
                path = os.path.join(out, "kunit-%s.tap" % name)
                with open(path, "w") as f:
                    for i, c in enumerate(cases, 1):
                        c = re.sub(r"^(ok|not ok) \d+", r"\g<1> %d" % i, c)
                        f.write(c + "\n")
                    f.write("1..%d\n" % len(cases))
                checks.append((len(cases) > 0, "kunit suite %s reported test cases" % name))
            files.append(path)
            cur = None
            continue
        if cur:
            body.append(line)
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
    checks.append((done, "the guest ran to its end"))
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
