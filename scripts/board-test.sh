#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run the fdif test suites on a machine with a real FDIF (an OMAP4 board,
# e.g. a PandaBoard on Debian armhf) and print the same summary as
# scripts/test.sh, from the same manifest rules (tests/manifest-board.tsv).
#
#   scripts/board-test.sh [--suites DIR] [--detect DIR] [--cli FILE]
#                         [--out DIR] [--no-summary]
#
#   --suites DIR   the built uAPI and library test programs: the guest
#                  build folder (default: build-tests, docs/omap4.md), each
#                  program found in it by name (igt-tests/, libfdif-drm/
#                  tests/guest/), or a folder holding them all
#   --detect DIR   the folder holding fdif-detect (default: build/libfdif-drm)
#   --cli FILE     the CLI test script
#                  (default: libfdif-drm/tests/guest/fdif_cli.sh)
#   --out DIR      where results go (default: board-results): board/*.tap,
#                  one file per suite, and stages.tsv
#   --no-summary   only write the results (where there is no python3)
#
# Run it as root, with the fdif module loaded (/dev/accel/accel0) and the
# test pictures in /data (docs/omap4.md says how). It is plain POSIX sh, so
# the test guest's busybox runs it too: scripts/test.sh's guest stage does,
# on the emulated FDIF, so that it keeps working.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
suites=$here/build-tests
detect=$here/build/libfdif-drm
cli=$here/libfdif-drm/tests/guest/fdif_cli.sh
out=board-results
summary=1
while [ $# -gt 0 ]; do
	case "$1" in
	--suites) suites=$2; shift ;;
	--detect) detect=$2; shift ;;
	--cli) cli=$2; shift ;;
	--out) out=$2; shift ;;
	--no-summary) summary= ;;
	*) echo "board-test.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done

fail() {
	echo "board-test.sh: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || fail "run it as root (the suites unbind, suspend and read debugfs)"
[ -e /dev/accel/accel0 ] || fail "no /dev/accel/accel0: load the driver first (modprobe fdif)"
[ -d "$suites" ] || fail "no test programs in $suites (--suites)"
[ -x "$detect/fdif-detect" ] || fail "no fdif-detect in $detect (--detect)"
[ -f "$cli" ] || fail "no CLI test script $cli (--cli)"
[ -d /data ] || fail "no /data: copy the test pictures there first (docs/omap4.md)"

res=$out/board
rm -rf "$res"
mkdir -p "$res" || fail "cannot create $res"
start=$(date +%s)
splats='BUG:|WARNING:|Oops|Call trace:|KASAN:|circular locking|possible recursive|INFO: task .* blocked|general protection'
log_before=$(dmesg | wc -l)
checks=$res/board.tap.tmp
: > "$checks"

# KUnit, when the kernel has it (accel-fdif/config/omap4.config does)
for k in /sys/kernel/debug/kunit/*/results; do
	[ -e "$k" ] || continue
	name=$(basename "$(dirname "$k")")
	cp "$k" "$res/kunit-$name.tap"
done

# the uAPI and library suites, then the CLI's with this fdif-detect
# (not fdif_multi: an OMAP4 has one FDIF)
for t in fdif_query fdif_bo fdif_submit_args fdif_submit_detect fdif_submit_sync \
	fdif_submit_queue fdif_reset fdif_fdinfo fdif_pm fdif_lib fdif_camera; do
	# in DIR itself, or where the build put it
	prog=$suites/$t
	[ -x "$prog" ] || prog=$(find "$suites" -name "$t" -type f 2>/dev/null | head -1)
	if [ -z "$prog" ] || [ ! -x "$prog" ]; then
		echo "not ok - $t was not built (in $suites)" >> "$checks"
		continue
	fi
	echo "board-test.sh: $t ($(($(date +%s) - start)) s)" >&2
	"$prog" > "$res/$t.tap" 2>&1
	rc=$?
	[ $rc -eq 0 ] && echo "ok - $t exited 0" >> "$checks" ||
		echo "not ok - $t exited $rc" >> "$checks"
done
echo "board-test.sh: fdif_cli ($(($(date +%s) - start)) s)" >&2
PATH="$detect:$PATH" sh "$cli" > "$res/fdif_cli.tap" 2>&1
rc=$?
[ $rc -eq 0 ] && echo "ok - fdif_cli exited 0" >> "$checks" ||
	echo "not ok - fdif_cli exited $rc" >> "$checks"

# nothing in the kernel log since the start looks like a splat
found=$(dmesg | tail -n +"$((log_before + 1))" | grep -E "$splats")
if [ -z "$found" ]; then
	echo "ok - the kernel log has no splat" >> "$checks"
else
	echo "not ok - the kernel log has no splat" >> "$checks"
	echo "$found" | head -40 | sed 's/^/# /' >> "$checks"
fi
n=$(grep -cE '^(not )?ok' "$checks")
{
	echo "1..$n"
	awk '/^(not )?ok/ { sub(/ - /, " " ++i " - "); } { print }' "$checks"
} > "$res/board.tap"
rm -f "$checks"

printf 'board\t%d\t0\n' $(($(date +%s) - start)) > "$out/stages.tsv"
echo "board-test.sh: results in $res" >&2
[ -n "$summary" ] || exit 0
exec python3 "$here/scripts/summary.py" --manifest "$here/tests/manifest-board.tsv" "$out"
