#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect --facedetect against Debian's facedetect(1), both run here on
# the same photos with the same options: the same exit status, output
# lines of the same form (x y w h, or x y with -c), the same number of
# lines where the faces found cannot differ in number (one photo, one
# face; --best, --biggest), nothing on stdout for -q, argparse's usage and
# "PROG: error: " on stderr for bad command lines. The boxes may differ:
# ours come from the fake kernel (mock-preload.c, preloaded), told which
# faces to find in each photo, since a host has no FDIF.
# Usage: test-facedetect-compat.sh FDIF_DETECT MOCK_MODULE FIXTURES_DIR [FACEDETECT]
# Prints TAP.
cli=$1 mock=$2 fix=$3 real=${4:-/usr/bin/facedetect}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
mkdir "$tmp/accel"

one=$fix/astronaut-1080p.jpg	# one face (facedetect finds 1)
many=$fix/lfw-15.pgm		# fifteen faces (facedetect finds 14)
none=$fix/landscape.pgm		# no face
printf 'not a picture' > "$tmp/text.jpg"

if [ ! -x "$real" ]; then
	echo "not ok 1 - $real is there (apt-get install facedetect)"
	echo "1..1"
	exit 1
fi

# compare NAME FACES LINES OPTION... : run both, compare. FACES: what the
# fake FDIF finds ("cx,cy,size,confidence;..."); LINES: "same" if both
# must print as many lines, "any" if not
compare() {
	name=$1 faces=$2 lines=$3
	shift 3
	(cd "$tmp" && "$real" "$@") > "$tmp/r.out" 2> "$tmp/r.err"
	rc_real=$?
	(cd "$tmp" && env FDIF_ACCEL_DIR="$tmp/accel" FDIF_MOCK_DEVICE="$tmp/accel/accel0" \
		FDIF_MOCK_FACES="$faces" LD_PRELOAD="$mock" $ours "$@") \
		> "$tmp/o.out" 2> "$tmp/o.err"
	rc_ours=$?
	why=
	[ "$rc_real" -eq "$rc_ours" ] || why="exit $rc_ours, facedetect's $rc_real;"
	# every line of the form the options ask for
	case " $* " in
	*" -c "* | *" --center "* | *" -cq "* | *" -qc "*) form='^[0-9]+ [0-9]+$' ;;
	*) form='^[0-9]+ [0-9]+ [0-9]+ [0-9]+$' ;;
	esac
	case " $* " in
	*" -h "* | *" --help "*) form='' ;;	# the help text
	esac
	if [ -z "$form" ]; then
		for f in r o; do
			head -1 "$tmp/$f.out" | grep -q '^usage: ' || why="$why $f: help without usage;"
		done
	fi
	for f in r o; do
		if [ -n "$form" ] && [ -s "$tmp/$f.out" ] && grep -Evq "$form" "$tmp/$f.out"; then
			why="$why $f: a line not /$form/;"
		fi
		# a failure says so as facedetect does, on stderr
		if [ "$rc_real" -ne 0 ] && [ "$rc_real" -ne 2 -o -s "$tmp/r.err" ] &&
		   ! grep -Eq '^[a-z-]+: error: ' "$tmp/$f.err"; then
			why="$why $f: no 'PROG: error: ' on stderr;"
		fi
	done
	if [ "$lines" = same ] && [ "$(wc -l < "$tmp/r.out")" -ne "$(wc -l < "$tmp/o.out")" ]; then
		why="$why $(wc -l < "$tmp/o.out") lines, facedetect's $(wc -l < "$tmp/r.out");"
	fi
	# usage errors: both print argparse's usage first
	if [ "$rc_real" -eq 2 ] && [ -s "$tmp/r.err" ]; then
		head -1 "$tmp/r.err" | grep -q '^usage: ' && { head -1 "$tmp/o.err" | grep -q '^usage: ' ||
			why="$why no usage line first;"; }
	fi
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name:$why"
		for f in r.out r.err o.out o.err; do sed "s/^/# $f: /" "$tmp/$f"; done
		fail=1
	fi
}

# fdif-detect --facedetect; or, as installed, the name fdif-facedetect
ours="$cli --facedetect"
ln -s "$cli" "$tmp/fdif-facedetect"

f1='160,110,60,900'
f3='160,110,60,900;60,60,30,500;260,60,40,300'
compare boxes "$f1" same "$one"
compare boxes-many "$f3" any "$many"
compare center "$f1" same -c "$one"
compare center-long "$f3" any --center "$many"
compare best "$f3" same --best "$many"
compare biggest "$f3" same --biggest "$many"
compare best-center "$f3" same --best -c "$many"
compare biggest-center "$f3" same --biggest --center "$many"
compare options-after-file "$f3" same "$many" --biggest
compare query-face "$f1" same -q "$one"
compare query-many "$f3" same --query "$many"
compare query-none "" same -q "$none"
compare query-none-combined "" same -cq "$none"
compare query-best-face "$f1" same -q --best "$one"
compare no-face "" same "$none"
compare no-face-best "" same --best "$none"
compare no-face-center "" same -c "$none"
compare output-png "$f1" same -o "$tmp/out.png" "$one"
n=$((n + 1))
if [ "$(head -c 4 "$tmp/out.png" | tail -c 3)" = PNG ]; then echo "ok $n - -o wrote a PNG"; else echo "not ok $n - -o wrote a PNG"; fail=1; fi
compare output-jpeg "$f1" same --output="$tmp/out.jpg" "$one"
n=$((n + 1))
if [ "$(od -An -tx1 -N3 "$tmp/out.jpg" | tr -d ' ')" = ffd8ff ]; then echo "ok $n - --output= wrote a JPEG"; else echo "not ok $n - --output= wrote a JPEG"; fail=1; fi
compare output-debug "$f1" same -d -o "$tmp/out2.png" "$one"
compare search-threshold "$f1" same --search-threshold 40 "$one"
compare missing-file "$f1" same "$tmp/none.jpg"
compare missing-file-query "$f1" same -q "$tmp/none.jpg"
compare not-a-picture "$f1" same "$tmp/text.jpg"
compare bad-option "$f1" same --frobnicate "$one"
compare bad-short-option "$f1" same -x "$one"
compare no-file "$f1" same
compare no-file-with-options "$f1" same -c --best
compare two-files "$f1" same "$one" "$none"
compare output-without-value "$f1" same "$one" -o
compare bad-search-threshold "$f1" same --search-threshold x "$one"
compare help "$f1" any -h
compare help-long "$f1" any --help "$one"
ours=$tmp/fdif-facedetect
compare named-boxes "$f1" same "$one"
compare named-query-none "" same -q "$none"
compare named-bad-option "$f1" same --frobnicate "$one"
echo "1..$n"
exit $fail
