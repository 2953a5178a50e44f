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

# on_truth NAME TRUTH WANT CMD...: CMD prints WANT faces (text output), each
# on a different box of TRUTH (center inside, size within a factor of 2)
on_truth() {
	name=$1 truth=$2 want=$3
	shift 3
	"$@" > $T/out 2>&1
	n=$((n + 1))
	if awk -v want="$want" '
		NR == FNR { x[NR] = $1; y[NR] = $2; w[NR] = $3; h[NR] = $4; m = NR; next }
		/^  face [0-9]+: / {
			got++
			for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			# busybox awk has no sqrt: compare squares
			for (k = 1; k <= m; k++) {
				a = w[k] * h[k]; s2 = v["size"] * v["size"]
				if (!used[k] && v["x"] >= x[k] && v["x"] <= x[k] + w[k] &&
				    v["y"] >= y[k] && v["y"] <= y[k] + h[k] &&
				    s2 >= a / 4 && s2 <= a * 4) { used[k] = 1; on++; break }
			}
		}
		END { exit !(got == want && on == want) }' "$truth" $T/out; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name (want $want faces, each on a marked face)"
		sed 's/^/# /' $T/out
		fail=1
	fi
}

on_truth text /data/astronaut.png.truth 1 fdif-detect /data/astronaut.png
on_truth many-faces /data/lfw-15.truth 15 fdif-detect /data/lfw-15.pgm
on_truth many-faces-cap /data/lfw-60.truth 35 fdif-detect /data/lfw-60.pgm
check json 0 '"faces": \[' fdif-detect --json /data/astronaut.png
check json-two-images 0 '"image": "/data/landscape.pgm"' fdif-detect --json /data/astronaut.png /data/landscape.pgm
# (the count line whole: '0 faces' alone also matches '10 faces')
check face-free 0 '^/data/landscape.pgm: 0 faces (' fdif-detect /data/landscape.pgm
# --threshold T keeps exactly the faces of confidence T or more: the full
# scan of the astronaut turned a quarter right finds faces of more than
# one confidence (the face, and a weaker box); T between the least and
# the most of them (none: the check fails, --threshold '' is refused)
fdif-detect --direction all /data/astronaut-cw90.pgm > $T/all 2>&1
t=$(awk '/^  face / { for (i = 3; i <= NF; i++) if ($i ~ /^confidence=/) {
		split($i, kv, "="); c = kv[2] + 0; n++
		if (n == 1 || c < lo) lo = c
		if (n == 1 || c > hi) hi = c } }
	END { if (n > 1 && lo < hi) print int((lo + hi) / 2) + 1 }' $T/all)
keep=$(awk -v t="${t:-0}" '/^  face / { for (i = 3; i <= NF; i++) if ($i ~ /^confidence=/) {
		split($i, kv, "="); if (kv[2] + 0 >= t) k++ } } END { print k + 0 }' $T/all)
check threshold 0 "^/data/astronaut-cw90.pgm: $keep faces* (" fdif-detect --direction all --threshold "$t" /data/astronaut-cw90.pgm
# ... and the strongest one is the marked face, on its box, seen as turned
on_truth full-scan /data/astronaut-cw90.truth 1 fdif-detect --direction all --threshold "$t" /data/astronaut-cw90.pgm
check full-scan-direction 0 '^  face 1: .* direction=right$' fdif-detect --direction all --threshold "$t" /data/astronaut-cw90.pgm
check roi-without-face 0 '^/data/astronaut.png: 0 faces (' fdif-detect --roi 0,300,512,212 /data/astronaut.png
on_truth min-size-40 /data/astronaut.png.truth 1 fdif-detect --min-size 40 /data/astronaut.png
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
check bad-lhit 2 "invalid value '12' for --lhit: the device takes 0..9" fdif-detect --lhit 12 /data/astronaut.png
check bad-threshold 2 'invalid value' fdif-detect --threshold 1001 /data/astronaut.png
check bad-roi 2 'invalid value' fdif-detect --roi 1,2,3 /data/astronaut.png
check draw-two-images 2 'exactly one IMAGE' fdif-detect --draw $T/x.png /data/astronaut.png /data/hopper.pgm
check no-image 2 '^Usage: fdif-detect' fdif-detect
echo "1..$n"
exit $fail
