#!/bin/sh
# SPDX-License-Identifier: MIT
# In-guest test of fdif-camera, the library's frame loop example
# (libfdif-drm/examples/camera.c), on the guest's camera: vivid with its
# output looped to its input, fed a marked picture by fdif-vivid-feed in
# the format under test. Each frame's faces must lie on the picture's
# marked boxes (/data/NAME.truth, marked by a person), and each frame must
# have reached the device the way asked (import or copy). Bad input gets
# a message and exit status 1 (2 for bad arguments). Prints TAP.
n=0 fail=0
T=/tmp/fdif-camera-cli
mkdir -p $T
feeder=

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { # not_ok NAME [FILE...]: the files' text as TAP comments
	n=$((n + 1))
	echo "not ok $n - $1"
	shift
	[ $# -eq 0 ] || sed 's/^/# /' "$@"
	fail=1
}

stop_feed() {
	[ -n "$feeder" ] || return 0
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	feeder=
}
trap stop_feed EXIT

# start_feed FORMAT PICTURE...: the camera shows the PICTUREs (in turn);
# its node in $node ($FEED_ARGS: more of fdif-vivid-feed's options)
start_feed() {
	fmt=$1
	shift
	stop_feed
	node=
	# emptied here, not by the feeder's redirection: that happens in the
	# child, which under load can run after the loop below has read the
	# previous feeder's "capture" line and started a reader on a camera
	# still being set up (the new feeder's S_FMT then fails with EBUSY)
	: > $T/feed.log
	# shellcheck disable=SC2086
	fdif-vivid-feed -f "$fmt" $FEED_ARGS "$@" >> $T/feed.log 2>&1 &
	feeder=$!
	i=0
	while [ $i -lt 100 ]; do
		node=$(sed -n 's/^capture //p' $T/feed.log)
		[ -n "$node" ] && return 0
		kill -0 "$feeder" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# judge TRUTH MODE OUT: for each "frame SEQ MODE N x y w h ..." line of
# fdif-camera's OUT (left and top edges, camera pixels), N if the frame
# reached the device by MODE (import or copy) and each of its faces is on
# a different box marked in TRUTH (its centre inside, its area within 4x),
# else "bad"; one line a frame
judge() {
	awk -v mode="$2" '
		FILENAME == ARGV[1] { m++; x[m] = $1; y[m] = $2; w[m] = $3; h[m] = $4; next }
		$1 != "frame" { next }
		{
			if ($3 != mode) { print "bad"; next }
			for (k = 1; k <= m; k++) used[k] = 0
			for (i = 0; i < $4; i++) {
				fx = $(5 + 4 * i); fy = $(6 + 4 * i)
				fw = $(7 + 4 * i); fh = $(8 + 4 * i)
				cx = fx + fw / 2; cy = fy + fh / 2
				hit = 0
				for (k = 1; k <= m; k++) {
					a = w[k] * h[k]; s2 = fw * fh
					if (!used[k] && cx >= x[k] && cx <= x[k] + w[k] &&
					    cy >= y[k] && cy <= y[k] + h[k] &&
					    s2 >= a / 4 && s2 <= a * 4) { used[k] = 1; hit = 1; break }
				}
				if (!hit) break
			}
			if ($4 == 0 || hit) print $4
			else print "bad"
		}' "$1" "$3"
}

# camera NAME FEED_FORMAT FRAMES ARGS... -- PICTURE...: fdif-camera -n
# FRAMES ARGS on the camera showing the PICTUREs, its output in $T/out;
# 0 if it ran, else a failed subtest NAME is reported
camera() {
	name=$1 ffmt=$2 frames=$3
	shift 3
	args=
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	if ! start_feed "$ffmt" "$@"; then
		not_ok "$name (the camera did not start)" $T/feed.log
		return 1
	fi
	# shellcheck disable=SC2086
	fdif-camera -n "$frames" $args "$node" > $T/out 2> $T/err
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "$name (fdif-camera exited $rc)" $T/err $T/feed.log
		return 1
	fi
}

# stream NAME FEED_FORMAT PICTURE TRUTH WANT_FACES WANT_MODE ARGS...: runs
# fdif-camera -n 30 ARGS on the camera showing PICTURE; each of the 30
# frames must have WANT_FACES faces, each on a different marked box, and
# have reached the device by WANT_MODE (import or copy); at least
# $WANT_DAMAGED frames (default 0) must have come marked damaged, and been
# skipped; the summary line must hold $WANT_SUMMARY (if set)
stream() {
	name=$1 ffmt=$2 pic=$3 truth=$4 want=$5 mode=$6
	shift 6
	camera "$name" "$ffmt" 30 "$@" -- "$pic" || return
	judge "$truth" "$mode" $T/out > $T/judged
	if [ "$(grep -c . $T/judged)" -eq 30 ] && ! grep -qvx "$want" $T/judged; then
		# "... (30 imported, 0 copied, N damaged, through B of B buffers)"
		damaged=$(tail -1 $T/err | sed -n 's/.* \([0-9]*\) damaged, .*/\1/p')
		if [ "${damaged:-0}" -lt "${WANT_DAMAGED:-0}" ]; then
			not_ok "$name (want ${WANT_DAMAGED} or more damaged frames skipped)" \
				$T/err
			return
		fi
		if [ -n "${WANT_SUMMARY:-}" ] && ! tail -1 $T/err | grep -qF "$WANT_SUMMARY"; then
			not_ok "$name (want '$WANT_SUMMARY' in the summary)" $T/err
			return
		fi
		ok "$name ($(tail -1 $T/err | sed 's/^fdif-camera: //'))"
	else
		not_ok "$name (want 30 frames by $mode, each with $want faces on marked boxes)" \
			$T/out $T/err $T/feed.log
	fi
}

# check NAME WANT_EXIT PATTERN CMD...: PATTERN in stderr
check() {
	name=$1 want=$2 pat=$3
	shift 3
	"$@" > $T/out 2> $T/err
	got=$?
	if [ $got -eq "$want" ] && grep -q -- "$pat" $T/err; then
		ok "$name"
	else
		not_ok "$name (exit $got, want $want, pattern '$pat')" $T/err
	fi
}

stream grey-import grey /data/astronaut.pgm /data/astronaut.truth 1 import
stream grey-copy grey /data/hopper.pgm /data/hopper.truth 1 copy -c
stream nv12-import nv12 /data/astronaut.pgm /data/astronaut.truth 1 import -f NV12
stream yu12-import yu12 /data/hopper.pgm /data/hopper.truth 1 import -f YU12
stream yuyv-copy yuyv /data/hopper.pgm /data/hopper.truth 1 copy -f YUYV
# a face-free picture: frames without a face, in turn with frames of the
# astronaut's face on its marked box (a camera showing vivid's noise, or
# nothing, would give no face at all). A frame is not matched to the
# picture shown: an astronaut frame whose face was missed counts as a
# landscape one, so the 10-or-more minimums leave room for a few misses
FEED_ARGS="-s 0.5"
if camera no-face grey 90 -- /data/landscape.pgm /data/astronaut.pgm; then
	judge /data/astronaut.truth import $T/out > $T/judged
	none=$(grep -cx 0 $T/judged) one=$(grep -cx 1 $T/judged)
	if [ $((none + one)) -eq 90 ] && [ "$none" -ge 10 ] && [ "$one" -ge 10 ]; then
		ok "no-face ($none frames of the landscape without a face, $one of the astronaut)"
	else
		not_ok "no-face (want 90 frames: 10 or more without a face, 10 or more with the astronaut's; got $none and $one)" \
			$T/out $T/err $T/feed.log
	fi
fi
FEED_ARGS=

# the camera marks a frame damaged every 100 ms: skipped, 30 good ones
FEED_ARGS="-e 100" WANT_DAMAGED=1
stream damaged-skipped grey /data/astronaut.pgm /data/astronaut.truth 1 import

# every frame damaged: an error, not an endless loop
FEED_ARGS="-e 2"
if start_feed grey /data/astronaut.pgm; then
	check all-damaged 1 'damaged frames in a row' timeout 30 fdif-camera -n 30 "$node"
else
	not_ok "all-damaged (the camera did not start)" $T/feed.log
fi
FEED_ARGS= WANT_DAMAGED=

# more buffers than the default 4: every one granted is queued and used
WANT_SUMMARY="through 8 of 8 buffers"
stream buffers grey /data/astronaut.pgm /data/astronaut.truth 1 import -b 8
WANT_SUMMARY=

# bad input: with the camera running, its output node is no capture device
start_feed grey /data/astronaut.pgm
out=$(for v in /sys/class/video4linux/video*; do
	[ "$(cat $v/name 2>/dev/null)" = "vivid-000-vid-out" ] && echo /dev/${v##*/}; done)
if [ -n "$out" ]; then
	check output-node 1 'is not a single-planar streaming capture device' fdif-camera -n 1 "$out"
else
	not_ok "output-node (vivid has no output node vivid-000-vid-out)"
fi
stop_feed
check not-a-camera 1 'VIDIOC_QUERYCAP' fdif-camera -n 1 /dev/null
check no-such-node 1 'No such file' fdif-camera -n 1 /dev/video99
check bad-format 2 'unknown format RGB3' fdif-camera -f RGB3 /dev/video0
check no-frames 2 '-n 0: want a positive number' fdif-camera -n 0 /dev/video0
check bad-frames 2 '-n 12x: want a positive number' fdif-camera -n 12x /dev/video0
check few-buffers 2 '-b 2: want 3 to 32 buffers' fdif-camera -b 2 /dev/video0
check many-buffers 2 '-b 33: want 3 to 32 buffers' fdif-camera -b 33 /dev/video0
# numbers past 32 bits, which must not wrap to a small one (8, 1)
check wrapped-buffers 2 '-b 4294967304: want 3 to 32 buffers' fdif-camera -b 4294967304 /dev/video0
check wrapped-frames 2 '-n 4294967297: want a positive number' fdif-camera -n 4294967297 /dev/video0

echo "1..$n"
exit $fail
