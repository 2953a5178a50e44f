#!/bin/sh
# SPDX-License-Identifier: MIT
# The facedet CLI: faces printed for a photo, clear errors and exit codes
# for bad input.  Usage: test-cli.sh FACEDET FIXTURES_DIR
set -u
cli=$1 fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

check() { # name expected-exit command...
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	n=$((n + 1))
	if [ "$got" -ne "$want" ]; then
		echo "not ok $n - $name: exit $got, want $want"
		sed 's/^/# /' "$tmp/err"
		fail=1
	else
		echo "ok $n - $name"
	fi
}

check photo 0 "$cli" "$fx/astronaut.pgm"
# one face, on the box marked by hand (astronaut.truth: x y w h): its
# center inside, its size within a factor of two
awk 'NR == FNR { x = $1; y = $2; w = $3; h = $4; next }
     /^face / { split($4, c, ","); n++
		if (c[1] >= x && c[1] <= x + w && c[2] >= y && c[2] <= y + h &&
		    $6 >= sqrt(w * h) / 2 && $6 <= sqrt(w * h) * 2) ok++ }
     END { exit !(n == 1 && ok == 1) }' "$fx/astronaut.truth" "$tmp/out" ||
	{ n=$((n + 1)); echo "not ok $n - photo: not the marked face"; sed "s/^/# /" "$tmp/out"; fail=1; }
check face-free 0 "$cli" "$fx/landscape.pgm"
[ ! -s "$tmp/out" ] || { n=$((n + 1)); echo "not ok $n - face-free printed faces"; fail=1; }
check rects 0 "$cli" --rects "$fx/astronaut.pgm"
grep -q '^rect ' "$tmp/out" || { n=$((n + 1)); echo "not ok $n - rects: no rect"; fail=1; }
# --threads N: the job split as the device splits it, the same faces and counters
for f in astronaut lfw-60 hopper-ccw20; do
	check "one-thread-$f" 0 "$cli" --stats "$fx/$f.pgm"
	cat "$tmp/out" "$tmp/err" >"$tmp/one"
	for t in 1 2 3 4; do
		check "threads-$t-$f" 0 "$cli" --stats --threads $t "$fx/$f.pgm"
		cat "$tmp/err" >>"$tmp/out"
		cmp -s "$tmp/one" "$tmp/out" && grep -q windows "$tmp/out" ||
			{ n=$((n + 1)); echo "not ok $n - threads $t on $f: not facedet_detect()'s output"; fail=1; }
	done
done
check bad-threads 2 "$cli" --threads 0 "$fx/astronaut.pgm"
check too-many-threads 2 "$cli" --threads 5 "$fx/astronaut.pgm"
check threads-rects 2 "$cli" --threads 2 --rects "$fx/astronaut.pgm"
check missing-file 1 "$cli" "$tmp/nope.pgm"
grep -q 'No such file' "$tmp/err" || { n=$((n + 1)); echo "not ok $n - missing-file message"; fail=1; }
printf 'P5\n320 240\n255\n' > "$tmp/short.pgm"
check truncated 1 "$cli" "$tmp/short.pgm"
grep -q 'not an 8-bit binary PGM' "$tmp/err" || { n=$((n + 1)); echo "not ok $n - truncated message"; fail=1; }
echo 'hello' > "$tmp/text.pgm"
check not-pgm 1 "$cli" "$tmp/text.pgm"
check bad-model 1 "$cli" --model "$tmp/text.pgm" "$fx/astronaut.pgm"
grep -q 'cannot load model' "$tmp/err" || { n=$((n + 1)); echo "not ok $n - bad-model message"; fail=1; }
check bad-dir 2 "$cli" --dir down "$fx/astronaut.pgm"
check bad-lhit 2 "$cli" --lhit 10 "$fx/astronaut.pgm"
check bad-roi 2 "$cli" --roi 1,2,3 "$fx/astronaut.pgm"
check roi-outside 1 "$cli" --roi 300,0,100,10 "$fx/astronaut.pgm"
check no-args 2 "$cli"
echo "1..$n"
exit $fail
