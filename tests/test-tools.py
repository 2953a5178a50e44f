#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Every program a stage looks for is installed by the project's files.

  test-tools.py SOURCE_ROOT

A test that probes for a program (`command -v X`, meson's
`find_program('X', required: false)`) and skips without it passes on a
developer's machine where X happens to be installed, and skips on a new
one: the install step that is missing stays hidden. tests/tools.tsv
lists each such program with its Debian package and the file that
installs it. This checks that every probe in the tree has a line; that
the file named installs the package (the package's name appears in it
as a word, in an apt_ensure call or a *_PKGS list); and, where the
program is on this machine, that dpkg says it belongs to that package
(so the table is true), or where it is not, that none of its packages
is installed either. One line a row either way: the count does not
depend on what the machine had before. Prints TAP.
"""
import os
import re
import shutil
import subprocess
import sys

PROBES = [
    re.compile(r"command -v ([A-Za-z0-9_.+-]+)"),
    re.compile(r"find_program\('([A-Za-z0-9_.+-]+)'[^)]*required: *false"),
]
# looked for on purpose, with another way when missing: sudo (root has
# no need of it)
NOT_INSTALLED = {"sudo"}


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines()
            if p.endswith((".sh", ".py", "meson.build")) or "/" not in p or
            os.path.basename(p) in ("init", "run")]


def probes(root):
    found = {}
    for rel in tracked(root) + [".ci/run"]:
        path = os.path.join(root, rel)
        if not os.path.isfile(path) or rel == "tests/test-tools.py":
            continue
        with open(path, errors="replace") as f:
            text = f.read()
        for rx in PROBES:
            for m in rx.finditer(text):
                found.setdefault(m.group(1), set()).add(rel)
    return found


def table(root):
    rows = []
    with open(os.path.join(root, "tests", "tools.tsv")) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            col = line.rstrip("\n").split("\t")
            if len(col) != 4:
                sys.exit("tools.tsv:%d: want STAGE<tab>PROGRAM<tab>PACKAGE<tab>FILE" % n)
            rows.append(col)
    return rows


def package_installed(pkg):
    res = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Status}", pkg],
                         capture_output=True, text=True)
    return res.returncode == 0 and res.stdout.strip() == "installed"


def main():
    root = os.path.realpath(sys.argv[1])
    rows = table(root)
    n = failed = 0

    def check(ok, what):
        nonlocal n, failed
        n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
        failed += not ok

    listed = {r[1] for r in rows}
    for prog, where in sorted(probes(root).items()):
        if prog in NOT_INSTALLED:
            continue
        check(prog in listed, "%s (looked for in %s) is in tests/tools.tsv"
              % (prog, ", ".join(sorted(where))))
    for stage, prog, pkgs, installer in rows:
        path = os.path.join(root, installer)
        text = open(path).read() if os.path.isfile(path) else ""
        names = pkgs.split("|")
        named = [p for p in names
                 if re.search(r"(?<![\w.+-])%s(?![\w.+-])" % re.escape(p), text)]
        check(bool(named), "%s: %s installs %s" % (stage, installer, " or ".join(names)))
        exe = shutil.which(prog)
        if exe is None:
            # Not here yet: a later stage's install step brings it (the
            # host stage runs before the checks stage installs yamllint).
            # Then none of its packages may be installed either, or the
            # table names the wrong package. One line either way, so the
            # count is the same on a new machine and on a used one.
            inst = [p for p in names if package_installed(p)]
            check(not inst, "%s: %s is not on this machine yet, nor %s (dpkg: %s)"
                  % (stage, prog, " or ".join(names),
                     ", ".join(inst) + " installed" if inst else "not installed"))
            continue
        res = subprocess.run(["dpkg", "-S", os.path.realpath(exe)],
                             capture_output=True, text=True)
        owner = {l.split(":")[0] for l in res.stdout.splitlines()}
        if not owner:
            res = subprocess.run(["dpkg", "-S", exe], capture_output=True, text=True)
            owner = {l.split(":")[0] for l in res.stdout.splitlines()}
        check(bool(owner & set(names)), "%s: %s comes from %s (dpkg: %s)"
              % (stage, exe, " or ".join(names), ", ".join(sorted(owner)) or "no package"))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
