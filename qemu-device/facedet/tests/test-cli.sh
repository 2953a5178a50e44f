#!/bin/sh
# SPDX-License-Identifier: MIT
# The facedet CLI: faces printed for a photo, clear errors and exit codes
# for bad input.  Usage: test-cli.sh FACEDET FIXTURES_DIR
set -u
cli=$1 fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name expected-exit command...
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL $name: exit $got, want $want"; cat "$tmp/err"; fail=1
	else
		echo "ok $name"
	fi
}

check photo 0 "$cli" "$fx/astronaut.pgm"
grep -q '^face 0: center 1[34][0-9],[45][0-9] ' "$tmp/out" ||
	{ echo "FAIL photo: unexpected output"; cat "$tmp/out"; fail=1; }
check face-free 0 "$cli" "$fx/landscape.pgm"
[ ! -s "$tmp/out" ] || { echo "FAIL face-free printed faces"; fail=1; }
check rects 0 "$cli" --rects "$fx/astronaut.pgm"
grep -q '^rect ' "$tmp/out" || { echo "FAIL rects: no rect"; fail=1; }
check missing-file 1 "$cli" "$tmp/nope.pgm"
grep -q 'No such file' "$tmp/err" || { echo "FAIL missing-file message"; fail=1; }
printf 'P5\n320 240\n255\n' > "$tmp/short.pgm"
check truncated 1 "$cli" "$tmp/short.pgm"
grep -q 'not an 8-bit binary PGM' "$tmp/err" || { echo "FAIL truncated message"; fail=1; }
echo 'hello' > "$tmp/text.pgm"
check not-pgm 1 "$cli" "$tmp/text.pgm"
check bad-model 1 "$cli" --model "$tmp/text.pgm" "$fx/astronaut.pgm"
grep -q 'cannot load model' "$tmp/err" || { echo "FAIL bad-model message"; fail=1; }
check bad-dir 2 "$cli" --dir down "$fx/astronaut.pgm"
check bad-lhit 2 "$cli" --lhit 10 "$fx/astronaut.pgm"
check bad-roi 2 "$cli" --roi 1,2,3 "$fx/astronaut.pgm"
check roi-outside 1 "$cli" --roi 300,0,100,10 "$fx/astronaut.pgm"
check no-args 2 "$cli"
exit $fail
