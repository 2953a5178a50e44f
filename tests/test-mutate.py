#!/usr/bin/python3
"""The mutation tool fails closed (host test mutation-tool).

    tests/test-mutate.py SOURCE_ROOT

Builds a tiny meson project in a temporary git repository (a C program
and two tests) with a layer of mutants of its own, runs
tests/mutation/mutate.py on it, and checks, one TAP result each:
a mutant whose text is absent is an error (not killed) and fails the
run; a mutant a test notices is killed; one no test notices survives and
pulls the layer under its goal; one marked equivalent is reported apart
and left out of the score; a mutant that does not compile is killed by
the build and named so; a mutant marked equivalent that a test kills is an
error; the work tree (files and git status) is unchanged afterwards; with
only good mutants the run passes; a test that hangs is killed at its time
limit (and counts as a kill) with nothing of it left running; a mutant a
killed run left in the copy is put back and rebuilt; and when the
unmutated code fails a test the run stops with an error.
"""

import hashlib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(ROOT, "tests", "mutation", "mutate.py")

CALC = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(int a, int b)
{
	return a + b;
}

static int twice(int a)
{
	return a * 2;
}

static int unused_path(int a)
{
	return a - 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "add") == 0)
		return add(2, 3) == 5 ? 0 : 1;
	if (argc > 1 && strcmp(argv[1], "twice") == 0)
		return twice(4) == 8 ? 0 : 1;
	if (argc > 1 && strcmp(argv[1], "never") == 0)
		return unused_path(1);
	return 0;
}
"""

MESON = """project('toy', 'c')
calc = executable('calc', 'calc.c')
test('toy-add', calc, args: ['add'], suite: 'toy')
test('toy-twice', calc, args: ['twice'], suite: 'toy')
"""

MUTANTS = """# a layer of the tool's own test
=== toy-absent
file: calc.c
why: its text is not in calc.c: an error, never a kill
---
	return a / b;
+++
	return a * b;

# comments between blocks are allowed
=== toy-add-minus
file: calc.c
why: add subtracts
---
	return a + b;
+++
	return a - b;
=== toy-unused
file: calc.c
why: a path no test takes
---
	return a - 1;
+++
	return a - 2;
=== toy-twice-shift
file: calc.c
why: a * 2 written as a shift
equivalent: a << 1 is a * 2 for every int the program passes
tests: toy-twice
---
	return a * 2;
+++
	return a << 1;
=== toy-nocompile
file: calc.c
why: a typo
---
static int twice(int a)
+++
static int twice(int a
=== toy-wrong-equivalent
file: calc.c
why: claimed harmless, but add() is tested
equivalent: (wrongly) nothing reads it
---
	return a + b;
+++
	return a + b + 1;
"""

HANG = """=== toy-hang
file: calc.c
why: twice() never returns
tests: toy-twice
---
	return a * 2;
+++
	for (;;)
		;
"""

KNOWN = """\
=== toy-known
file: calc.c
why: a path no test takes
survives: no test takes this path yet
---
	return a - 1;
+++
	return a - 3;
=== toy-known-killed
file: calc.c
why: add as subtract
tests: toy-add
---
	return a + b;
+++
	return a - b;
"""

results = []


def check(ok, what, detail=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), what))
    if not ok and detail:
        for l in detail.splitlines()[-40:]:
            print("# " + l)


def snapshot(d):
    h = hashlib.sha256()
    for base, dirs, names in sorted(os.walk(d)):
        dirs[:] = sorted(x for x in dirs if x != ".git")
        for n in sorted(names):
            p = os.path.join(base, n)
            h.update(os.path.relpath(p, d).encode())
            with open(p, "rb") as f:
                h.update(f.read())
    st = subprocess.run(["git", "-C", d, "status", "--porcelain"], stdout=subprocess.PIPE).stdout
    return h.hexdigest(), st


def tap_lines(path):
    with open(path) as f:
        return f.read().splitlines()


def main():
    with tempfile.TemporaryDirectory(prefix="fdif-mutate-test-") as tmp:
        proj = os.path.join(tmp, "toy")
        os.makedirs(os.path.join(proj, "mut"))
        for name, text in (("calc.c", CALC), ("meson.build", MESON),
                           ("mut/toy.txt", MUTANTS), ("mut/toyhang.txt", HANG),
                           ("mut/toyknown.txt", KNOWN),
                           ("notes.txt", "untracked, copied\n")):
            with open(os.path.join(proj, name), "w") as f:
                f.write(text)
        git = ["git", "-C", proj, "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "calc.c", "meson.build", "mut/toy.txt", "mut/toyhang.txt"],
                       check=True)
        subprocess.run(git + ["commit", "-qm", "toy"], check=True)
        before = snapshot(proj)
        scratch = os.path.join(tmp, "scratch")
        base = [sys.executable, TOOL, "--src", proj, "--mutants", os.path.join(proj, "mut"),
                "--scratch", scratch, "--define-layer", "toy:meson:suite:toy", "--layer", "toy"]
        tap = os.path.join(tmp, "out.tap")
        p = subprocess.run(base + ["--tap", tap], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        out = p.stdout
        check(p.returncode == 1, "a run with an error and a survivor exits 1 (got %d)" % p.returncode, out)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        byid = {}
        for l in lines:
            m = re.match(r"^(ok|not ok) (\d+) - (\S+) (.*)$", l)
            if m:
                byid[m.group(3)] = (m.group(1), m.group(4))
        text = "\n".join(lines)
        check(byid.get("toy-absent", ("", ""))[0] == "not ok" and
              "error" in byid["toy-absent"][1] and "occurs 0 times" in byid["toy-absent"][1],
              "a mutant whose text is absent is an error", text)
        check(byid.get("toy-add-minus") == ("ok", "killed by toy-add"),
              "a mutant a test notices is killed, and by which test", text)
        check(byid.get("toy-unused", ("", ""))[0] == "not ok" and
              byid["toy-unused"][1].startswith("survived (why: a path no test takes)"),
              "a mutant no test notices survives, with its why", text)
        check(byid.get("toy-twice-shift", ("", ""))[0] == "ok" and
              "survived, equivalent: a << 1 is a * 2" in byid["toy-twice-shift"][1],
              "an equivalent mutant is reported apart", text)
        check(byid.get("toy-nocompile") == ("ok", "killed by build" +
              byid.get("toy-nocompile", ("", "killed by build"))[1][len("killed by build"):]) and
              byid["toy-nocompile"][1].startswith("killed by build"),
              "a mutant that does not compile is 'killed by build'", text)
        check(byid.get("toy-wrong-equivalent", ("", ""))[0] == "not ok" and
              "marked equivalent" in byid["toy-wrong-equivalent"][1],
              "a mutant marked equivalent that a test kills is an error", text)
        # 2 killed (one by the build), 1 survived; the equivalent one is
        # out of the denominator: 2/3 = 67%, under the goal
        check("not ok - layer toy: 2/3 killed (67%), goal 90%, 1 equivalent, 2 errors" in lines,
              "the survivor lowers the score; the equivalent one is left out", text)
        check(bool(lines) and lines[-1] == "1..7", "the TAP plan counts every result line", text)
        check(snapshot(proj) == before, "the work tree is unchanged (files and git status)")

        # only good mutants: the run passes
        p = subprocess.run(base + ["--id", "toy-add-minus", "--id", "toy-twice-shift", "--tap", tap],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        check(p.returncode == 0 and "ok - layer toy: 1/1 killed (100%), goal 90%, 1 equivalent" in lines,
              "with only good mutants the run passes", p.stdout + "\n".join(lines))

        # a test that hangs is stopped at its time limit, and nothing of it
        # is left running
        hang = [sys.executable, TOOL, "--src", proj, "--mutants", os.path.join(proj, "mut"),
                "--scratch", scratch, "--define-layer", "toyhang:meson:suite:toy",
                "--layer", "toyhang", "--timeout", "3", "--tap", tap]
        p = subprocess.run(hang, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        left = subprocess.run(["pgrep", "-f", os.path.join(scratch, "build", "calc")],
                              stdout=subprocess.PIPE, universal_newlines=True).stdout
        check(p.returncode == 0 and "ok 1 - toy-hang killed by toy-twice (time limit 3s)" in lines
              and not left, "a hanging test is killed at its limit, with nothing left running",
              p.stdout + "\n".join(lines) + "\nleft: " + left)
        check(snapshot(proj) == before, "the work tree is still unchanged")

        # a known survivor is reported apart and still counts against the
        # score; a sample run (CI's) passes with it, not with a plain one
        known = [sys.executable, TOOL, "--src", proj, "--mutants", os.path.join(proj, "mut"),
                 "--scratch", scratch, "--define-layer", "toyknown:meson:suite:toy",
                 "--layer", "toyknown", "--tap", tap]
        p = subprocess.run(known, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        check(p.returncode == 1 and any(l.startswith("ok 1 - toy-known survived, known: no test")
                                        for l in lines) and
              "not ok - layer toyknown: 1/2 killed (50%), goal 90%" in lines,
              "a known survivor is reported apart and counts against the score",
              p.stdout + "\n".join(lines))
        p = subprocess.run(known + ["--sample", "2", "--seed", "s"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        check(p.returncode == 0 and lines[-1:] == ["1..2"],
              "a sample whose mutants are killed or known passes; scores only printed",
              p.stdout + "\n".join(lines))
        p = subprocess.run(base + ["--id", "toy-unused", "--sample", "1", "--tap", tap],
                           stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        check(p.returncode == 1 and any(l.startswith("not ok 1 - toy-unused survived")
                                        for l in lines),
              "a sample with an unknown survivor fails", p.stdout + "\n".join(lines))

        # a run stopped hard (KILL) leaves a mutant in the copy, built; the
        # next run puts the file back and must rebuild it, though the work
        # tree's file is older than what the mutant built
        copy = os.path.join(scratch, "src", "calc.c")
        with open(copy, "w") as f:
            f.write(CALC.replace("return a + b;", "return a - b;"))
        subprocess.run(["ninja", "-C", os.path.join(scratch, "build")], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        p = subprocess.run(base + ["--id", "toy-add-minus", "--tap", tap], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        check(p.returncode == 0 and "ok 1 - toy-add-minus killed by toy-add" in lines,
              "a mutant left in the copy by a killed run is put back and rebuilt",
              p.stdout + "\n".join(lines))

        # --list names the bad one and fails, building nothing
        p = subprocess.run(base + ["--list"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        check(p.returncode == 1 and "occurs 0 times" in p.stdout, "--list reports the bad mutant", p.stdout)

        # the unmutated code fails a test: stop, judge nothing
        with open(os.path.join(proj, "calc.c")) as f:
            good = f.read()
        with open(os.path.join(proj, "calc.c"), "w") as f:
            f.write(good.replace("return a * 2;", "return a * 3;"))
        p = subprocess.run(base + ["--id", "toy-add-minus", "--tap", tap + "2"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        check(p.returncode == 2 and "unmutated code fails" in p.stdout and not os.path.exists(tap + "2"),
              "a failing unmutated test stops the run with an error", p.stdout)
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
