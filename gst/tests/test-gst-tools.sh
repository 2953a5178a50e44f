#!/bin/sh
# SPDX-License-Identifier: MIT
# fdiffacedetect as GStreamer's tools see it (GST_PLUGIN_PATH: this
# build's gst/): gst-inspect-1.0 lists its pads and properties;
# gst-launch-1.0 runs frames through it on the fake fdif kernel
# (mock-preload.c) and prints facedetect's messages with the scripted
# face mapped back to the input's size; a missing device is an error
# message and a failed run, not a crash. Prints TAP.
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

skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

has() { grep -q -e "$1" "$tmp/out"; }

if ! command -v gst-inspect-1.0 > /dev/null; then
	echo "1..0 # SKIP no gst-inspect-1.0 (apt-get install gstreamer1.0-tools)"
	exit 0
fi

gst-inspect-1.0 fdiffacedetect > "$tmp/out" 2> "$tmp/err"
ok "gst-inspect-1.0 fdiffacedetect (exit $?)" [ $? -eq 0 ]
ok "its plugin is fdif, from this build" has "Filename .*/gst/libgstfdif.so"
ok "a sink pad template" has "SINK template: 'sink'"
ok "a src pad template" has "SRC template: 'src'"
ok "GRAY8 caps" has "format: .*GRAY8"
ok "NV12 caps (its luma plane)" has "format: .*NV12"
for p in display min-size-width min-size-height updates threshold directions device \
	frames-imported frames-copied; do
	ok "property $p" has "^  $p  *:"
done
ok "threshold's range" has "Range: -1 - 9"
ok "facedetect's updates values" has "on_change"
ok "the directions flags" has "(0x00000004): left"

if ! gst-inspect-1.0 videotestsrc > /dev/null 2>&1 ||
   ! command -v gst-launch-1.0 > /dev/null; then
	skip "no videotestsrc/gst-launch-1.0 (apt-get install gstreamer1.0-plugins-base gstreamer1.0-tools)"
else
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

	gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8 ! \
		fdiffacedetect device=/nonexistent/accel0 ! fakesink > "$tmp/out" 2> "$tmp/err"
	ok "no device: gst-launch-1.0 fails (exit $?)" [ $? -ne 0 ]
	cat "$tmp/err" >> "$tmp/out"
	ok "no device: a clear error" has "No FDIF face detector at /nonexistent/accel0"
fi

echo "1..$n"
exit $fail
