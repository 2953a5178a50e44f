#!/usr/bin/python3
"""Mutation testing: plant one small plausible bug at a time, see a test fail.

    tests/mutation/mutate.py [--layer L]... [--id ID]... [--list] [--tap FILE]

Each layer's mutants are in tests/mutation/LAYER.txt (see README.md there
for the format). The tool never touches the caller's work tree: it copies
the tracked and untracked-but-not-ignored files (git ls-files -co
--exclude-standard) into a scratch folder (--scratch, default
${FDIF_BUILD:-build}/mutation), sets up a meson build there once (kept
between runs, re-synced by content), runs every test the run needs on the
unmutated code (all must pass), then for each mutant: applies it to the
copy, rebuilds only what the chosen tests need (ninja), runs those tests
one at a time with a time limit, restores the file and records the result:

    killed            a test failed (or passed its time limit)
    killed by build   the mutant did not compile (a poor mutant: reported)
    survived          every test passed: the tests miss this bug
    equivalent        survived, and marked so with the reason why no test
                      can tell (excluded from the score)
    error             the mutant cannot be applied (its text is absent or
                      not unique, its file or a test does not exist), or a
                      mutant marked equivalent was killed

Layers and how they run:

    detector  meson tests of suite facedet (+ facedet-opencv-agreement)
    device    the QEMU device model: the qtest binary's test paths, on a
              scratch copy of the cached QEMU source and build tree
              (qemu-device/build.sh prints where it is), rebuilt
              incrementally
    library   meson tests of suite libfdif
    element   meson tests of suite gst-fdif
    driver    the DRM accel driver in guest boots: the mutated
              accel-fdif/drivers/accel/fdif/ built as an out-of-tree
              module (make M=) in the copy, against the cached kernel
              build (accel-fdif/build.sh, run once on the unmutated
              copy), booted by the copy's guest/run-guest.sh (--kbuild,
              --module) with the guest suites that cover it (--only);
              see GuestRunner

The score of a layer is killed / (killed + survived); equivalent mutants
are left out, and a known survivor ('survives: REASON': no test can tell
it yet, and why) counts as survived but is reported apart. --sample N
runs N mutants of each layer, chosen by --seed; then every one of them
must be killed, equivalent or known, and the scores are only printed.
--sample LAYER=N sets one layer's number apart (the driver's mutants
boot a guest each: --sample 8 --sample driver=2).
Exit status: 0 when every layer run reaches the goal (90%)
and no mutant is an error; 1 otherwise; 2 when the run could not start
(the unmutated code fails a test, the scratch build fails, bad options).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

GOAL = 90
HERE = os.path.dirname(os.path.abspath(__file__))

# name: (kind, default tests). A default entry 'suite:NAME' is every meson
# test of that suite; for the qtest kind, 'all' is every test path of the
# qtest binary.
LAYERS = {
    "detector": ("meson", ["suite:facedet", "facedet-opencv-agreement?"]),
    "device": ("qtest", ["all"]),
    "library": ("meson", ["suite:libfdif"]),
    "element": ("meson", ["suite:gst-fdif"]),
    "driver": ("guest", ["all"]),
}
ORDER = ["detector", "device", "library", "element", "driver"]

T0 = time.monotonic()


def say(msg):
    print("[mutate %4ds] %s" % (time.monotonic() - T0, msg), flush=True)


class Fatal(Exception):
    pass


# ---------------------------------------------------------------- parsing

class Mutant:
    def __init__(self, layer, mid, path, lineno):
        self.layer, self.id, self.src, self.lineno = layer, mid, path, lineno
        self.file = None
        self.why = ""
        self.tests = None
        self.equivalent = None
        self.survives = None    # a known survivor: why no test can tell yet
        self.old = None
        self.new = None
        self.errors = []
        # results
        self.status = None      # killed, build, survived, equivalent, error
        self.detail = ""
        self.seconds = 0.0

    def where(self):
        return "%s:%d" % (self.src, self.lineno)


COMMENT_TAIL = re.compile(r"^(#( .*)?|\s*)$")


def strip_tail(lines):
    """Drop the trailing run of blank and '# ' comment lines from its first
    blank line on: the space between one block's replacement and the next
    block, section comments between blank lines included."""
    cut = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if not COMMENT_TAIL.match(lines[i]):
            break
        if lines[i].strip() == "":
            cut = i
    return lines[:cut]


def join_lines(lines):
    return "".join(l + "\n" for l in lines)


def parse_layer_file(layer, path):
    """[Mutant], default tests from the preamble (or None)"""
    mutants, default = [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    cur, part, buf = None, None, []

    def finish():
        if cur is None:
            return
        if part == "new":
            cur.new = join_lines(strip_tail(buf))
        elif part == "old":
            cur.errors.append("no '+++' line after the '---' text")
        else:
            cur.errors.append("no '---' line: no text to replace")
        mutants.append(cur)

    for n, line in enumerate(lines, 1):
        if line.startswith("=== ") or line == "===":
            finish()
            mid = line[4:].strip()
            cur, part, buf = Mutant(layer, mid, path, n), "head", []
            if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", mid):
                cur.errors.append("bad id %r (letters, digits, . _ -)" % mid)
            continue
        if cur is None:
            if line.startswith("#") or line.strip() == "":
                continue
            m = re.match(r"^default-tests:\s*(.*)$", line)
            if m:
                default = m.group(1).split()
                continue
            raise Fatal("%s:%d: text before the first '=== ID' line: %r" % (path, n, line))
        if part == "head":
            if line == "---":
                part, buf = "old", []
                continue
            if line.startswith("#") or line.strip() == "":
                continue
            m = re.match(r"^([a-z]+):\s*(.*)$", line)
            if not m:
                cur.errors.append("line %d: want 'key: value', '---' or a '#' comment: %r" % (n, line))
                continue
            key, val = m.group(1), m.group(2).strip()
            if key == "file":
                cur.file = val
            elif key == "why":
                cur.why = val
            elif key == "tests":
                cur.tests = val.split()
            elif key == "equivalent":
                if not val:
                    cur.errors.append("'equivalent:' without its reason")
                cur.equivalent = val
            elif key == "survives":
                if not val:
                    cur.errors.append("'survives:' without its reason")
                cur.survives = val
            else:
                cur.errors.append("line %d: unknown key %r" % (n, key))
        elif part == "old":
            if line == "+++":
                cur.old = join_lines(buf)
                part, buf = "new", []
            else:
                buf.append(line)
        else:
            buf.append(line)
    finish()
    for m in mutants:
        if not m.file:
            m.errors.append("no 'file:' line")
        if not m.why:
            m.errors.append("no 'why:' line")
        if m.old is not None and not m.old.strip():
            m.errors.append("the '---' text is empty")
        if m.old is not None and m.new is not None and m.old == m.new:
            m.errors.append("the replacement is the original text")
    return mutants, default


def line_starts(text, old):
    """offsets where old occurs in text starting at a line start"""
    out, i = [], text.find(old)
    while i >= 0:
        if i == 0 or text[i - 1] == "\n":
            out.append(i)
        i = text.find(old, i + 1)
    return out


def check_applies(m, root):
    """the mutated text of m's file, or None with m.errors set"""
    if m.errors:
        return None
    path = os.path.join(root, m.file)
    if not os.path.isfile(path):
        m.errors.append("file %s does not exist" % m.file)
        return None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    at = line_starts(text, m.old)
    if len(at) != 1:
        m.errors.append("the '---' text occurs %d times in %s (want exactly once, whole lines)"
                        % (len(at), m.file))
        return None
    return text[:at[0]] + m.new + text[at[0] + len(m.old):]


# ---------------------------------------------------------------- processes

def run(cmd, cwd=None, env=None, timeout=None, log=None, quiet=True):
    """(returncode or 'timeout', seconds); the command in a session of its
    own, killed with everything it started at its limit or on Ctrl-C"""
    t = time.monotonic()
    out = open(log, "w") if log else (subprocess.DEVNULL if quiet else None)
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out,
                         stderr=subprocess.STDOUT if (log or quiet) else None,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        killpg(p)
        rc = "timeout"
    except BaseException:
        killpg(p)
        raise
    finally:
        if log:
            out.close()
    killpg(p, only_group=True)
    return rc, time.monotonic() - t


def killpg(p, only_group=False):
    """stop the command's process group: TERM first (meson test then stops
    the tests it runs in sessions of their own), KILL what is left"""
    if not only_group:
        try:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=5)
        except (ProcessLookupError, PermissionError, subprocess.TimeoutExpired):
            pass
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if not only_group:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()[-n:]
    except OSError:
        return []


# ---------------------------------------------------------------- the copy

def listed_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z", "-co", "--exclude-standard"],
                         stdout=subprocess.PIPE, check=True).stdout
    return sorted(set(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p))


def same_file(a, b):
    try:
        if os.path.islink(a) or os.path.islink(b):
            return os.path.islink(a) and os.path.islink(b) and os.readlink(a) == os.readlink(b)
        if os.path.getsize(a) != os.path.getsize(b):
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


def sync_tree(root, dest, skip):
    """make dest a copy of root's listed files; unchanged files are left
    alone (an incremental build rebuilds only what changed), changed ones
    get a new mtime"""
    files = [p for p in listed_files(root)
             if not any((os.path.join(root, p) + "/").startswith(s + "/") for s in skip)]
    want = set()
    changed = 0
    for rel in files:
        src = os.path.join(root, rel)
        if not os.path.lexists(src):
            continue            # tracked, deleted in the work tree
        if os.path.isdir(src) and not os.path.islink(src):
            continue            # a submodule or nested repository
        want.add(rel)
        dst = os.path.join(dest, rel)
        if os.path.lexists(dst) and same_file(src, dst):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst) or os.path.isdir(dst):
            if os.path.isdir(dst) and not os.path.islink(dst):
                shutil.rmtree(dst)
            else:
                os.unlink(dst)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        else:
            # a new mtime, not the source's: a file put back after an
            # interrupted run must look newer than what its mutant built
            shutil.copyfile(src, dst)
            shutil.copymode(src, dst)
        changed += 1
    removed = 0
    for d, dirs, names in os.walk(dest):
        for nm in names:
            rel = os.path.relpath(os.path.join(d, nm), dest)
            if rel not in want:
                os.unlink(os.path.join(d, nm))
                removed += 1
    return len(want), changed, removed


def write_file(path, text):
    """replace path's content (a symlink becomes a file of its own)"""
    if os.path.islink(path):
        os.unlink(path)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


# ---------------------------------------------------------------- runners

class MesonRunner:
    """the scratch meson build: tests by name, ninja on what they need"""

    def __init__(self, tool):
        self.tool = tool
        self.build = os.path.join(tool.scratch, "build")
        self.tests = None

    def setup(self):
        t = self.tool
        if getattr(t, "meson_ready", False):
            return
        if not os.path.isfile(os.path.join(self.build, "build.ninja")):
            say("meson setup %s (once; kept for later runs)" % self.build)
            rc, _ = run(["meson", "setup", self.build, t.src] + t.meson_options,
                        log=os.path.join(t.scratch, "meson-setup.log"))
            if rc != 0:
                raise Fatal("meson setup failed: %s\n  %s" % (
                    os.path.join(t.scratch, "meson-setup.log"),
                    "\n  ".join(tail(os.path.join(t.scratch, "meson-setup.log")))))
        say("building the unmutated copy (ninja)")
        log = os.path.join(t.scratch, "ninja-unmutated.log")
        rc, sec = run(["nice", "ninja", "-C", self.build], log=log)
        if rc != 0:
            raise Fatal("the unmutated copy does not build: %s\n  %s" % (log, "\n  ".join(tail(log))))
        say("built in %.0fs" % sec)
        tests = json.loads(subprocess.run(["meson", "introspect", "--tests", self.build],
                                          stdout=subprocess.PIPE, check=True).stdout)
        targets = json.loads(subprocess.run(["meson", "introspect", "--targets", self.build],
                                            stdout=subprocess.PIPE, check=True).stdout)
        files = {x["id"]: x["filename"] for x in targets}
        t.meson_tests = {}
        for x in tests:
            outs = []
            for d in x.get("depends", []):
                outs += [os.path.relpath(f, self.build) for f in files.get(d, [])]
            t.meson_tests[x["name"]] = {
                "suites": [s.split(":")[-1] for s in x.get("suite", [])] + x.get("suite", []),
                "outputs": outs,
            }
        t.meson_ready = True

    def expand(self, specs):
        """names of the tests the specs say; raises KeyError for a missing one"""
        have = self.tool.meson_tests
        out = []
        for s in specs:
            if s.startswith("suite:"):
                names = [n for n, x in have.items() if s[6:] in x["suites"]]
                if not names:
                    raise KeyError("no meson test in suite %s" % s[6:])
            elif s.endswith("?"):
                names = [s[:-1]] if s[:-1] in have else []
            else:
                if s not in have:
                    raise KeyError("no meson test named %s" % s)
                names = [s]
            out += [n for n in names if n not in out]
        return out

    def build_for(self, tests, log):
        outs = []
        for n in tests:
            outs += [o for o in self.tool.meson_tests[n]["outputs"] if o not in outs]
        return run(["nice", "ninja", "-C", self.build] + outs, log=log)

    def run_test(self, name, timeout, log):
        return run(["meson", "test", "-C", self.build, "--no-rebuild", "--quiet",
                    "--print-errorlogs", name], timeout=timeout, log=log)

    def mutant_path(self, rel):
        return os.path.join(self.tool.src, rel)

    def after_write(self, rel):
        pass


class QtestRunner:
    """the device model in a scratch copy of the cached QEMU trees"""

    QTEST = "tests/qtest/omap4-fdif-test"
    PREFIX = "/aarch64"

    def __init__(self, tool):
        self.tool = tool
        self.meson = tool.runner("meson")
        self.ready = False

    def setup(self):
        if self.ready:
            return
        t = self.tool
        self.meson.setup()      # the fixtures the qtests read
        say("qemu-device/build.sh (the cached QEMU build; builds it if it is stale)")
        log = os.path.join(t.scratch, "qemu-build-sh.log")
        with open(log, "w") as lf:
            p = subprocess.run([os.path.join(t.root, "qemu-device/build.sh")],
                               stdout=subprocess.PIPE, stderr=lf, stdin=subprocess.DEVNULL)
        lines = p.stdout.decode().split()
        if p.returncode != 0 or not lines or not os.path.isdir(lines[-1]):
            raise Fatal("qemu-device/build.sh failed: %s\n  %s" % (log, "\n  ".join(tail(log))))
        cache_build = lines[-1].rstrip("/")
        ninja = open(os.path.join(cache_build, "build.ninja"), errors="replace").read()
        m = re.search(r"(?m)^# Source dir: (.*)$", ninja)
        srcdir = None
        if m:
            srcdir = m.group(1).strip()
        else:
            info = os.path.join(cache_build, "meson-info", "meson-info.json")
            srcdir = json.load(open(info))["directories"]["source"]
        base = os.path.join(t.scratch, "qemu")
        if os.path.isdir(base):
            shutil.rmtree(base)
        os.makedirs(base)
        # the same names side by side, so the build's relative source paths
        # land in the copy
        self.src = os.path.join(base, os.path.relpath(srcdir, os.path.dirname(cache_build)))
        self.build = os.path.join(base, os.path.basename(cache_build))
        if os.path.dirname(os.path.normpath(self.src)) != os.path.normpath(base):
            raise Fatal("the QEMU source %s is not beside its build %s" % (srcdir, cache_build))
        say("copying the QEMU build %s (once per run)" % cache_build)
        rc, sec = run(["cp", "-a", cache_build, self.build])
        if rc != 0:
            raise Fatal("cannot copy %s" % cache_build)
        # the source as symlinks; a file we change becomes a file of its own
        rc, sec2 = run(["cp", "-as", srcdir, self.src])
        if rc != 0:
            raise Fatal("cannot copy %s" % srcdir)
        say("copied in %.0fs" % (sec + sec2))
        self.sync()
        log = os.path.join(t.scratch, "qemu-unmutated.log")
        rc, sec = self.build_for(None, log)
        if rc != 0:
            raise Fatal("the unmutated QEMU copy does not build: %s\n  %s" % (log, "\n  ".join(tail(log))))
        say("QEMU copy built in %.0fs" % sec)
        out = subprocess.run([os.path.join(self.build, self.QTEST), "-l"], cwd=self.build,
                             env=self.env(), stdout=subprocess.PIPE, check=True).stdout.decode()
        self.paths = [l.strip() for l in out.splitlines() if l.strip().startswith("/")]
        self.ready = True

    def mapping(self):
        """(repo path, path in the QEMU source) of our files, as build.sh syncs them"""
        src = self.tool.src
        out = []
        for top, dest in (("qemu-device/overlay", ""),
                          ("qemu-device/facedet/src", "hw/misc/facedet"),
                          ("qemu-device/facedet/include", "hw/misc/facedet")):
            for d, _, names in os.walk(os.path.join(src, top)):
                for nm in names:
                    rel = os.path.relpath(os.path.join(d, nm), os.path.join(src, top))
                    out.append((os.path.relpath(os.path.join(d, nm), src),
                                os.path.normpath(os.path.join(dest, rel))))
        return out

    def sync(self):
        for rel, q in self.mapping():
            a = os.path.join(self.tool.src, rel)
            b = os.path.join(self.src, q)
            if os.path.exists(b) and same_file(a, os.path.realpath(b)):
                continue
            os.makedirs(os.path.dirname(b), exist_ok=True)
            if os.path.lexists(b):
                os.unlink(b)
            shutil.copyfile(a, b)     # a new mtime: ninja must rebuild it
            shutil.copymode(a, b)

    def env(self):
        e = dict(os.environ)
        e["QTEST_QEMU_BINARY"] = "./qemu-system-aarch64"
        e["FDIF_QTEST_FIXTURES"] = os.path.join(self.meson.build, "qemu-device/facedet/tests")
        return e

    def expand(self, specs):
        out = []
        for s in specs:
            if s == "all":
                names = list(self.paths)
            else:
                p = s if s.startswith(self.PREFIX + "/") else self.PREFIX + "/" + s.lstrip("/")
                if p not in self.paths:
                    raise KeyError("no qtest %s" % p)
                names = [p]
            out += [n for n in names if n not in out]
        return out

    def build_for(self, tests, log):
        return run(["nice", "ninja", "-C", self.build, "qemu-system-aarch64", self.QTEST], log=log)

    def run_test(self, name, timeout, log):
        return run([os.path.join(self.build, self.QTEST), "--tap", "-p", name], cwd=self.build,
                   env=self.env(), timeout=timeout, log=log)

    def mutant_path(self, rel):
        # QEMU's -iquote paths are absolute (the cached source tree), so a
        # header changed in the copy would not be seen: C files only
        if not rel.endswith(".c") or not any(rel == r for r, _ in self.mapping()):
            raise KeyError("%s: the device layer mutates the C files QEMU builds from "
                           "qemu-device/overlay and qemu-device/facedet/src only" % rel)
        return os.path.join(self.tool.src, rel)

    def after_write(self, rel):
        self.sync()


class GuestRunner:
    """the driver layer: each mutant built as an out-of-tree module and
    booted in the guest with the suites that cover it

    The mutants are planted in a copy of accel-fdif/drivers/accel/fdif/
    of their own (SCRATCH/driver/KIND/fdif), never in the copied tree's
    accel-fdif/ (the copy's accel-fdif/build.sh syncs that into the
    cache's kernel tree) nor in the cache. Once a run, the copy's
    accel-fdif/build.sh (with --debug for the stress boots) makes sure
    the cached kernel build is current for the unmutated driver and
    prints it; the module is then built from the mutant's folder against
    it (make -C KSRC O=KBUILD M=DIR modules, as run-guest.sh builds the
    stress suite's test module), and the copy's guest/run-guest.sh boots
    that kernel as it is (--kbuild) with the module in place of the
    cached one (--module), the programs the mutant's tests name
    (--only) and its results in a folder of the run's (FDIF_BUILD is
    SCRATCH/guest-build: the guest programs are built there once).

    Tests are the guest suites' program names (fdif_submit_args,
    fdif_query.armhf, fdif_lib, fdif_cli...; 'all' for every one) in the
    test boot (guest stage), or stress/NAME in the debug kernel's stress
    boot (--debug-kernel --suite stress --mem 4G); KUnit runs in every
    boot (it is in the module). The programs of one boot are one test:
    a mutant boots once a kernel it needs. The unmutated module boots
    once a kernel with every program any mutant names, and must pass;
    a mutant is killed when its boot fails (run-guest.sh exits non-zero:
    a test, KUnit, a splat, a hang), or when a result file of the
    unmutated boot is missing or has fewer passes or more skips (the
    summary counts a skip as a failure too).
    """

    DRIVER = "accel-fdif/drivers/accel/fdif"
    # kind: (accel-fdif/build.sh's options, run-guest.sh's, its suite)
    KINDS = {
        "tests": ([], [], "tests"),
        "stress": (["--debug"], ["--debug-kernel", "--suite", "stress", "--mem", "4G"], "stress"),
    }
    NAME = re.compile(r"^(stress/)?(all|fdif_[A-Za-z0-9_]+(\.armhf)?)$")
    # a boot takes minutes: its limit is 3 times the unmutated one's, and
    # the guest's own at most its test.sh stage's (guest 600 s, stress 1200)
    LIMIT_FACTOR = 3
    LIMIT_MIN = 300.0
    GUEST_MAX = {"tests": 600, "stress": 1200}

    def __init__(self, tool):
        self.tool = tool
        self.base = os.path.join(tool.scratch, "driver")
        self.gbuild = os.path.abspath(tool.a.guest_build or os.path.join(tool.scratch, "guest-build"))
        # the guest programs of a build folder of the work tree's (a test
        # run's) are the work tree's: its run-guest.sh builds and boots
        # them there, so that they are built once (a folder set up from
        # the copy's sources would be set up again, each way)
        self.guest_src = tool.root if tool.a.guest_build else tool.src
        self.kernels = {}       # kind -> (ksrc, kbuild)
        self.expected = {}      # kind -> {result file: (passed, skipped, failed)}
        self.why = None
        self.ready = False

    @classmethod
    def check_specs(cls, specs):
        return ["test %r: want a guest program (fdif_NAME, fdif_NAME.armhf), 'all', "
                "or stress/ before either" % x for x in specs if not cls.NAME.match(x)]

    def moddir(self, kind):
        return os.path.join(self.base, kind, "fdif")

    def env(self):
        e = dict(os.environ)
        e["FDIF_BUILD"] = self.gbuild
        return e

    def setup(self):
        if self.ready:
            return
        os.makedirs(self.gbuild, exist_ok=True)
        for kind in self.KINDS:
            self.sync(kind)
        self.ready = True

    def sync(self, kind):
        """the kind's module folder: the copy's driver sources, by content
        (a file put back after an interrupted run gets a new mtime)"""
        src = os.path.join(self.tool.src, self.DRIVER)
        if not os.path.isdir(src):
            raise Fatal("no %s in the copy" % self.DRIVER)
        dst = self.moddir(kind)
        os.makedirs(dst, exist_ok=True)
        for nm in sorted(os.listdir(src)):
            a, b = os.path.join(src, nm), os.path.join(dst, nm)
            if os.path.isfile(a) and not (os.path.isfile(b) and same_file(a, b)):
                shutil.copyfile(a, b)

    def kernel(self, kind):
        """(KSRC, KBUILD) of the kind's cached kernel, built by the copy's
        accel-fdif/build.sh (unmutated) the first time a run needs it"""
        if kind not in self.kernels:
            t = self.tool
            log = os.path.join(self.base, "kernel-%s.log" % kind)
            say("accel-fdif/build.sh %s(the cached %skernel; built if stale)"
                % (" ".join(self.KINDS[kind][0]) + " " if self.KINDS[kind][0] else "",
                   "debug " if kind == "stress" else ""))
            with open(log, "w") as lf:
                p = subprocess.run(["nice", os.path.join(t.src, "accel-fdif", "build.sh")]
                                   + self.KINDS[kind][0], stdout=subprocess.PIPE, stderr=lf,
                                   stdin=subprocess.DEVNULL, env=self.env())
            lines = p.stdout.decode(errors="replace").split()
            kbuild = lines[-1] if lines else ""
            info = os.path.join(kbuild, ".fdif-src")
            if p.returncode != 0 or not kbuild or not os.path.isfile(info):
                raise Fatal("accel-fdif/build.sh %s failed: %s\n  %s" % (
                    " ".join(self.KINDS[kind][0]), log, "\n  ".join(tail(log))))
            with open(info) as f:
                m = re.search(r"(?m)^KSRC=(.*)$", f.read())
            if not m or not os.path.isdir(m.group(1)):
                raise Fatal("%s names no kernel source" % info)
            self.kernels[kind] = (m.group(1), kbuild)
        return self.kernels[kind]

    def expand(self, specs):
        """one test a boot: 'KIND:all' or 'KIND:NAME,NAME' (sorted)"""
        bad = self.check_specs(specs)
        if bad:
            raise KeyError("; ".join(bad))
        want = {}
        for x in specs:
            kind, name = ("stress", x[7:]) if x.startswith("stress/") else ("tests", x)
            want.setdefault(kind, set()).add(name)
        return ["%s:%s" % (k, "all" if "all" in want[k] else ",".join(sorted(want[k])))
                for k in sorted(want)]

    @staticmethod
    def split(unit):
        kind, names = unit.split(":", 1)
        return kind, (None if names == "all" else names.split(","))

    def build_for(self, tests, log):
        """the module of each kernel the tests boot; (rc, seconds)"""
        start, rc = time.monotonic(), 0
        with open(log, "w"):
            pass
        for kind in sorted(set(self.split(u)[0] for u in tests)):
            ksrc, kbuild = self.kernel(kind)
            cmd = ["nice", "make", "-C", ksrc, "O=" + kbuild, "M=" + self.moddir(kind),
                   "ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-",
                   "-j%d" % (os.cpu_count() or 1), "modules"]
            part = log + "." + kind
            rc, _ = run(cmd, log=part)
            with open(log, "a") as lf, open(part, errors="replace") as pf:
                lf.write("$ %s\n%s" % (" ".join(cmd), pf.read()))
            os.unlink(part)
            if rc != 0:
                break
            if not os.path.isfile(os.path.join(self.moddir(kind), "fdif.ko")):
                rc = "no fdif.ko"
                break
        return rc, time.monotonic() - start

    def boot(self, unit, timeout, log):
        """run-guest.sh for one unit; (rc, seconds, its results folder)"""
        kind, names = self.split(unit)
        kbuild = self.kernel(kind)[1]
        out = os.path.join(self.base, "results-%s-%s"
                           % (kind, hashlib.sha256(unit.encode()).hexdigest()[:12]))
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)
        # the guest's own limit first: a hung guest is a result (guest.tap
        # says so); the guest programs' build (the first time: cross builds,
        # Debian's arm64 GStreamer) and the packing get an hour more
        guest = int(max(60, min(timeout, self.GUEST_MAX[kind])))
        cmd = ["nice", os.path.join(self.guest_src, "guest", "run-guest.sh")] + \
            self.KINDS[kind][1] + ["--kbuild", kbuild,
                                  "--module", os.path.join(self.moddir(kind), "fdif.ko"),
                                  "--out", out, "--timeout", str(guest)]
        if names:
            cmd += ["--only", ",".join(names)]
        rc, sec = run(cmd, env=self.env(), timeout=guest + 3600, log=log)
        return rc, sec, out

    @staticmethod
    def tally(out):
        """{result file: (passed, skipped, failed)} of a results folder"""
        res = {}
        for nm in sorted(os.listdir(out)):
            if not nm.endswith(".tap"):
                continue
            passed = skipped = failed = 0
            with open(os.path.join(out, nm), errors="replace") as f:
                for line in f:
                    if re.match(r"^not ok\b", line):
                        failed += 1
                    elif re.match(r"^ok\b", line):
                        if re.search(r"#\s*skip", line, re.I):
                            skipped += 1
                        else:
                            passed += 1
            res[nm] = (passed, skipped, failed)
        return res

    def run_unmutated(self, tests, timeout):
        """one boot a kernel, with every program the units name; ({unit:
        seconds}, [what failed])"""
        times, bad = {}, []
        for kind in sorted(set(self.split(u)[0] for u in tests)):
            units = [u for u in tests if self.split(u)[0] == kind]
            names = set()
            for u in units:
                n = self.split(u)[1]
                names = None if n is None or names is None else names | set(n)
            unit = "%s:%s" % (kind, "all" if names is None else ",".join(sorted(names)))
            log = os.path.join(self.tool.scratch, "unmutated-boot-%s.log" % kind)
            rc, sec, out = self.boot(unit, timeout, log)
            res = self.tally(out)
            say("  unmutated %s boot: %s (%.0fs, %d result files)"
                % (kind, "ok" if rc == 0 else "FAILED", sec, len(res)))
            if rc != 0:
                bad.append("the %s boot (%s; log %s, results %s)" % (
                    kind, "timed out" if rc == "timeout" else "exit %s" % rc, log, out))
            self.expected[kind] = res
            for u in units:
                times[u] = sec
        return times, bad

    def run_test(self, unit, timeout, log):
        """a mutant's boot: (rc, seconds); self.why says what failed"""
        kind, names = self.split(unit)
        rc, sec, out = self.boot(unit, timeout, log)
        self.why = None
        if rc == "timeout":
            return rc, sec
        res = self.tally(out)
        want = self.expected.get(kind, {})
        files = [f for f in want if f != "guest.tap" and
                 (names is None or f.startswith("kunit-") or f[:-4] in names)]
        whys = []
        for f in sorted(res):
            if res[f][2]:
                whys.append("%s: %d not ok" % (f, res[f][2]))
        for f in files:
            if f not in res:
                whys.append("%s missing" % f)
            elif res[f][0] < want[f][0]:
                whys.append("%s: %d passed, unmutated %d" % (f, res[f][0], want[f][0]))
            elif res[f][1] > want[f][1]:
                whys.append("%s: %d skipped, unmutated %d" % (f, res[f][1], want[f][1]))
        if rc != 0 and not whys:
            whys.append("run-guest.sh exit %s (log %s)" % (rc, log))
        if whys:
            self.why = "; ".join(whys[:3]) + ("; ..." if len(whys) > 3 else "")
            return rc if rc != 0 else "results", sec
        return 0, sec

    def mutant_path(self, rel):
        if os.path.dirname(rel) != self.DRIVER or \
           not os.path.isfile(os.path.join(self.moddir("tests"), os.path.basename(rel))):
            raise KeyError("%s: the driver layer mutates the files of %s/ only" % (rel, self.DRIVER))
        return os.path.join(self.moddir("tests"), os.path.basename(rel))

    def after_write(self, rel):
        # the other kernels' module folders get the same text
        a = self.mutant_path(rel)
        for kind in self.KINDS:
            b = os.path.join(self.moddir(kind), os.path.basename(rel))
            if b != a and not same_file(a, b):
                shutil.copyfile(a, b)


# ---------------------------------------------------------------- the tool

class Tool:
    def __init__(self, a):
        self.a = a
        self.root = os.path.abspath(a.src)
        default_scratch = os.path.join(os.environ.get("FDIF_BUILD") or os.path.join(self.root, "build"),
                                       "mutation")
        self.scratch = os.path.abspath(a.scratch or default_scratch)
        self.src = os.path.join(self.scratch, "src")
        self.meson_options = a.meson_option or []
        self.runners = {}
        self.baseline = {}      # (kind, test) -> seconds
        self.layers = dict(LAYERS)
        self.order = list(ORDER)
        for d in a.define_layer or []:
            parts = d.split(":", 2)
            if len(parts) < 2 or parts[1] not in ("meson", "qtest", "guest", "none"):
                raise Fatal("--define-layer %s: want NAME:meson|qtest|guest|none[:TEST,...]" % d)
            specs = parts[2].split(",") if len(parts) > 2 and parts[2] else []
            self.layers[parts[0]] = (parts[1], specs)
            if parts[0] not in self.order:
                self.order.append(parts[0])
        self.mutdir = os.path.abspath(a.mutants or os.path.join(self.root, "tests", "mutation"))

    def runner(self, kind):
        if kind not in self.runners:
            self.runners[kind] = {"meson": MesonRunner, "qtest": QtestRunner,
                                  "guest": GuestRunner}[kind](self)
        return self.runners[kind]

    def load(self, layers):
        """{layer: [Mutant]}, {layer: default specs}"""
        out, defaults, seen = {}, {}, {}
        for layer in layers:
            path = os.path.join(self.mutdir, layer + ".txt")
            if not os.path.isfile(path):
                out[layer] = None
                continue
            ms, default = parse_layer_file(layer, path)
            defaults[layer] = default or self.layers[layer][1]
            for m in ms:
                if m.id in seen:
                    m.errors.append("id used twice (also %s)" % seen[m.id].where())
                seen.setdefault(m.id, m)
            out[layer] = ms
        return out, defaults

    def copy(self):
        os.makedirs(self.src, exist_ok=True)
        n, changed, removed = sync_tree(self.root, self.src, [self.scratch])
        say("work tree copied into %s (%d files, %d new or changed, %d removed)"
            % (self.src, n, changed, removed))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="plant one bug at a time in a copy of the tree and see a test fail",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--layer", action="append", help="run this layer (repeatable; default: every "
                    "layer with a runner: detector device library element driver)")
    ap.add_argument("--id", action="append", help="run only this mutant (repeatable)")
    ap.add_argument("--list", action="store_true",
                    help="list the mutants and check each applies; build and run nothing")
    ap.add_argument("--tap", help="write the results as TAP to this file")
    ap.add_argument("--sample", action="append", metavar="[LAYER=]N",
                    help="run N mutants of each layer (LAYER=N: of that layer; repeatable), "
                         "chosen by --seed (each must be killed, equivalent or a known "
                         "survivor; the layers' scores are not judged)")
    ap.add_argument("--seed", default="", help="what chooses --sample's mutants (e.g. a commit)")
    ap.add_argument("--no-stress", action="store_true",
                    help="leave out the mutants whose tests are in the debug kernel's stress "
                    "boot (stress/NAME): that kernel's boot alone takes minutes (CI's sample)")
    ap.add_argument("--timeout", type=float,
                    help="each test's time limit in seconds (default: 5 times its unmutated "
                    "time, at least 30 s)")
    ap.add_argument("--src", default=os.path.normpath(os.path.join(HERE, "..", "..")),
                    help="the tree to copy (default: this checkout)")
    ap.add_argument("--scratch", help="scratch folder (default: ${FDIF_BUILD:-SRC/build}/mutation)")
    ap.add_argument("--mutants", help="folder of LAYER.txt files (default: SRC/tests/mutation)")
    ap.add_argument("--define-layer", action="append", metavar="NAME:KIND[:TEST,...]",
                    help="a layer of one's own (KIND meson, qtest or none), for the tool's own test")
    ap.add_argument("--guest-build", metavar="DIR",
                    help="the driver layer's FDIF_BUILD for its guest boots (the guest programs' "
                         "builds; default SCRATCH/guest-build, booted by the copy's "
                         "guest/run-guest.sh); given, the work tree's run-guest.sh builds and "
                         "boots there (a test run's FDIF_BUILD: its guest build is reused)")
    ap.add_argument("--meson-option", action="append", metavar="-Dx=y",
                    help="an option for the scratch meson setup")
    a = ap.parse_args(argv)

    sample = {}
    for x in a.sample or []:
        m = re.match(r"^(?:([A-Za-z0-9_-]+)=)?([0-9]+)$", x)
        if not m or int(m.group(2)) < 1:
            ap.error("--sample %s: want N or LAYER=N, N at least 1" % x)
        sample[m.group(1) or "*"] = int(m.group(2))
    a.sample = sample or None

    def stop(signum, frame):
        raise KeyboardInterrupt
    # a stage runner's TERM (or a hangup) stops the run as Ctrl-C does: the
    # test running (in a session of its own) is killed with what it started
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    try:
        return run_tool(Tool(a))
    except Fatal as e:
        say("error: %s" % e)
        return 2
    except KeyboardInterrupt:
        say("interrupted (the work tree was never touched; the scratch copy is re-synced next run)")
        return 130


def run_tool(t):
    a = t.a
    if a.layer:
        for l in a.layer:
            if l not in t.layers:
                raise Fatal("unknown layer %s (known: %s)" % (l, " ".join(t.order)))
        layers = [l for l in t.order if l in a.layer]
    else:
        layers = [l for l in t.order if t.layers[l][0] != "none"]
        if a.id:
            layers = list(t.order)
    mutants, defaults = t.load(layers)
    if a.id:
        want = set(a.id)
        found = set()
        for l in layers:
            if mutants[l] is None:
                continue
            mutants[l] = [m for m in mutants[l] if m.id in want]
            found |= set(m.id for m in mutants[l])
        if want - found:
            raise Fatal("no mutant with id %s" % " ".join(sorted(want - found)))
        layers = [l for l in layers if mutants[l]]
    if a.no_stress:
        # before the sample, so that it is N of the others; a layer (or
        # an --id) left with nothing to run is an error, not a pass
        for l in layers:
            if not mutants[l]:
                continue
            keep = [m for m in mutants[l] if not any(
                x.startswith("stress/") for x in (m.tests if m.tests is not None else defaults[l]))]
            if not keep:
                raise Fatal("--no-stress leaves layer %s no mutant to run%s" % (
                    l, " (--id names stress/ mutants only)" if a.id else ""))
            mutants[l] = keep
    if a.sample:
        # the same N of each layer for the same seed, another N for another
        # seed (CI gives its commit): over many runs every mutant runs
        for l in layers:
            n = a.sample.get(l, a.sample.get("*"))
            if mutants[l] and n:
                mutants[l] = sorted(mutants[l], key=lambda m: hashlib.sha256(
                    (a.seed + m.id).encode()).hexdigest())[:n]

    if a.list:
        return list_mutants(t, layers, mutants)

    # the copy, then each runner's build and the unmutated tests
    t.copy()
    todo = []       # (layer, mutant, mutated text)
    for l in layers:
        kind = t.layers[l][0]
        if kind == "none" or mutants[l] is None:
            continue
        for m in mutants[l]:
            text = check_applies(m, t.src)
            todo.append((l, m, text))
    plan = {}       # mutant id -> [tests]
    needed = {}     # kind -> [tests]
    for l, m, text in todo:
        if text is None:
            continue
        kind = t.layers[l][0]
        r = t.runner(kind)
        r.setup()
        try:
            tests = r.expand(m.tests if m.tests is not None else defaults[l])
        except KeyError as e:
            m.errors.append(str(e).strip("'\""))
            continue
        if not tests:
            m.errors.append("no test to run")
            continue
        plan[m.id] = tests
        needed.setdefault(kind, [])
        needed[kind] += [x for x in tests if x not in needed[kind]]
    for kind, tests in needed.items():
        r = t.runner(kind)
        say("unmutated: %d %s tests" % (len(tests), kind))
        log = os.path.join(t.scratch, "unmutated-build-%s.log" % kind)
        rc, _ = r.build_for(tests, log)
        if rc != 0:
            raise Fatal("the unmutated code does not build: %s" % log)
        bad = []
        if hasattr(r, "run_unmutated"):
            # the guest boots: one a kernel for all the tests of the run
            times, bad = r.run_unmutated(tests, a.timeout or 1800)
            for x in tests:
                t.baseline[(kind, x)] = times[x]
        for x in tests if not hasattr(r, "run_unmutated") else []:
            log = os.path.join(t.scratch, "unmutated-%s.log" % re.sub(r"[^A-Za-z0-9_.-]", "_", x))
            rc, sec = r.run_test(x, a.timeout or 1800, log)
            t.baseline[(kind, x)] = sec
            say("  unmutated %s: %s (%.0fs)" % (x, "ok" if rc == 0 else "FAILED", sec))
            if rc != 0:
                bad.append("%s (%s; log %s)" % (x, "timed out" if rc == "timeout" else "exit %s" % rc, log))
        if bad:
            raise Fatal("the unmutated code fails tests, so no mutant can be judged:\n  "
                        + "\n  ".join(bad))
        say("unmutated %s tests pass (%.0fs)" % (kind, sum(t.baseline[(kind, x)] for x in tests)))

    # the mutants, one at a time
    total = sum(1 for _ in todo)
    for i, (l, m, text) in enumerate(todo, 1):
        if m.errors:
            m.status, m.detail = "error", "; ".join(m.errors)
            say("%d/%d %s: error: %s" % (i, total, m.id, m.detail))
            continue
        kind = t.layers[l][0]
        r = t.runner(kind)
        tests = sorted(plan[m.id], key=lambda x: t.baseline[(kind, x)])
        start = time.monotonic()
        try:
            path = r.mutant_path(m.file)
        except KeyError as e:
            m.status, m.detail = "error", str(e).strip("'\"")
            say("%d/%d %s: error: %s" % (i, total, m.id, m.detail))
            continue
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            orig = f.read()
        try:
            write_file(path, text)
            r.after_write(m.file)
            log = os.path.join(t.scratch, "mutant-%s-build.log" % m.id)
            rc, _ = r.build_for(tests, log)
            if rc != 0:
                m.status, m.detail = "build", "killed by build (log %s)" % log
            else:
                m.status = "survived"
                for x in tests:
                    limit = a.timeout or max(getattr(r, "LIMIT_MIN", 30.0),
                                             getattr(r, "LIMIT_FACTOR", 5) * t.baseline[(kind, x)])
                    log = os.path.join(t.scratch, "mutant-%s.log" % m.id)
                    rc, sec = r.run_test(x, limit, log)
                    if rc != 0:
                        m.status = "killed"
                        m.detail = "killed by %s%s" % (x, " (time limit %.0fs)" % limit
                                                       if rc == "timeout" else "")
                        if rc != "timeout" and getattr(r, "why", None):
                            m.detail += " (%s)" % r.why
                        break
        finally:
            write_file(path, orig)
            r.after_write(m.file)
        if m.status == "survived" and m.equivalent:
            m.status, m.detail = "equivalent", "survived, equivalent: %s" % m.equivalent
        elif m.status == "survived" and m.survives:
            m.status, m.detail = "known", "survived, known: %s" % m.survives
        elif m.status == "survived":
            m.detail = "survived (why: %s)" % m.why
        elif m.equivalent:
            m.status, m.detail = "error", "marked equivalent (%s) but %s" % (m.equivalent, m.detail)
        elif m.survives:
            m.status, m.detail = "error", "marked a known survivor (%s) but %s" % (m.survives, m.detail)
        m.seconds = time.monotonic() - start
        say("%d/%d %s: %s [%d tests, %.0fs]" % (i, total, m.id, m.detail, len(tests), m.seconds))
    return report(t, layers, mutants)


def list_mutants(t, layers, mutants):
    bad = 0
    for l in layers:
        kind = t.layers[l][0]
        if mutants[l] is None:
            print("%s: no mutants (%s missing)" % (l, os.path.join(t.mutdir, l + ".txt")))
            bad += kind != "none"
            continue
        print("%s: %d mutants%s" % (l, len(mutants[l]), "  (no runner yet)" if kind == "none" else ""))
        for m in mutants[l]:
            check_applies(m, t.root)
            if kind == "guest":
                m.errors += GuestRunner.check_specs(m.tests or [])
                if m.file and os.path.dirname(m.file) != GuestRunner.DRIVER:
                    m.errors.append("%s: the driver layer mutates the files of %s/ only"
                                    % (m.file, GuestRunner.DRIVER))
            state = "ERROR: " + "; ".join(m.errors) if m.errors else \
                ("equivalent: " + m.equivalent if m.equivalent else "")
            print("  %-40s %s%s%s" % (m.id, m.file, "  tests: " + " ".join(m.tests) if m.tests else "",
                                     "\n      " + state if state else ""))
            bad += bool(m.errors)
    return 1 if bad else 0


def report(t, layers, mutants):
    lines, n, failed = [], 0, False
    print()
    print("%-10s %7s %7s %9s %11s %6s %6s  %s" % ("layer", "killed", "(build)", "survived",
                                                 "equivalent", "error", "score", "time"))
    for l in layers:
        kind = t.layers[l][0]
        if kind == "none":
            print("%s: no runner yet" % l)
            lines.append("not ok - layer %s: no runner yet" % l)
            failed = True
            continue
        ms = mutants[l]
        if not ms:
            print("%s: no mutants (%s.txt missing or empty)" % (l, l))
            lines.append("not ok - layer %s: no mutants" % l)
            failed = True
            continue
        c = {k: [m for m in ms if m.status == k]
             for k in ("killed", "build", "survived", "known", "equivalent", "error")}
        for m in ms:
            n += 1
            if m.status in ("killed", "build", "equivalent", "known"):
                lines.append("ok %d - %s %s" % (n, m.id, m.detail))
            else:
                lines.append("not ok %d - %s %s" % (n, m.id, m.detail if m.status == "survived"
                                                    else "error: " + m.detail))
        killed = len(c["killed"]) + len(c["build"])
        # a known survivor still counts against the score
        denom = killed + len(c["survived"]) + len(c["known"])
        pct = 100.0 * killed / denom if denom else 0.0
        good = denom > 0 and killed * 100 >= GOAL * denom and not c["error"]
        if t.a.sample:
            # a sample: each mutant run is killed, equivalent or known
            good = not c["survived"] and not c["error"]
        failed |= not good
        secs = sum(m.seconds for m in ms)
        print("%-10s %7d %7d %9d %11d %6d %5.0f%%  %.0fs" % (l, killed, len(c["build"]), len(c["survived"]),
                                                            len(c["equivalent"]), len(c["error"]), pct, secs))
        for m in c["survived"]:
            print("    survived: %s (%s)" % (m.id, m.why))
        for m in c["known"]:
            print("    survived, known: %s (%s)" % (m.id, m.survives))
        for m in c["equivalent"]:
            print("    equivalent: %s (%s)" % (m.id, m.equivalent))
        for m in c["build"]:
            print("    killed by build: %s" % m.id)
        for m in c["error"]:
            print("    error: %s: %s" % (m.id, m.detail))
        if t.a.sample:
            # a sample's score says little about the layer's: a comment
            lines.append("# layer %s, a sample of %d: %d/%d killed" % (l, len(ms), killed, denom))
            continue
        lines.append("%s - layer %s: %d/%d killed (%.0f%%), goal %d%%%s%s" % (
            "ok" if good else "not ok", l, killed, denom, pct, GOAL,
            ", %d equivalent" % len(c["equivalent"]) if c["equivalent"] else "",
            ", %d errors" % len(c["error"]) if c["error"] else ""))
    print("total %.0fs" % (time.monotonic() - T0))
    if t.a.tap:
        plan = sum(1 for x in lines if x.startswith(("ok", "not ok")))
        with open(t.a.tap, "w") as f:
            f.write("".join(x + "\n" for x in lines))
            f.write("1..%d\n" % plan)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
