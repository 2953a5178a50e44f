#!/bin/bash
# Run every test of the project, in stages:
#
#   build   install packages; build QEMU, the kernels and the host programs
#   demo    the main job as a user runs it: scripts/demo.sh on the marked
#           photos (testdata/) from an empty build folder, its JSON checked
#           against the marked face boxes
#   host    meson test: detector, library and CLI unit tests, truth checks
#   qtest   the device model's qtests against the patched QEMU
#   mutation  a sample of the host-level mutants and one of the driver's:
#           each small planted bug must make a test fail (scripts/mutate.sh)
#   checks  static checks of the driver: checkpatch --strict, sparse, W=1
#   guest   in the arm64 guest: KUnit, the uAPI tests, library and CLI
#           (also as 32-bit armhf programs), and the board kit's runner
#   arm32   the same suites in a 32-bit ARM guest (a Cortex-A15 kernel
#           with armhf programs), as on an OMAP4 board
#   stress  the reliability suite on the debug kernel (KASAN, lockdep,
#           kmemleak, DMA-API debug), failing on any splat
#   selfcheck  the summary goes red when this run's results are broken
#
#   scripts/test.sh [--quick] [--budget SECONDS]
#
# --quick leaves out the stress stage. Every run counts as CI's: a skipped
# test fails unless tests/manifest.tsv allows that skip, with its reason.
# Every stage has a time limit, and all of them together stay inside
# --budget (default 5100 s, 85 minutes): a stage that hangs is stopped,
# with every process it started (scripts/lib.sh run_limited), and the
# summary still comes. The summary (scripts/summary.py) checks every
# result file against tests/manifest.tsv, prints each stage's time (with
# how busy the machine's CPUs were) and
# ends with the line 'N passed, N failed, N skipped'; the exit status is
# non-zero if anything failed. See docs/testing.md.
. "$(dirname "$0")/lib.sh"

RESULTS="$FDIF_BUILD/results"
# a failed apt-get update is retried with pauses once per run, not once
# per stage or script (apt_update, scripts/lib.sh)
export FDIF_APT_FAILED="$RESULTS/apt-update-failed"
TESTDATA="$FDIF_ROOT/testdata"

# stage_build: everything later stages build, so their limits can be short
stage_build() {
	local out="$RESULTS/build" n=0 fail=0
	step() { # step NAME CMD...
		n=$((n + 1))
		progress "build: $1 (log: $out/$n.log)"
		if "${@:2}" > "$out/$n.log" 2>&1; then
			echo "ok $n - $1"
		else
			echo "not ok $n - $1 (see $out/$n.log)"
			tail -20 "$out/$n.log" | sed 's/^/# /'
			fail=1
		fi
	}
	apt_ensure "${FDIF_HOST_PKGS[@]}" "${FDIF_TEST_PKGS[@]}" $(testdata_packages)
	# npm packs the test photos that come from the npm registry
	# (testdata/fetch-photos.sh): Debian's npm, unless a Node.js with its
	# own npm is installed already
	command -v npm >/dev/null || apt_ensure npm
	# the OpenCV agreement test needs the reference, whoever configured build/
	if [ -f "$FDIF_BUILD/build.ninja" ]; then
		step "host build configured (OpenCV reference on)" \
			meson configure "$FDIF_BUILD" -Dopencv=enabled
	else
		step "host build configured (OpenCV reference on)" \
			meson setup "$FDIF_BUILD" "$FDIF_ROOT" -Dopencv=enabled
	fi
	step "host programs and test data (meson, ninja)" meson_build
	# the plugin cache's scanner, from Debian's GStreamer source: the
	# download here, not in the host stage's test
	step "gst-hotdoc-plugins-scanner (Debian's gstreamer1.0 source)" \
		"$FDIF_ROOT/scripts/update-plugins-cache.sh" --scanner
	step "QEMU with the emulated FDIF" "$FDIF_ROOT/qemu-device/build.sh"
	step "the guest kernel with the driver" "$FDIF_ROOT/accel-fdif/build.sh"
	step "the 32-bit ARM guest kernel with the driver" \
		"$FDIF_ROOT/accel-fdif/build-arm32-virt.sh"
	if [ -z "$quick" ]; then
		step "the debug kernel (KASAN, lockdep, kmemleak)" \
			"$FDIF_ROOT/accel-fdif/build.sh" --debug
	fi
	echo "1..$n"
	return $fail
}

# stage_demo: scripts/demo.sh exactly as a user runs it, on a folder of
# photos, with an empty build folder of its own; then its JSON output is
# checked against the face boxes marked on those photos
stage_demo() {
	local out="$RESULTS/demo" photos="$FDIF_BUILD/truth-photos"
	"$TESTDATA/fetch-photos.sh" "$photos" >&2 ||
		{ echo "not ok 1 - fetch the marked photos"; echo "1..1"; return 1; }
	rm -rf "$FDIF_BUILD/demo-build" "$out/json"
	demo_tap "$out/demo" "scripts/demo.sh FOLDER" --out "$out/json" "$photos"
	/usr/bin/python3 "$FDIF_ROOT/tests/truth.py" --testdata "$TESTDATA" \
		--floors device --json-dir "$out/json" > "$out/truth.tap"
	# the camera demo as the README shows it: the sample photo through the
	# guest's camera into fdiffacedetect, each frame's face on the marked box
	demo_tap "$out/camera" "scripts/demo.sh --camera" --camera --frames 60 \
		--out "$out/camera"
	/usr/bin/python3 "$FDIF_ROOT/tests/camera-demo.py" "$TESTDATA" \
		"$out/camera/camera.txt" 60 > "$out/camera-truth.tap" || true
	# a file that is no picture: an error that names it and says why,
	# found on the host before the guest is booted, in both ways
	mkdir -p "$FDIF_BUILD/bad-photo"
	echo 'not a picture' > "$FDIF_BUILD/bad-photo/not a photo.png"
	demo_tap "$out/camera-bad" "scripts/demo.sh --camera with a photo it cannot read" \
		--camera --frames 10 --out "$out/camera-bad" "$FDIF_BUILD/bad-photo/not a photo.png"
	demo_expect_error "$out/camera-bad" "the camera can only show pictures" \
		"not a photo.png: failed: unsupported image format" "!booting the guest"
	demo_tap "$out/photo-bad" "scripts/demo.sh with a photo it cannot read" \
		--out "$out/photo-bad" "$FDIF_BUILD/bad-photo/not a photo.png"
	demo_expect_error "$out/photo-bad" "none of the photos could be read" \
		"not a photo.png: failed: unsupported image format" "!booting the guest"
	# a picture the guest could search but not draw (16384x16384: its
	# colour copy is over --draw's memory limit), named on the host too
	cp "$FDIF_BUILD/libfdif-drm/tests/zero-16384-adam7.png" "$FDIF_BUILD/bad-photo/huge.png"
	demo_tap "$out/photo-huge" "scripts/demo.sh with a photo too large to draw" \
		--out "$out/photo-huge" "$FDIF_BUILD/bad-photo/huge.png"
	demo_expect_error "$out/photo-huge" "none of the photos could be read" \
		"huge.png: failed: image too large" "!booting the guest"
}

# demo_expect_error OUT LINE...: turn demo_tap's OUT.tap around: ok when
# the demo failed (exit 1) and its log has each LINE (fixed strings), and
# none of those given as !LINE
demo_expect_error() {
	local out=$1 line missing=
	shift
	for line in "$@"; do
		case "$line" in
		!*) ! grep -qF -- "${line#!}" "$out.log" || missing+=" not '${line#!}'" ;;
		*) grep -qF -- "$line" "$out.log" || missing+=" '$line'" ;;
		esac
	done
	{
		if grep -q '^not ok 1 - .* exited 1$' "$out.tap" && [ -z "$missing" ]; then
			echo "ok 1 - $(sed -n 's/^not ok 1 - \(.*\) exited 1$/\1/p' "$out.tap"): exit 1, a clear message"
		else
			echo "not ok 1 - the demo's error (want exit 1 and lines:$missing)"
			tail -30 "$out.log" | sed 's/^/# /'
		fi
		echo "1..1"
	} > "$out.tap.new"
	mv "$out.tap.new" "$out.tap"
}

# demo_tap OUT NAME ARGS...: scripts/demo.sh ARGS (the demo stage's own
# build folder), its log in OUT.log, one TAP result in OUT.tap
demo_tap() {
	local rc
	set +e
	FDIF_BUILD="$FDIF_BUILD/demo-build" "$FDIF_ROOT/scripts/demo.sh" "${@:3}" \
		> "$1.log" 2>&1
	rc=$?
	set -e
	{
		if [ "$rc" -eq 0 ]; then
			echo "ok 1 - $2 exited 0"
		else
			echo "not ok 1 - $2 exited $rc"
			tail -30 "$1.log" | sed 's/^/# /'
		fi
		echo "1..1"
	} > "$1.tap"
}

stage_host() {
	local log="$FDIF_BUILD/meson-logs/testlog.json"
	meson_build
	# only what this run's meson test writes: an earlier run's log is not
	# a result (a meson that fails early writes none)
	rm -f "$log"
	meson test -C "$FDIF_BUILD" --print-errorlogs >&2 || true
	[ -s "$log" ] || die "meson test wrote no $log"
	cp "$log" "$RESULTS/host/testlog.json"
}

stage_qtest() {
	local qemu_build
	qemu_build="$("$FDIF_ROOT/qemu-device/build.sh")"
	(cd "$qemu_build" &&
		QTEST_QEMU_BINARY=./qemu-system-aarch64 \
		FDIF_QTEST_FIXTURES="$FDIF_BUILD/qemu-device/facedet/tests" \
		./tests/qtest/omap4-fdif-test --tap -k) > "$RESULTS/qtest/omap4-fdif.tap"
}

# stage_mutation: a sample of the host-level mutants (detector, library
# and CLI, element) and one of the driver's (its module built against the
# build stage's kernel and booted with the guest programs that cover it,
# after a boot of those unmutated, with the guest programs built where
# the guest stage finds them; not a mutant of the debug kernel's stress
# boot, whose boot alone takes minutes), one at a time in a
# scratch copy of the tree (scripts/mutate.sh, docs/testing.md "Mutation
# testing"): each must be killed by a test, or marked equivalent or a
# known survivor with the reason. The commit chooses the sample, so that
# runs on other commits try others; the whole set (three hours here) is
# scripts/mutate.sh alone.
stage_mutation() {
	local seed
	seed=$(git -C "$FDIF_ROOT" rev-parse HEAD 2>/dev/null || date +%F)
	"$FDIF_ROOT/scripts/mutate.sh" --layer detector --layer library --layer element \
		--layer driver --no-stress --sample "${FDIF_MUTANT_SAMPLE:-6}" \
		--sample "driver=${FDIF_DRIVER_MUTANT_SAMPLE:-1}" --seed "$seed" \
		--guest-build "$FDIF_BUILD" --tap "$RESULTS/mutation/mutants.tap" >&2
}

stage_checks() {
	"$FDIF_ROOT/accel-fdif/check.sh" > "$RESULTS/checks/driver-checks.tap"
	# the submission as a maintainer gets it: git am, checkpatch --strict
	{
		echo "1..1"
		if "$FDIF_ROOT/accel-fdif/export-patches.sh" "$FDIF_BUILD/accel-fdif-patches" \
			> "$RESULTS/checks/series-export.log" 2>&1; then
			echo "ok 1 - the exported series applies with git am and is checkpatch --strict clean"
		else
			echo "not ok 1 - exporting the series failed (see $RESULTS/checks/series-export.log)"
		fi
	} > "$RESULTS/checks/series-export.tap"
}

# stage_selfcheck: break a copy of this run's results one way at a time;
# the summary must go red each time (tests/test-summary.py); and a stage
# stopped by its limit leaves no process behind (tests/test-run-limited.sh)
stage_selfcheck() {
	local rc=0
	/usr/bin/python3 "$FDIF_ROOT/tests/test-summary.py" "$FDIF_ROOT" \
		--results "$RESULTS" --not-run selfcheck ${quick:+--not-run stress} \
		> "$RESULTS/selfcheck/fails-closed.tap" || rc=1
	"$FDIF_ROOT/tests/test-run-limited.sh" "$FDIF_ROOT" \
		> "$RESULTS/selfcheck/stage-limit.tap" || rc=1
	return $rc
}

# scripts/board-test.sh, the board kit's runner, as a board owner runs it
# but on the emulated FDIF (a boot of its own, --cmd /bin/board-run), then
# its summary from tests/manifest-board.tsv on the host: a TAP file of two
# results. Its result files come out on the console (run-guest.sh).
board_in_guest() {
	local dir="$RESULTS/guest/board-run" rc=0 sum
	rm -rf "$dir" && mkdir -p "$dir/results"
	# (--gst: the guest stage's own arm64 build, made by its suites' boot,
	# not a second one without GStreamer)
	"$FDIF_ROOT/guest/run-guest.sh" --out "$dir/guest" \
		--cmd /bin/board-run --data --gst --timeout "$1" >/dev/null || rc=1
	sed -n 's/^@@FDIF-BOARD //p' "$dir/guest/console.log" | tr -d '\r' |
		base64 -d 2>/dev/null | tar xz -C "$dir/results" 2>/dev/null || rc=1
	echo "1..2"
	if [ "$rc" -eq 0 ] && ! grep -q '^not ok' "$dir/guest/guest.tap"; then
		echo "ok 1 - scripts/board-test.sh ran in the guest to its end, no splat"
	else
		echo "not ok 1 - scripts/board-test.sh ran in the guest to its end, no splat"
		sed 's/^/# /' "$dir/guest/guest.tap"
	fi
	if sum=$(python3 "$FDIF_ROOT/scripts/summary.py" \
		--manifest "$FDIF_ROOT/tests/manifest-board.tsv" "$dir/results"); then
		echo "ok 2 - its summary: $(tail -1 <<<"$sum")"
	else
		echo "not ok 2 - its summary: $(tail -1 <<<"$sum")"
		rc=1
	fi
	sed 's/^/# /' <<<"$sum"
	return $rc
}

stage_guest() {
	local rc=0
	"$FDIF_ROOT/guest/run-guest.sh" --out "$RESULTS/guest" \
		--timeout $(($1 * 2 / 3)) >/dev/null || rc=1
	board_in_guest $(($1 / 3)) > "$RESULTS/guest/board.tap" || rc=1
	return $rc
}

stage_arm32() {
	"$FDIF_ROOT/guest/run-guest.sh" --arch arm --out "$RESULTS/arm32" \
		--timeout "$1" >/dev/null
}

stage_stress() {
	# 4 GiB: memory above the device's DMA reach (fdif_bo's import test)
	"$FDIF_ROOT/guest/run-guest.sh" --out "$RESULTS/stress" \
		--debug-kernel --suite stress --mem 4G --timeout "$1" >/dev/null
}

# --stage NAME LIMIT: run one stage (test.sh calls itself under timeout)
if [ "${1:-}" = --stage ]; then
	quick=${FDIF_TEST_QUICK:-}
	mkdir -p "$RESULTS/$2"
	if [ "$2" = build ]; then
		stage_build > "$RESULTS/build/build.tap"
	else
		"stage_$2" "$3"
	fi
	exit $?
fi

quick= budget=5100
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--budget) budget=$2; shift ;;
	*) die "test.sh: unknown option $1" ;;
	esac
	shift
done

# name and time limit (s) of each stage; a cold build took 18 minutes on
# one 2-core machine and 40 on another (most packages already installed)
STAGES=(build:3300 demo:600 host:600 qtest:300 mutation:1200 checks:900 guest:600 arm32:600)
[ -n "$quick" ] || STAGES+=(stress:1200)
STAGES+=(selfcheck:360)

# cpu_jiffies: the machine's busy and total CPU time so far (/proc/stat)
cpu_jiffies() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat
}

# cpu_percent BEFORE: how busy the machine's CPUs were since BEFORE (an
# output of cpu_jiffies), in percent, whoever kept them busy: a stage that
# leaves them idle could share the machine with another
cpu_percent() {
	local b0 t0 b1 t1
	read -r b0 t0 <<<"$1"
	read -r b1 t1 <<<"$(cpu_jiffies)"
	[ "$t1" -gt "$t0" ] && echo $(((b1 - b0) * 100 / (t1 - t0))) || echo 0
}

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
# the stages run without the terminal (run_limited): where installing
# packages needs sudo, ask for its password now, and keep it fresh
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then
	sudo -v || die "test.sh: installing packages needs root, and sudo -v failed"
	(while kill -0 $$ 2>/dev/null; do sudo -n -v 2>/dev/null; sleep 60; done) &
fi
# an interrupted run stops the stage that runs, all of it
trap 'run_limited_stop; exit 130' INT TERM
start=$SECONDS
for s in "${STAGES[@]}"; do
	name=${s%%:*} limit=${s#*:}
	left=$((budget - (SECONDS - start)))
	[ "$left" -lt "$limit" ] && limit=$left
	if [ "$limit" -le 30 ]; then
		printf '%s\t0\tskipped\t0\n' "$name" >> "$RESULTS/stages.tsv"
		progress "stage $name: not run, the time budget is used up"
		continue
	fi
	progress "stage $name (limit ${limit}s)"
	t0=$SECONDS cpu0=$(cpu_jiffies)
	set +e
	# the argument is the guest stages' boot timeout, inside the limit
	FDIF_TEST_QUICK=$quick run_limited "$limit" \
		"$0" --stage "$name" $((limit - 60))
	rc=$?
	set -e
	[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && rc=timeout
	cpu=$(cpu_percent "$cpu0")
	printf '%s\t%d\t%s\t%s\n' "$name" $((SECONDS - t0)) "$rc" "$cpu" >> "$RESULTS/stages.tsv"
	progress "stage $name: $((SECONDS - t0))s, exit $rc, CPUs ${cpu}% busy"
done

exec /usr/bin/python3 "$FDIF_ROOT/scripts/summary.py" ${quick:+--not-run stress} \
	--manifest "$FDIF_ROOT/tests/manifest.tsv" "$RESULTS"
