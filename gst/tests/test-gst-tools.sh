#!/bin/sh
# SPDX-License-Identifier: MIT
# fdiffacedetect as GStreamer's tools see it (GST_PLUGIN_PATH: this
# build's gst/): gst-inspect-1.0 lists its pads and properties;
# gst-launch-1.0 runs frames through it on the fake fdif kernel
# (mock-preload.c) and prints facedetect's messages with the scripted
# face mapped back to the input's size; what the element asked the device
# for (threshold, minimum size) is read from the fake kernel's log of
# every job (FDIF_MOCK_LOG); each `updates` mode posts what facedetect's
# does; display=false leaves the frames as they came (written out with
# filesink and read back); a missing device is an error message and a
# failed run, not a crash. The GStreamer tools and videotestsrc
# (gstreamer1.0-tools, gstreamer1.0-plugins-base) are the project's
# packages: without them the test fails, it does not skip. Prints TAP.
# Usage: test-gst-tools.sh MOCK_MODULE
mock=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

# ok NAME CMD...: one subtest, CMD's exit status
ok() {
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# out: /' "$tmp/out" | tail -40
		sed 's/^/# err: /' "$tmp/err" | tail -40
		fail=1
	fi
}

has() { grep -q -e "$1" "$tmp/out"; }

if ! command -v gst-inspect-1.0 > /dev/null || ! command -v gst-launch-1.0 > /dev/null; then
	echo "not ok 1 - gst-inspect-1.0 and gst-launch-1.0 (apt-get install gstreamer1.0-tools)"
	echo "1..1"
	exit 1
fi

gst-inspect-1.0 fdiffacedetect > "$tmp/out" 2> "$tmp/err"
ok "gst-inspect-1.0 fdiffacedetect (exit $?)" [ $? -eq 0 ]
ok "its plugin is fdif, from this build" has "Filename .*/gst/libgstfdif.so"
ok "klass Filter/Analyzer/Video/Hardware" has "Klass  *Filter/Analyzer/Video/Hardware$"
ok "a sink pad template" has "SINK template: 'sink'"
ok "a src pad template" has "SRC template: 'src'"
ok "GRAY8 caps" has "format: .*GRAY8"
ok "NV12 caps (its luma plane)" has "format: .*NV12"
ok "RGB caps (facedetect's)" has "format: .*(string)RGB,"
ok "YUY2 caps (a USB camera's)" has "format: .*YUY2"
for p in display min-size-width min-size-height updates threshold directions device \
	frames-imported frames-copied profile nose-profile mouth-profile eyes-profile \
	scale-factor min-neighbors flags min-stddev qos; do
	ok "property $p" has "^  $p  *:"
done
ok "threshold's range" has "Range: -1 - 9"
ok "facedetect's updates values" has "on_change"
ok "the directions flags" has "(0x00000004): left"

gst-inspect-1.0 videotestsrc > "$tmp/out" 2> "$tmp/err" &&
	gst-inspect-1.0 fakesink >> "$tmp/out" 2>> "$tmp/err" &&
	gst-inspect-1.0 filesink >> "$tmp/out" 2>> "$tmp/err"
ok "videotestsrc, fakesink, filesink (exit $?; apt-get install gstreamer1.0-plugins-base)" [ $? -eq 0 ]
{
	# 640x480 frames, scaled into the device's 320x240: the fake face at
	# (160,120) size 40 there is the box (280,200) 80x80 here
	FDIF_MOCK_DEVICE=$tmp/accel0 FDIF_MOCK_FACES='160,120,40,900' LD_PRELOAD=$mock \
		gst-launch-1.0 -m videotestsrc num-buffers=5 ! \
		video/x-raw,format=GRAY8,width=640,height=480 ! \
		fdiffacedetect device="$tmp/accel0" ! fakesink > "$tmp/out" 2> "$tmp/err"
	ok "gst-launch-1.0 on the fake kernel (exit $?)" [ $? -eq 0 ]
	ok "5 facedetect messages" [ "$(grep -c '(element): facedetect, timestamp=' "$tmp/out")" -eq 5 ]
	ok "the face mapped to 640x480" [ "$(grep -cF 'x\=\(uint\)280\,\ y\=\(uint\)200\,\ width\=\(uint\)80\,\ height\=\(uint\)80\,' "$tmp/out")" -eq 5 ]
	ok "copied, logged per frame" [ "$(grep -c 'submit_frame.*: copy, 1 job' "$tmp/err")" -eq 5 ]

	# facedetect's RGB and a USB camera's YUY2, the same format on both
	# sides: linked, each frame copied as grey, the face mapped back
	for f in RGB YUY2 BGRx; do
		FDIF_MOCK_DEVICE=$tmp/accel0 FDIF_MOCK_FACES='160,120,40,900' LD_PRELOAD=$mock \
			gst-launch-1.0 -m videotestsrc num-buffers=2 ! \
			video/x-raw,format=$f,width=640,height=480 ! \
			fdiffacedetect device="$tmp/accel0" ! video/x-raw,format=$f ! \
			fakesink > "$tmp/out" 2> "$tmp/err"
		ok "$f in and out: gst-launch-1.0 links and runs (exit $?)" [ $? -eq 0 ]
		ok "$f: 2 messages with the face at 280,200 80x80" [ "$(grep -cF 'x\=\(uint\)280\,\ y\=\(uint\)200\,\ width\=\(uint\)80\,\ height\=\(uint\)80\,' "$tmp/out")" -eq 2 ]
	done

	gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8 ! \
		fdiffacedetect device=/nonexistent/accel0 ! fakesink > "$tmp/out" 2> "$tmp/err"
	ok "no device: gst-launch-1.0 fails (exit $?)" [ $? -ne 0 ]
	cat "$tmp/err" >> "$tmp/out"
	ok "no device: a clear error" has "No FDIF face detector at /nonexistent/accel0"

	# launch NAME FACES PROPS [SINK]: 5 frames of 640x480 solid grey
	# (0x404040, 71 in GRAY8's limited range) through fdiffacedetect PROPS on the fake kernel, which finds
	# FACES; messages in $tmp/out, every job it took in $tmp/log
	launch() {
		: > "$tmp/log"
		name=$1 lfaces=$2 props=$3 sink=${4:-fakesink}
		# shellcheck disable=SC2086 # PROPS and SINK are lists of words
		FDIF_MOCK_DEVICE=$tmp/accel0 FDIF_MOCK_FACES=$lfaces FDIF_MOCK_LOG=$tmp/log \
			LD_PRELOAD=$mock gst-launch-1.0 -m videotestsrc num-buffers=5 \
			pattern=solid-color foreground-color=0xff404040 ! \
			video/x-raw,format=GRAY8,width=640,height=480,framerate=30/1 ! \
			fdiffacedetect device="$tmp/accel0" $props ! $sink > "$tmp/out" 2> "$tmp/err"
		ok "$name: gst-launch-1.0 (exit $?)" [ $? -eq 0 ]
	}
	msgs() { grep -c '(element): facedetect, timestamp=' "$tmp/out"; }
	jobs() { grep -c '^submit ' "$tmp/log"; }
	# N messages and M jobs; M jobs matching PATTERN
	msgs_jobs() { [ "$(msgs)" -eq "$1" ] && [ "$(jobs)" -eq "$2" ]; }
	jobs_like() { [ "$(jobs)" -eq "$1" ] && [ "$(grep -c -e "$2" "$tmp/log")" -eq "$1" ]; }

	# what the device was asked for: 5 jobs, the threshold as given, the
	# minimum size 100 of 640x480 pixels = 50 of the frame's: the
	# device's 40 (its sizes: 20, 25, 32, 40)
	launch submitted '160,120,40,900' 'threshold=7 min-size-width=100'
	ok "submitted: 5 jobs, each threshold 7, min 40x40" jobs_like 5 ' min=40x40 threshold=7 '
	launch defaults '160,120,40,900' ''
	ok "defaults: the device's threshold (5), its smallest size (20)" \
		jobs_like 5 ' min=20x20 threshold=5 '
	# a pipeline written for facedetect: every one of its properties
	# parses; min-neighbors=2 is threshold 3, min-size 64 (32 of the frame's)
	launch facedetect-string '160,120,40,900' \
		'profile=/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml
		nose-profile=nose.xml mouth-profile=mouth.xml eyes-profile=eyes.xml
		scale-factor=1.1 min-neighbors=2 flags=do-canny-pruning min-stddev=0
		min-size-width=64 min-size-height=64 updates=every_frame display=false'
	ok "facedetect's properties: 5 jobs, each threshold 3, min 32x32" \
		jobs_like 5 ' min=32x32 threshold=3 '
	ok "facedetect's properties: a warning that the profile is ignored" \
		grep -q "profile is ignored" "$tmp/err"

	# updates: facedetect's modes, the same face on every frame
	launch every-frame '160,120,40,900' 'updates=every_frame'
	ok "updates=every_frame: 5 messages" msgs_jobs 5 5
	launch on-change '160,120,40,900' 'updates=on_change'
	ok "updates=on_change: 1 message" msgs_jobs 1 5
	ok "updates=on_change: the face's first frame" has 'facedetect, timestamp=(guint64)0,'
	launch on-face '160,120,40,900' 'updates=on_face'
	ok "updates=on_face: 5 messages" msgs_jobs 5 5
	launch none '160,120,40,900' 'updates=none'
	ok "updates=none: no message, 5 jobs" msgs_jobs 0 5
	launch on-face-no-face '' 'updates=on_face'
	ok "updates=on_face, no face: no message" msgs_jobs 0 5
	launch on-change-no-face '' 'updates=on_change'
	ok "updates=on_change, no face: no message" msgs_jobs 0 5
	launch every-frame-no-face '' ''
	ok "updates=every_frame, no face: 5 messages" msgs_jobs 5 5
	ok "updates=every_frame, no face: no face in them" [ "$(grep -c 'face, x' "$tmp/out")" -eq 0 ]

	# display: the frames as written out; one grey everywhere unless drawn
	launch display-false '160,120,40,900' 'display=false' "filesink location=$tmp/frames"
	ok "display=false: every pixel as it came" python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
assert len(d) == 5 * 640 * 480, len(d)
assert d.count(d[0]) == len(d) and d[0] != 255, sorted(set(d))' "$tmp/frames"
	launch display-true '160,120,40,900' 'display=true' "filesink location=$tmp/frames"
	ok "display=true: the box drawn (280,200 80x80), nothing else" python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
assert len(d) == 5 * 640 * 480, len(d)
for f in range(5):
	p = d[f * 640 * 480:(f + 1) * 640 * 480]
	px = lambda x, y: p[y * 640 + x]
	assert px(300, 200) == px(300, 279) == px(280, 240) == px(359, 240) == 255
	assert px(320, 240) == px(300, 198) == px(300, 202) == px(0, 0) != 255
	assert p.count(255) == 2 * (2 * 80 + 2 * 76), p.count(255)
	assert p.count(p[0]) == len(p) - p.count(255)' "$tmp/frames"
}

echo "1..$n"
exit $fail
