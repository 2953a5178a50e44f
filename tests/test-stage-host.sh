#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/test.sh's host stage hands on only what this run's meson test
# wrote: a testlog.json left in the build folder by an earlier run must
# not be passed off as this run's results when meson fails early. meson
# and ninja here are stand-ins on PATH. Prints TAP.
# Usage: test-stage-host.sh SOURCE_ROOT
root="$(realpath "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/meson-logs"
touch "$tmp/build/build.ninja"
printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/ninja"
# a meson test that dies before it writes its log
printf '#!/bin/sh\necho "meson: no such test" >&2\nexit 1\n' > "$tmp/bin/meson"
chmod +x "$tmp/bin/ninja" "$tmp/bin/meson"
echo '{"name": "fdif:truth / stale", "result": "OK", "stdout": "ok 1\n1..1\n"}' \
	> "$tmp/build/meson-logs/testlog.json"
echo "1..2"
PATH="$tmp/bin:$PATH" FDIF_BUILD="$tmp/build" FDIF_CACHE="$tmp/cache" \
	"$root/scripts/test.sh" --stage host 60 > "$tmp/out" 2>&1
rc=$?
if [ ! -e "$tmp/build/results/host/testlog.json" ]; then
	echo "ok 1 - an earlier run's testlog.json is not this run's result"
else
	echo "not ok 1 - an earlier run's testlog.json was copied as this run's result"
fi
if [ "$rc" -ne 0 ]; then
	echo "ok 2 - the stage fails when meson test failed without a log (exit $rc)"
else
	echo "not ok 2 - the stage exited 0 though meson test wrote no log"
	sed 's/^/# /' "$tmp/out"
fi
