#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect on the host against the fake kernel (mock-preload.c, as
# LD_PRELOAD under the fdif-detect and libfdif-drm.so the build made):
# what it prints when the device finds faces, checked against the faces
# the fake kernel was told to find, mapped by hand into the photo's pixels
# (the 1920x1080 photo is fitted into the 320x240 frame scaled by 1/6, 30
# rows of letterbox above: frame (160,100) size 60 is (960,420) size 360),
# and what it asked the device for (the fake kernel's log of every job,
# FDIF_MOCK_LOG: threshold, minimum size, directions, ROI). Prints TAP.
# Usage: test-cli-mock.sh FDIF_DETECT MOCK_MODULE PHOTO_WITH_FACE MAKE_JPEG
cli=$1 mock=$2 photo=$3 make_jpeg=$4
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
dev=$tmp/accel0

# run NAME WANT_EXIT CMD...: runs CMD on the fake device, stdout in
# $tmp/out (or $stdout), stderr in $tmp/err; one subtest, the exit status
run() {
	name=$1 want=$2
	shift 2
	: > "$tmp/log"
	: > "$tmp/out"
	env FDIF_MOCK_DEVICE="$dev" FDIF_MOCK_FACES="${faces-160,100,60,900;60,60,20,400}" \
		FDIF_MOCK_LOG="$tmp/log" LD_PRELOAD="$mock" "$@" > "${stdout:-$tmp/out}" \
		2> "$tmp/err" < "${stdin:-/dev/null}"
	got=$?
	ok "$name (exit $got, want $want)" [ "$got" -eq "$want" ]
}

# ok NAME CMD...: one subtest, CMD's exit status
ok() {
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# out: /' "$tmp/out"
		sed 's/^/# err: /' "$tmp/err"
		fail=1
	fi
}

# py SCRIPT: SCRIPT, python3, with the JSON fdif-detect printed (bytes,
# parsed strictly: UTF-8 and JSON) as j
py() {
	python3 -c '
import json, sys
raw = open(sys.argv[1], "rb").read()
j = json.loads(raw.decode("utf-8", errors="strict"))
'"$1" "$tmp/out"
}

cp "$photo" "$tmp/good.jpg"
# a file name that is no UTF-8: Latin-1 "café.jpg" (0xe9 alone)
bad_name=$(printf 'caf\351.jpg')
cp "$photo" "$tmp/$bad_name"
head -c 300 "$photo" > "$tmp/cut.jpg"

run json-mixed 1 "$cli" --device "$dev" --json "$tmp/good.jpg" "$tmp/$bad_name" \
	"$tmp/none.jpg" "$tmp/cut.jpg" "$tmp/good.jpg"
ok json-parses py 'pass'
ok json-every-image-has-an-entry py '
assert [e["image"].rsplit("/", 1)[-1] for e in j] == \
	["good.jpg", "caf\ufffd.jpg", "none.jpg", "cut.jpg", "good.jpg"], j'
ok json-faces py '
# the fake faces (frame 160,100 size 60, confidence 900; 60,60 size 20,
# 400) in the photo: x6, 30 frame rows of letterbox above
want = [
	{"x": 960.0, "y": 420.0, "size": 360.0, "confidence": 900,
	 "angle": 0, "direction": "up", "width": 360.0, "height": 360.0, "class": "face"},
	{"x": 360.0, "y": 180.0, "size": 120.0, "confidence": 400,
	 "angle": 0, "direction": "up", "width": 120.0, "height": 120.0, "class": "face"},
]
for e in (j[0], j[1], j[4]):
	assert "error" not in e, e
	assert (e["width"], e["height"]) == (1920, 1080), e
	assert e["faces"] == want, e["faces"]'
ok json-missing-file-error py '
e = j[2]
assert e["error"] == {"message": "No such file or directory", "errno": "ENOENT"}, e
assert "faces" not in e, e'
ok json-corrupt-file-error py '
e = j[3]
assert e["error"]["errno"] == "EBADMSG" and "corrupt" in e["error"]["message"], e'
# the name as UTF-8 with U+FFFD for what is not, and its bytes in hex
ok json-non-utf8-name py '
e = j[1]
assert e["image"].endswith("/caf\ufffd.jpg"), e
assert bytes.fromhex(e["image_bytes"]).endswith(b"/caf\xe9.jpg"), e
assert "image_bytes" not in j[0], j[0]'
ok json-errors-on-stderr grep -q "none.jpg: No such file or directory" "$tmp/err"

# a name with quotes, a backslash and a control character
odd=$(printf 'a"b\\c\td.jpg')
cp "$photo" "$tmp/$odd"
run json-odd-name 0 "$cli" --device "$dev" --json "$tmp/$odd"
ok json-odd-name-parses py '
assert j[0]["image"].endswith("/a\"b\\c\td.jpg"), j'

faces=
run json-no-faces 0 "$cli" --device "$dev" --json "$tmp/good.jpg"
unset faces
ok json-no-faces-parses py 'assert j[0]["faces"] == [], j'

# - : the picture on standard input (run reads it from $stdin), any format the loader takes
stdin=$photo
run stdin-jpeg 0 "$cli" --device "$dev" -
ok stdin-jpeg-text grep -q '^-: 2 faces (1920x1080)$' "$tmp/out"
ok stdin-jpeg-text-faces [ "$(cat "$tmp/out")" = "-: 2 faces (1920x1080)
  face 1: x=960 y=420 width=360 height=360 size=360 confidence=900 angle=0 direction=up
  face 2: x=360 y=180 width=120 height=120 size=120 confidence=400 angle=0 direction=up" ]
printf 'P5 4 3 255\n0123456789ab' > "$tmp/small.pgm"
stdin=$tmp/small.pgm
run stdin-pgm-json 0 "$cli" --device "$dev" --json -
ok stdin-pgm-json-parses py '
assert j[0]["image"] == "-" and (j[0]["width"], j[0]["height"]) == (4, 3), j'
# through a pipe (not a file that could be seeked), among files
run stdin-pipe 0 sh -c 'LD_PRELOAD= cat "$1" | "$2" --device "$3" "$4" - "$4"' sh "$photo" "$cli" "$dev" \
	"$tmp/good.jpg"
ok stdin-pipe-three [ "$(grep -c 'faces (1920x1080)$' "$tmp/out")" -eq 3 ]
printf 'not a picture' > "$tmp/text"
stdin=$tmp/text
run stdin-garbage 1 "$cli" --device "$dev" --json -
ok stdin-garbage-error py '
assert len(j) == 1 and j[0]["image"] == "-", j
assert j[0]["error"]["errno"] == "ENOTSUP", j
assert j[0]["error"]["message"].startswith("unsupported image format"), j'
stdin=/dev/null
run stdin-empty 1 "$cli" --device "$dev" -
ok stdin-empty-error grep -q '^fdif-detect: -: corrupt or truncated image' "$tmp/err"
unset stdin

# a 6000x4000 photo without --draw: decoded grey and reduced for the
# frame (fdif_image_load_gray(): 750x500), not at full size in RGB (72 MB);
# the faces and the size still in the photo's own pixels
"$make_jpeg" "$tmp/big.jpg" 6000 4000
run big-photo-reduced 0 python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=sys.stdout)
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("peak RSS %d KiB" % kb, file=sys.stderr)
sys.exit(r.returncode or (kb >= 40 << 10))' "$cli" --device "$dev" --json "$tmp/big.jpg"
ok big-photo-full-size-coordinates py '
assert (j[0]["width"], j[0]["height"]) == (6000, 4000), j
f = j[0]["faces"][0]
assert (f["x"], f["y"], f["size"]) == (3000, 1631.2, 1125), f'

# --check reads for the frame of the device a search would use, when
# there is one, and without one as well
run check-device 0 "$cli" --device "$dev" --check "$tmp/big.jpg"
ok check-device-size grep -qx "$tmp/big.jpg: 6000x4000" "$tmp/out"
ok check-device-no-job [ ! -s "$tmp/log" ]
run check-no-device 0 "$cli" --device "$tmp/none" --check "$tmp/big.jpg"
ok check-no-device-size grep -qx "$tmp/big.jpg: 6000x4000" "$tmp/out"

# choosing the device: --list-devices numbers the FDIFs in the directory
# searched, --device N and $FDIF_DEVICE (a number or a path) pick one
: > "$tmp/accel1"	# not an FDIF: not listed, not counted
run list-devices 0 env FDIF_ACCEL_DIR="$tmp" "$cli" --list-devices
ok list-devices-lines grep -qx "0 $tmp/accel0" "$tmp/out"
ok list-devices-only-fdifs [ "$(wc -l < "$tmp/out")" -eq 1 ]
run device-index 0 env FDIF_ACCEL_DIR="$tmp" "$cli" --device 0 "$tmp/good.jpg"
ok device-index-faces grep -qx "$tmp/good.jpg: 2 faces (1920x1080)" "$tmp/out"
run device-index-none 1 env FDIF_ACCEL_DIR="$tmp" "$cli" --device 1 "$tmp/good.jpg"
run device-env-path 0 env FDIF_DEVICE="$dev" "$cli" "$tmp/good.jpg"
run device-env-index 0 env FDIF_ACCEL_DIR="$tmp" FDIF_DEVICE=0 "$cli" "$tmp/good.jpg"
run device-env-facedetect 0 env FDIF_DEVICE="$dev" "$cli" --facedetect "$tmp/good.jpg"
rm -f "$tmp/accel1"

# faces are rectangles: the text gives their width and height, --draw
# outlines the rectangle (the fake finds one 60 wide, 30 high at 160,100
# of the 320x240 frame: half of a 640x480 picture)
python3 -c '
import sys
w, h = 640, 480
sys.stdout.buffer.write(b"P5 %d %d 255\n" % (w, h) + bytes(w * h))' > "$tmp/grey.pgm"
faces='160,100,60,900,30' run rect-text 0 "$cli" --device "$dev" "$tmp/grey.pgm"
ok rect-text-width-height grep -q 'face 1: x=320 y=200 width=120 height=60 size=120 ' "$tmp/out"
# taller than wide: its size is the larger side
faces='160,100,30,900,60' run rect-tall 0 "$cli" --device "$dev" "$tmp/grey.pgm"
ok rect-tall-size grep -qx '  face 1: x=320 y=200 width=60 height=120 size=120 confidence=900 angle=0 direction=up' "$tmp/out"
faces='160,100,60,900,30' run rect-draw 0 "$cli" --device "$dev" --draw "$tmp/rect.png" "$tmp/grey.pgm"
# the box: 260..380 x 170..230, red (255,32,..); not the 120x120 square
# around it
ok rect-draw-box "$here/png-pixels.py" "$tmp/rect.png" 640 480 320,170,255,32,. \
	320,230,255,32,. 260,200,255,32,. 380,200,255,32,. '!320,140,255,32,.' '!320,260,255,32,.'

# the same photo in the facedetect mode: decoded reduced and grey as
# well (it drew nothing), the box still in the photo's own pixels
run facedetect-big-photo-reduced 0 env FDIF_ACCEL_DIR="$tmp" python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=sys.stdout)
kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("peak RSS %d KiB" % kb, file=sys.stderr)
sys.exit(r.returncode or (kb >= 40 << 10))' "$cli" --facedetect --best "$tmp/big.jpg"
ok facedetect-big-photo-full-size-box grep -qx '2438 1069 1125 1125' "$tmp/out"

# the text's counts, whole lines ("0 faces", "1 face", not "10 faces")
faces='' run text-no-face 0 "$cli" --device "$dev" "$tmp/grey.pgm"
ok text-no-face-line [ "$(cat "$tmp/out")" = "$tmp/grey.pgm: 0 faces (640x480)" ]
faces='160,120,40,700' run text-one-face 0 "$cli" --device "$dev" "$tmp/grey.pgm"
ok text-one-face-lines [ "$(cat "$tmp/out")" = "$tmp/grey.pgm: 1 face (640x480)
  face 1: x=320 y=240 width=80 height=80 size=80 confidence=700 angle=0 direction=up" ]

# --threshold: faces at least that confident, the equal one kept
run threshold-equal 0 "$cli" --device "$dev" --threshold 900 "$tmp/grey.pgm"
ok threshold-equal-kept grep -qx "$tmp/grey.pgm: 1 face (640x480)" "$tmp/out"
run threshold-above 0 "$cli" --device "$dev" --threshold 901 "$tmp/grey.pgm"
ok threshold-above-none grep -qx "$tmp/grey.pgm: 0 faces (640x480)" "$tmp/out"
run threshold-below 0 "$cli" --device "$dev" --threshold 400 "$tmp/grey.pgm"
ok threshold-below-both grep -qx "$tmp/grey.pgm: 2 faces (640x480)" "$tmp/out"

# what was asked of the device: one line a job in the fake kernel's log
# job N PATTERN: the log has N jobs, each matching PATTERN
jobs() { [ "$(grep -c '^submit ' "$tmp/log")" -eq "$1" ] &&
	[ "$(grep -c -e "$2" "$tmp/log")" -eq "$1" ]; }
run submit-defaults 0 "$cli" --device "$dev" "$tmp/grey.pgm"
ok submit-defaults-job jobs 1 ' directions=1 min=20x20 threshold=5 roi=0,0,0,0$'
run submit-lhit 0 "$cli" --device "$dev" --lhit 7 "$tmp/grey.pgm"
ok submit-lhit-7 jobs 1 ' threshold=7 '
run submit-lhit-max 0 "$cli" --device "$dev" --lhit 9 "$tmp/grey.pgm"
ok submit-lhit-9 jobs 1 ' threshold=9 '
run submit-lhit-above 2 "$cli" --device "$dev" --lhit 10 "$tmp/grey.pgm"
ok submit-lhit-above-says grep -q "invalid value '10' for --lhit: the device takes 0..9" "$tmp/err"
ok submit-lhit-above-no-job jobs 0 .
run submit-min-size 0 "$cli" --device "$dev" --min-size 32 "$tmp/grey.pgm"
ok submit-min-size-32 jobs 1 ' min=32x32 '
run submit-min-size-other 2 "$cli" --device "$dev" --min-size 21 "$tmp/grey.pgm"
ok submit-min-size-other-says grep -qx 'fdif-detect: --min-size 21: the device takes 20 25 32 40' "$tmp/err"
run submit-right 0 "$cli" --device "$dev" --direction right "$tmp/grey.pgm"
ok submit-right-job jobs 1 ' directions=2 '
run submit-all 0 "$cli" --device "$dev" --direction all "$tmp/grey.pgm"
ok submit-all-jobs [ "$(grep -c '^submit ' "$tmp/log")" -eq 3 ]
ok submit-all-directions [ "$(sed -n 's/.* directions=\([0-9]*\) .*/\1/p' "$tmp/log" | sort | tr '\n' ' ')" = "1 2 4 " ]
ok submit-all-merged grep -qx "$tmp/grey.pgm: 2 faces (640x480)" "$tmp/out"
# the ROI in the picture's pixels, in the frame's: 640x480 halved; a
# 480x480 picture is halved and letterboxed 40 columns to the right; a
# ROI smaller than the device's smallest (20x20) grows to it
run submit-roi 0 "$cli" --device "$dev" --roi 100,60,200,140 "$tmp/grey.pgm"
ok submit-roi-halved jobs 1 ' roi=50,30,100,70$'
python3 -c '
import sys
sys.stdout.buffer.write(b"P5 480 480 255\n" + bytes(480 * 480))' > "$tmp/square.pgm"
run submit-roi-letterbox 0 "$cli" --device "$dev" --roi 100,100,200,200 "$tmp/square.pgm"
ok submit-roi-letterbox-job jobs 1 ' roi=90,50,100,100$'
# and a face found there: frame (160,120) size 40 is (240,240) size 80
faces='160,120,40,700' run letterbox-x-face 0 "$cli" --device "$dev" "$tmp/square.pgm"
ok letterbox-x-face-mapped grep -qx '  face 1: x=240 y=240 width=80 height=80 size=80 confidence=700 angle=0 direction=up' "$tmp/out"
# only the ROI's faces: of the fake's two (frame boxes 130..190 x 70..130
# and 50..70 x 50..70), the second lies inside 50..150 x 30..100 (before:
# both came back)
run roi-faces 0 "$cli" --device "$dev" --roi 100,60,200,140 "$tmp/grey.pgm"
ok roi-faces-inside-only [ "$(cat "$tmp/out")" = "$tmp/grey.pgm: 1 face (640x480)
  face 1: x=120 y=120 width=40 height=40 size=40 confidence=400 angle=0 direction=up" ]
# an ROI not inside the picture: an error naming it and the picture's
# size, no job (before: moved into the picture, searched, exit 0)
run roi-outside 1 "$cli" --device "$dev" --json --roi 600,0,41,480 "$tmp/grey.pgm"
ok roi-outside-says grep -qx "fdif-detect: $tmp/grey.pgm: --roi 600,0,41,480 is not inside the picture (640x480)" "$tmp/err"
ok roi-outside-json py '
assert j[0]["error"] == {"message": "--roi 600,0,41,480 is not inside the picture (640x480)",
	"errno": "EINVAL"}, j'
ok roi-outside-no-job jobs 0 .
# in the full photo's pixels, not the reduced picture's (750x500)
run roi-outside-reduced 1 "$cli" --device "$dev" --roi 5000,3000,1001,1000 "$tmp/big.jpg"
ok roi-outside-reduced-says grep -qx "fdif-detect: $tmp/big.jpg: --roi 5000,3000,1001,1000 is not inside the picture (6000x4000)" "$tmp/err"
# ending on the photo's corner: the reduced picture's (750,500), in the
# frame 266.7..320 x 173..226.3, sent from 160,120 (the device's largest
# left and top edges)
run roi-edge-reduced 0 "$cli" --device "$dev" --roi 5000,3000,1000,1000 "$tmp/big.jpg"
ok roi-edge-reduced-job jobs 1 ' roi=160,120,160,107$'
run submit-roi-small 0 "$cli" --device "$dev" --roi 10,10,4,4 "$tmp/grey.pgm"
ok submit-roi-small-job jobs 1 ' roi=5,5,20,20$'
# a 6000x4000 JPEG, decoded reduced by 8 (750x500), fitted by 1/2.34375
# with 13 rows of letterbox: the ROI 3000,2000 800x800 is 160,119.7 to
# 202.7,162.3 in the frame: 160,119 43x44
run submit-roi-reduced 0 "$cli" --device "$dev" --roi 3000,2000,800,800 "$tmp/big.jpg"
ok submit-roi-reduced-job jobs 1 ' roi=160,119,43,44$'

# output that could not be written is an error, told on stderr (before,
# each of these exited 0 with its output lost on a full disk)
stdout=/dev/full
full_says() { grep -qx "$1: standard output: No space left on device" "$tmp/err"; }
run full-json 1 "$cli" --device "$dev" --json "$tmp/good.jpg"
ok full-json-says full_says fdif-detect
run full-text 1 "$cli" --device "$dev" "$tmp/good.jpg"
ok full-text-says full_says fdif-detect
run full-check 1 "$cli" --check "$tmp/good.jpg"
ok full-check-says full_says fdif-detect
run full-list-devices 1 env FDIF_ACCEL_DIR="$tmp" "$cli" --list-devices
ok full-list-devices-says full_says fdif-detect
run full-facedetect 1 env FDIF_DEVICE="$dev" "$cli" --facedetect "$tmp/good.jpg"
ok full-facedetect-says grep -qx "fdif-detect: error: standard output: No space left on device" "$tmp/err"
run full-help 1 "$cli" --help
ok full-help-says full_says fdif-detect
unset stdout

# --draw takes one picture
run draw-two 2 "$cli" --device "$dev" --draw "$tmp/two.png" "$tmp/grey.pgm" "$tmp/grey.pgm"
ok draw-two-says grep -q 'draw takes exactly one IMAGE' "$tmp/err"
ok draw-two-nothing-written [ ! -e "$tmp/two.png" ]

echo "1..$n"
exit $fail
