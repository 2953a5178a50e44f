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

The driver layer's runner (guest boots) on a fake kernel and guest: a
fake accel-fdif/build.sh and kernel tree whose 'make M=DIR modules'
compiles DIR's C file into a program, and a fake guest/run-guest.sh that
runs that program once for each test program and KUnit. A mutant a test
program or KUnit fails is killed, by its boot; one that makes a program
skip (the boot still exits 0) is killed too; one that compiles not is
killed by the build; one nobody notices survives; stress/NAME boots the
debug kernel; build.sh never sees a mutant (it syncs the cache's kernel
tree) and each boot takes the cached build as it is (--kbuild) with the
copy's module (--module); --list rejects a test that is no guest program
and a file outside the driver's folder; --sample LAYER=N samples that
layer.
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

# ------------------------------------------ a section (blank line after)

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

DRV = "accel-fdif/drivers/accel/fdif"

TOYMOD = r"""#include <stdio.h>
#include <string.h>

static int add(int a, int b)
{
	return a + b;
}

static int have_device(void)
{
	return 1;
}

static int stress_only(int a)
{
	return a * 3;
}

static int unused_path(int a)
{
	return a - 1;
}

int main(int argc, char **argv)
{
	const char *n = argc > 1 ? argv[1] : "";

	if (!strcmp(n, "kunit"))
		printf("%s 1 - add\n1..1\n", add(2, 3) == 5 ? "ok" : "not ok");
	else if (!strcmp(n, "fdif_a"))
		printf("ok 1 - a\n1..1\n");
	else if (!strcmp(n, "fdif_b"))
		printf("ok 1 - b%s\n1..1\n", have_device() ? "" : " # SKIP no device");
	else if (!strcmp(n, "fdif_stress_x"))
		printf("%s 1 - x\n1..1\n", stress_only(2) == 6 ? "ok" : "not ok");
	else if (!strcmp(n, "never"))
		return unused_path(1);
	return 0;
}
"""

# prints the kernel build folder, as accel-fdif/build.sh does; logs the
# driver sources it would sync into the cache's kernel tree
TOYBUILD = r"""#!/bin/bash
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
echo "build $* $(cat "$root/DRV/"*.c | sha256sum | cut -c1-16)" >> "$TOY_LOG"
mkdir -p "$TOY_CACHE/ksrc"
printf 'modules:\n\tcc -o $(M)/fdif.ko $(wildcard $(M)/*.c)\n' > "$TOY_CACHE/ksrc/Makefile"
b="$TOY_CACHE/build${1:+-debug}"
mkdir -p "$b"
echo "KSRC=$TOY_CACHE/ksrc" > "$b/.fdif-src"
echo "$b"
""".replace("DRV", DRV)

TOYGUEST = r"""#!/bin/bash
# the test boot (tests: fdif_a fdif_b) or the stress one (fdif_stress_x)
set -e
kb= ko= out= only= debug= suite=tests
while [ $# -gt 0 ]; do
	case "$1" in
	--kbuild) kb=$2; shift ;;
	--module) ko=$2; shift ;;
	--out) out=$2; shift ;;
	--only) only=$2; shift ;;
	--timeout) shift ;;
	--debug-kernel) debug=1 ;;
	--suite) suite=$2; shift ;;
	--mem) shift ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ -f "$kb/.fdif-src" ] && [ -f "$ko" ] || { echo "no --kbuild or --module" >&2; exit 2; }
echo "boot suite=$suite debug=${debug:-0} kbuild=$kb module=$ko only=$only script=$0 build=$FDIF_BUILD" >> "$TOY_LOG"
progs="fdif_a fdif_b"
[ "$suite" = stress ] && progs="fdif_stress_x"
[ -z "$only" ] || progs=${only//,/ }
for p in $progs; do
	"$ko" "$p" > "$out/$p.tap"
done
"$ko" kunit > "$out/kunit-toy.tap"
printf 'ok 1 - the guest ran to its end\n1..1\n' > "$out/guest.tap"
! grep -q '^not ok' "$out"/*.tap
"""

DRIVER_MUTANTS = """=== toyd-add
file: DRV/toy.c
why: add subtracts (KUnit sees it)
tests: fdif_a
---
	return a + b;
+++
	return a - b;
=== toyd-skip
file: DRV/toy.c
why: the device is not found: fdif_b skips, exit 0
tests: fdif_b
---
	return 1;
+++
	return 0;
=== toyd-stress
file: DRV/toy.c
why: only the stress suite looks
tests: stress/fdif_stress_x
---
	return a * 3;
+++
	return a * 4;
=== toyd-unused
file: DRV/toy.c
why: a path no test takes
tests: fdif_a fdif_b
---
	return a - 1;
+++
	return a - 2;
=== toyd-nocompile
file: DRV/toy.c
why: a typo
tests: fdif_a
---
static int add(int a, int b)
+++
static int add(int a, int b
""".replace("DRV", DRV)

results = []


def check(ok, what, detail=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), what))
    if not ok and detail:
        for l in detail.splitlines()[-40:]:
            print("# " + l)


def snapshot(d):
    h = hashlib.sha256()
    # (top-down, pruned as it goes: .git changes when git refreshes its index)
    for base, dirs, names in os.walk(d):
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


def driver_layer(tmp, proj, tap):
    """the guest runner on the fake kernel and guest"""
    log = os.path.join(tmp, "toy.log")
    env = dict(os.environ, TOY_LOG=log, TOY_CACHE=os.path.join(tmp, "toycache"))
    scratch = os.path.join(tmp, "scratch-driver")
    base = [sys.executable, TOOL, "--src", proj, "--mutants", os.path.join(proj, "mut"),
            "--scratch", scratch, "--define-layer", "toyd:guest:all", "--layer", "toyd"]
    before = snapshot(proj)
    p = subprocess.run(base + ["--tap", tap], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=env)
    lines = tap_lines(tap) if os.path.exists(tap) else []
    text = p.stdout + "\n".join(lines)
    byid = {}
    for l in lines:
        m = re.match(r"^(ok|not ok) (\d+) - (\S+) (.*)$", l)
        if m:
            byid[m.group(3)] = (m.group(1), m.group(4))
    check(byid.get("toyd-add", ("", ""))[1].startswith("killed by tests:fdif_a (kunit-toy.tap: 1 not ok"),
          "driver: a mutant KUnit notices is killed by its boot, and why", text)
    check(byid.get("toyd-skip") == ("ok", "killed by tests:fdif_b (fdif_b.tap: 0 passed, unmutated 1)"),
          "driver: a mutant that makes a program skip (exit 0) is killed", text)
    check(byid.get("toyd-stress", ("", ""))[1].startswith(
          "killed by stress:fdif_stress_x (fdif_stress_x.tap: 1 not ok"),
          "driver: stress/NAME boots the stress suite and kills there", text)
    check(byid.get("toyd-unused", ("", ""))[0] == "not ok" and
          byid["toyd-unused"][1].startswith("survived"),
          "driver: a mutant no program notices survives", text)
    check(byid.get("toyd-nocompile", ("", ""))[1].startswith("killed by build"),
          "driver: a mutant that does not compile is killed by the build", text)
    check(p.returncode == 1 and "not ok - layer toyd: 4/5 killed (80%), goal 90%" in lines,
          "driver: the layer's score counts the survivor", text)
    with open(log) as f:
        toylog = f.read().splitlines()
    builds = [l for l in toylog if l.startswith("build ")]
    boots = [l for l in toylog if l.startswith("boot ")]
    clean = hashlib.sha256(TOYMOD.encode()).hexdigest()[:16]
    check(builds and all(l.split()[-1] == clean for l in builds) and
          any(l.split()[1:2] == ["--debug"] for l in builds),
          "driver: build.sh (the cache's kernel) only ever sees the unmutated driver",
          "\n".join(toylog))
    moddir = os.path.join(scratch, "driver")
    check(boots and all(("module=" + moddir) in l and "kbuild=" + os.path.join(tmp, "toycache") in l
                        for l in boots) and
          any("suite=stress debug=1" in l and "build-debug" in l for l in boots) and
          all("suite=tests debug=0" in l or "suite=stress debug=1" in l for l in boots),
          "driver: each boot takes the cached build (--kbuild) and the copy's module (--module); "
          "stress boots the debug kernel", "\n".join(toylog))
    check(snapshot(proj) == before, "driver: the work tree is unchanged")
    # --list: a test that is no guest program, a file outside the folder
    with open(os.path.join(proj, "mut", "toyd.txt"), "a") as f:
        f.write("=== toyd-badname\nfile: %s/toy.c\nwhy: x\ntests: fdif-a\n---\n"
                "\treturn a + b;\n+++\n\treturn b + a;\n"
                "=== toyd-outside\nfile: calc.c\nwhy: x\n---\n\treturn a * 2;\n+++\n"
                "\treturn a * 3;\n" % DRV)
    p = subprocess.run(base + ["--list"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=env)
    check(p.returncode == 1 and "test 'fdif-a': want a guest program" in p.stdout and
          "calc.c: the driver layer mutates the files of " + DRV in p.stdout,
          "driver: --list rejects a bad test name and a file outside the driver", p.stdout)
    with open(os.path.join(proj, "mut", "toyd.txt"), "w") as f:
        f.write(DRIVER_MUTANTS)
    # --sample LAYER=N: N of that layer
    p = subprocess.run(base + ["--sample", "toyd=1", "--seed", "x", "--tap", tap],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                       env=env)
    lines = tap_lines(tap) if os.path.exists(tap) else []
    check(lines[-1:] == ["1..1"], "driver: --sample toyd=1 runs one mutant of the layer",
          p.stdout + "\n".join(lines))
    # --no-stress: no mutant whose tests boot the stress suite, no such
    # boot; applied before --sample (seed "a" sorts toyd-stress first)
    for extra, what in ((["--no-stress"], "the layer"),
                        (["--no-stress", "--sample", "toyd=1", "--seed", "a"], "a sample of 1")):
        open(log, "w").close()
        if os.path.exists(tap):
            os.unlink(tap)
        p = subprocess.run(base + extra + ["--tap", tap], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, env=env)
        lines = tap_lines(tap) if os.path.exists(tap) else []
        with open(log) as f:
            toylog = f.read().splitlines()
        ran = [l for l in lines if re.match(r"^(ok|not ok) \d+ - toyd-", l)]
        check(ran and not any(" - toyd-stress " in l for l in ran) and
              not any("suite=stress" in l for l in toylog if l.startswith("boot ")) and
              (len(ran) == 1 if "--sample" in extra else
               any(" - toyd-add " in l for l in ran)),
              "driver: --no-stress on %s leaves out the stress boot's mutants, and that boot"
              % what, p.stdout + "\n".join(lines) + "\n".join(toylog))
    # --guest-build: the work tree's run-guest.sh boots, with that FDIF_BUILD
    gb = os.path.join(tmp, "test-run-build")
    open(log, "w").close()
    p = subprocess.run(base + ["--id", "toyd-add", "--guest-build", gb], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, env=env)
    with open(log) as f:
        boots = [l for l in f.read().splitlines() if l.startswith("boot ")]
    check(p.returncode == 0 and boots and all(
              l.endswith(" script=%s build=%s" % (os.path.join(proj, "guest", "run-guest.sh"), gb))
              for l in boots),
          "driver: --guest-build DIR boots the work tree's run-guest.sh with FDIF_BUILD=DIR",
          p.stdout + "\n".join(boots))
    # ... and a run --no-stress leaves with nothing is an error, not a pass
    p = subprocess.run(base + ["--no-stress", "--id", "toyd-stress"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, env=env)
    check(p.returncode == 2 and "--no-stress leaves layer toyd no mutant to run" in p.stdout,
          "driver: --no-stress with only stress mutants to run is an error", p.stdout)


def main():
    with tempfile.TemporaryDirectory(prefix="fdif-mutate-test-") as tmp:
        proj = os.path.join(tmp, "toy")
        os.makedirs(os.path.join(proj, "mut"))
        os.makedirs(os.path.join(proj, DRV))
        os.makedirs(os.path.join(proj, "guest"))
        for name, text in (("calc.c", CALC), ("meson.build", MESON),
                           ("mut/toy.txt", MUTANTS), ("mut/toyhang.txt", HANG),
                           ("mut/toyknown.txt", KNOWN), ("mut/toyd.txt", DRIVER_MUTANTS),
                           (DRV + "/toy.c", TOYMOD), ("accel-fdif/build.sh", TOYBUILD),
                           ("guest/run-guest.sh", TOYGUEST),
                           ("notes.txt", "untracked, copied\n")):
            with open(os.path.join(proj, name), "w") as f:
                f.write(text)
        for name in ("accel-fdif/build.sh", "guest/run-guest.sh"):
            os.chmod(os.path.join(proj, name), 0o755)
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
        with open(os.path.join(proj, "calc.c"), "w") as f:
            f.write(good)
        driver_layer(tmp, proj, tap)
    # the project's own mutants, every layer: each applies to today's code
    # (a change that rewrites a mutated line must rewrite its mutant too)
    p = subprocess.run([sys.executable, TOOL, "--list"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    check(p.returncode == 0 and "ERROR" not in p.stdout,
          "every mutant of this tree applies (--list)",
          "\n".join(l for l in p.stdout.splitlines() if "ERROR" in l) or p.stdout[-2000:])
    print("1..%d" % len(results))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
