#!/bin/bash
# Run every test of the project: the host unit tests (meson test), and the
# device-model qtests against the patched QEMU.  Installs what it needs
# (apt-get), builds what is not cached in $FDIF_CACHE, and ends with the
# line 'N passed, N failed, N skipped'.
. "$(dirname "$0")/lib.sh"

apt_ensure "${FDIF_HOST_PKGS[@]}" libopencv-dev
meson_build

progress "running host tests (meson test)"
rc=0
meson test -C "$FDIF_ROOT/build" --print-errorlogs || rc=1

/usr/bin/python3 - "$FDIF_ROOT/build/meson-logs/testlog.json" <<'PY'
import json, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    key = {"OK": "passed", "SKIP": "skipped", "EXPECTEDFAIL": "passed"}.get(r, "failed")
    counts[key] += 1
print("%(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
PY
exit $rc
