#!/bin/sh
# SPDX-License-Identifier: MIT
# In-guest test of fdif-detect: output formats, options and, for bad
# input, a clear message and the documented exit code. Prints TAP.
n=0 fail=0
T=/tmp/fdif-cli
mkdir -p $T

check() { # check NAME WANT_EXIT PATTERN CMD... (PATTERN matched in stdout+stderr)
	name=$1 want=$2 pat=$3
	shift 3
	"$@" > $T/out 2>&1
	got=$?
	n=$((n + 1))
	if [ $got -ne "$want" ] || ! grep -q -- "$pat" $T/out; then
		echo "not ok $n - $name (exit $got, want $want, pattern '$pat')"
		sed 's/^/# /' $T/out
		fail=1
	else
		echo "ok $n - $name"
	fi
}

check text 0 'face 1: x=22[0-9] y=11[0-9]' fdif-detect /data/astronaut.png
check json 0 '"faces": \[' fdif-detect --json /data/astronaut.png
check json-two-images 0 '"image": "/data/landscape.pgm"' fdif-detect --json /data/astronaut.png /data/landscape.pgm
check face-free 0 '0 faces' fdif-detect /data/landscape.pgm
check full-scan 0 'direction=right' fdif-detect --direction all /data/astronaut-cw90.pgm
check roi-without-face 0 '0 faces' fdif-detect --roi 0,300,512,212 /data/astronaut.png
check min-size-40 0 '1 face' fdif-detect --min-size 40 /data/astronaut.png
check threshold 0 '0 faces' fdif-detect --threshold 1000 --lhit 9 /data/landscape.pgm
check draw 0 'face 1' fdif-detect --draw $T/faces.png /data/astronaut.png
n=$((n + 1))
if [ "$(head -c 4 $T/faces.png | tail -c 3)" = "PNG" ]; then echo "ok $n - draw wrote a PNG"; else echo "not ok $n - draw wrote a PNG"; fail=1; fi

echo 'not a picture' > $T/text.png
head -c 3000 /data/astronaut.png > $T/cut.png
check corrupt-image 1 'corrupt or truncated' fdif-detect $T/cut.png
check unsupported-image 1 'unsupported image format' fdif-detect $T/text.png
check missing-image 1 'No such file' fdif-detect $T/none.png
check partial-failure 1 'face 1' fdif-detect /data/astronaut.png $T/none.png
check not-an-fdif 1 'no FDIF device' fdif-detect --device /dev/null /data/astronaut.png
check no-such-device 1 'No such file' fdif-detect --device /dev/accel/accel9 /data/astronaut.png
check bad-direction 2 "invalid value 'down' for --direction" fdif-detect --direction down /data/astronaut.png
check bad-min-size 2 'the device takes 20 25 32 40' fdif-detect --min-size 24 /data/astronaut.png
check bad-threshold 2 'invalid value' fdif-detect --threshold 1001 /data/astronaut.png
check bad-roi 2 'invalid value' fdif-detect --roi 1,2,3 /data/astronaut.png
check draw-two-images 2 'exactly one IMAGE' fdif-detect --draw $T/x.png /data/astronaut.png /data/hopper.pgm
check no-image 2 'usage' fdif-detect
echo "1..$n"
exit $fail
