#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect on a host without the device: usage errors exit 2, a missing
# device exits 1 with a clear message. (The device path runs in the guest.)
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { # NAME WANT PATTERN CMD...
	name=$1 want=$2 pat=$3
	shift 3
	"$@" > "$tmp/out" 2>&1
	got=$?
	n=$((n + 1))
	if [ $got -eq "$want" ] && grep -q -- "$pat" "$tmp/out"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (exit $got)"; sed 's/^/# /' "$tmp/out"; fail=1
	fi
}
mkdir "$tmp/accel"
check help 0 '^Usage: fdif-detect' "$cli" --help
check no-image 2 '^Usage: fdif-detect' "$cli"
check version 0 '^fdif-detect (fdif) [0-9][0-9.]*$' "$cli" --version
check stdin-twice 2 'standard input) can be read once only' "$cli" - -
check bad-option 2 '^Usage: fdif-detect' "$cli" --frobnicate x.png
check bad-lhit 2 "invalid value 'x' for --lhit" "$cli" --lhit x x.png
check bad-min-size 2 "invalid value '-20' for --min-size" "$cli" --min-size -20 x.png
# --roi: four whole numbers, W and H not 0; a minus, a plus, a blank, a
# number past 32 bits, a missing or fifth field refused, saying why
# (before, sscanf()'s %u took -5 as 4294967291 and 99999999999 as
# whatever it wrapped to)
roi_says="for --roi: X,Y,W,H are four whole numbers 0..4294967295 (image pixels), W and H not 0"
for roi in -5,0,10,10 0,-5,10,10 99999999999,0,10,10 0,0,4294967296,10 \
	+5,0,10,10 ' 5,0,10,10' '5, 0,10,10' 5,0,10 5,0,10,10,1 5,,10,10 5,0,0,10 \
	5,0,10,0 5,0,10,10x ''; do
	check "bad-roi '$roi'" 2 "^fdif-detect: invalid value '$roi' $roi_says$" \
		env FDIF_ACCEL_DIR="$tmp/accel" "$cli" --roi "$roi" x.png
done
# the largest numbers are numbers: past the parser, on to the device
check roi-largest 1 'no FDIF device' \
	env FDIF_ACCEL_DIR="$tmp/accel" "$cli" --roi 4294967295,4294967295,1,4294967295 x.png
# the other numbers: digits only, in their range, saying which
check threshold-past-64-bits 2 "^fdif-detect: invalid value '99999999999999999999' for --threshold: a whole number 0..1000$" \
	"$cli" --threshold 99999999999999999999 x.png
check threshold-plus 2 "invalid value '+5' for --threshold" "$cli" --threshold +5 x.png
check min-size-past-32-bits 2 "^fdif-detect: invalid value '99999999999' for --min-size: a face size" \
	"$cli" --min-size 99999999999 x.png
check lhit-blank-minus 2 "^fdif-detect: invalid value ' -1' for --lhit: a whole number" \
	"$cli" --lhit ' -1' x.png
check no-device 1 'no FDIF device' env FDIF_ACCEL_DIR="$tmp/accel" "$cli" x.png
# the directory searched is named, and a node that cannot be opened says why
check no-device-names-dir 1 "^fdif-detect: $tmp/accel: no FDIF device" \
	env FDIF_ACCEL_DIR="$tmp/accel" "$cli" x.png
mkdir "$tmp/accel2" "$tmp/accel2/accel0"
check node-error 1 "^fdif-detect: $tmp/accel2: Is a directory" \
	env FDIF_ACCEL_DIR="$tmp/accel2" "$cli" x.png
check no-dir 1 "^fdif-detect: $tmp/none: no FDIF device" \
	env FDIF_ACCEL_DIR="$tmp/none" "$cli" x.png
# --check reads the images as a search would, with no device at all
printf 'P5\n4 3\n255\n012345678901' > "$tmp/small.pgm"
echo 'not a picture' > "$tmp/bad.png"
check check-reads 0 "^$tmp/small.pgm: 4x3$" \
	env FDIF_ACCEL_DIR="$tmp/none" "$cli" --check "$tmp/small.pgm"
check check-bad 1 "^fdif-detect: $tmp/bad.png: unsupported image format" \
	env FDIF_ACCEL_DIR="$tmp/none" "$cli" --check "$tmp/small.pgm" "$tmp/bad.png"
check check-missing 1 "^fdif-detect: $tmp/none.jpg: No such file" \
	"$cli" --check "$tmp/none.jpg"
check check-stdin 0 "^-: 4x3$" sh -c "\"\$0\" --check - < '$tmp/small.pgm'" "$cli"
check check-json 2 '--check prints no faces' "$cli" --check --json "$tmp/small.pgm"
# --check --draw OUT reads as --draw would (whole, in colour), any number
# of images, and writes nothing (before: refused, exit 2)
check check-draw 0 "^$tmp/small.pgm: 4x3$" \
	env FDIF_ACCEL_DIR="$tmp/none" "$cli" --check --draw "$tmp/o.png" "$tmp/small.pgm" "$tmp/small.pgm"
check check-draw-bad 1 "^fdif-detect: $tmp/bad.png: unsupported image format" \
	"$cli" --check --draw "$tmp/o.png" "$tmp/small.pgm" "$tmp/bad.png"
n=$((n + 1))
if [ -e "$tmp/o.png" ]; then
	echo "not ok $n - check-draw writes nothing"; fail=1
else
	echo "ok $n - check-draw writes nothing"
fi
echo "1..$n"
exit $fail
