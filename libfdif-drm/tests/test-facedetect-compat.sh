#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect --facedetect against Debian's facedetect(1), both run here on
# the same photos with the same options: the same exit status, output
# lines of the same form (x y w h, or x y with -c), the same number of
# lines where the faces found cannot differ in number (one photo, one
# face; --best, --biggest), nothing on stdout for -q, argparse's usage and
# "PROG: error: " on stderr for bad command lines. The boxes may differ:
# ours come from the fake kernel (mock-preload.c, preloaded), told which
# faces to find in each photo, since a host has no FDIF; so our output is
# also compared, line for line, with the boxes those faces make in the
# photo's pixels (worked out by hand below: a 320x240 photo is the
# device's frame, a 1920x1080 one is fitted into it scaled by 1/6 with 30
# rows of letterbox above), and each run that should reach the device
# must have submitted a job there (the fake kernel's log), so a program
# that prints nothing and exits 0 fails. Each tool runs in a folder of its
# own, so an -o file is the one that tool wrote.
# Usage: test-facedetect-compat.sh FDIF_DETECT MOCK_MODULE FIXTURES_DIR [FACEDETECT]
# Prints TAP.
cli=$1 mock=$2 fix=$3 real=${4:-/usr/bin/facedetect}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
mkdir "$tmp/accel" "$tmp/r" "$tmp/o"

one=$fix/astronaut-1080p.jpg	# one face (facedetect finds 1)
many=$fix/lfw-15.pgm		# fifteen faces (facedetect finds 14)
none=$fix/landscape.pgm		# no face
printf 'not a picture' > "$tmp/text.jpg"

if [ ! -x "$real" ]; then
	echo "not ok 1 - $real is there (apt-get install facedetect)"
	echo "1..1"
	exit 1
fi

# run_real OPTION...: Debian's facedetect in its folder; its output in
# r.out and r.err, its exit status in rc_real. Its answers depend only on
# its inputs, never on our code, and it takes seconds a run (OpenCV in
# Python), which the mutation tests pay once per mutant: with
# $FDIF_FACEDETECT_CACHE set, each answer is kept there, under a hash of
# the options (this run's folder named @TMP@), the photos named, this
# script (the folder's state before a run follows from the cases before
# it) and the versions of facedetect and OpenCV, and taken from there on
# the next run; the folder's files come back with it.
cache=${FDIF_FACEDETECT_CACHE:-}
run_real() {
	key=$( {
		printf '%s\n' "$*" | sed "s|$tmp|@TMP@|g"
		sha256sum < "$0"
		dpkg-query -W facedetect python3-opencv 2>/dev/null
		for a; do [ ! -f "$a" ] || sha256sum < "$a"; done
	} | sha256sum | cut -c1-32)
	if [ -n "$cache" ] && [ -f "$cache/$key/rc" ]; then
		rm -rf "$tmp/r" && mkdir "$tmp/r" && tar -xf "$cache/$key/r.tar" -C "$tmp/r"
		sed "s|@TMP@|$tmp|g" "$cache/$key/out" > "$tmp/r.out"
		sed "s|@TMP@|$tmp|g" "$cache/$key/err" > "$tmp/r.err"
		rc_real=$(cat "$cache/$key/rc")
		return
	fi
	(cd "$tmp/r" && "$real" "$@") > "$tmp/r.out" 2> "$tmp/r.err"
	rc_real=$?
	[ -n "$cache" ] || return 0
	mkdir -p "$cache/$key.new.$$" &&
		tar -cf "$cache/$key.new.$$/r.tar" -C "$tmp/r" . &&
		sed "s|$tmp|@TMP@|g" "$tmp/r.out" > "$cache/$key.new.$$/out" &&
		sed "s|$tmp|@TMP@|g" "$tmp/r.err" > "$cache/$key.new.$$/err" &&
		echo "$rc_real" > "$cache/$key.new.$$/rc" &&
		mv -T "$cache/$key.new.$$" "$cache/$key" 2>/dev/null
	rm -rf "$cache/$key.new.$$"
	return 0
}

# run_ours FACES OPTION...: ours in its folder, on the fake FDIF finding
# FACES; its output in o.out and o.err, its exit status in rc_ours, its
# jobs in log
run_ours() {
	faces=$1
	shift
	: > "$tmp/log"
	(cd "$tmp/o" && env FDIF_ACCEL_DIR="$tmp/accel" FDIF_MOCK_DEVICE="$tmp/accel/accel0" \
		FDIF_MOCK_FACES="$faces" FDIF_MOCK_LOG="$tmp/log" LD_PRELOAD="$mock" $ours "$@") \
		> "$tmp/o.out" 2> "$tmp/o.err"
	rc_ours=$?
}

# compare NAME FACES LINES JOBS WANT OPTION... : run both, compare. FACES:
# what the fake FDIF finds ("cx,cy,size,confidence;..."); LINES: "same" if
# both must print as many lines, "any" if not; JOBS: the jobs ours must
# have submitted (1: it searched the photo, 0: it must not have); WANT:
# our exact output, lines separated by '|' ("" for none, "-" not checked:
# the help text)
compare() {
	name=$1 faces=$2 lines=$3 jobs=$4 want=$5
	shift 5
	run_real "$@"
	run_ours "$faces" "$@"
	why=
	[ "$rc_real" -eq "$rc_ours" ] || why="exit $rc_ours, facedetect's $rc_real;"
	got_jobs=$(grep -c '^submit ' "$tmp/log")
	[ "$got_jobs" -eq "$jobs" ] || why="$why $got_jobs jobs submitted, not $jobs;"
	if [ "$want" != - ] && [ "$(printf '%s' "$want" | tr '|' '\n')" != "$(cat "$tmp/o.out")" ]; then
		why="$why our output is not '$want';"
	fi
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
		if [ -n "$form" ] && grep -Evq "$form" "$tmp/$f.out"; then
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

# the faces the fake FDIF finds, in its 320x240 frame: one; three, the
# most confident also the biggest (f3) or not (f3b); one past the right
# edge (fe)
f1='160,110,60,900'
f3='160,110,60,900;60,60,30,500;260,60,40,300'
f3b='160,110,30,900;60,60,60,500;260,60,40,300'
fe='310,110,60,900'
# their boxes "x y w h": in the 320x240 $many as they are (x = cx - size / 2);
# in the 1920x1080 $one six times as large, 30 frame rows lower (f1's face:
# centre 960,480, 360 wide)
b1='780 300 360 360'
b3='130 80 60 60|45 45 30 30|240 40 40 40'
b3b='145 95 30 30|30 30 60 60|240 40 40 40'
compare boxes "$f1" same 1 "$b1" "$one"
compare boxes-many "$f3" any 1 "$b3" "$many"
compare boxes-many-order "$f3b" any 1 "$b3b" "$many"
compare center "$f1" same 1 '960 480' -c "$one"
compare center-long "$f3" any 1 '160 110|60 60|260 60' --center "$many"
compare best "$f3" same 1 '130 80 60 60' --best "$many"
compare biggest "$f3" same 1 '130 80 60 60' --biggest "$many"
compare best-not-biggest "$f3b" same 1 '145 95 30 30' --best "$many"
compare biggest-not-best "$f3b" same 1 '30 30 60 60' --biggest "$many"
compare best-center "$f3b" same 1 '160 110' --best -c "$many"
compare biggest-center "$f3b" same 1 '60 60' --biggest --center "$many"
compare options-after-file "$f3b" same 1 '30 30 60 60' "$many" --biggest
compare clamped-to-picture "$fe" any 1 '280 80 40 60' "$many"
compare query-face "$f1" same 1 '' -q "$one"
compare query-many "$f3" same 1 '' --query "$many"
compare query-none "" same 1 '' -q "$none"
compare query-none-combined "" same 1 '' -cq "$none"
compare query-best-face "$f1" same 1 '' -q --best "$one"
compare no-face "" same 1 '' "$none"
compare no-face-best "" same 1 '' --best "$none"
compare no-face-center "" same 1 '' -c "$none"
# -o: each tool's own file (relative: in its own folder); ours the photo
# at its size, the box drawn: white, the picked one yellow
compare output-png "$f1" same 1 "$b1" -o out.png "$one"
# drawn PICTURE W H X,Y,R,G,B...: PICTURE (PNG, RGB) is W x H and the
# pixel at X,Y is R,G,B ('.' for any), for each X,Y,R,G,B given
drawn() { "$here/png-pixels.py" "$@"; }
n=$((n + 1))
if [ ! -e "$tmp/r/out.png" ]; then
	echo "not ok $n - facedetect -o wrote its own out.png"; fail=1
elif drawn "$tmp/o/out.png" 1920 1080 960,300,255,255,255 780,480,255,255,255 \
	1139,480,255,255,255 960,659,255,255,255; then
	echo "ok $n - -o wrote a PNG of the photo's size, the box drawn at $b1"
else
	echo "not ok $n - -o wrote a PNG of the photo's size, the box drawn at $b1"; fail=1
fi
compare output-jpeg "$f1" same 1 "$b1" --output=out.jpg "$one"
n=$((n + 1))
if [ "$(od -An -tx1 -N3 "$tmp/o/out.jpg" | tr -d ' ')" = ffd8ff ] && [ -e "$tmp/r/out.jpg" ] &&
   [ "$(od -An -tx1 -N3 "$tmp/r/out.jpg" | tr -d ' ')" = ffd8ff ]; then
	echo "ok $n - --output= wrote a JPEG (each tool its own)"
else
	echo "not ok $n - --output= wrote a JPEG (each tool its own)"; fail=1
fi
compare output-best "$f3b" same 1 '145 95 30 30' --best -o best.png "$many"
n=$((n + 1))
if drawn "$tmp/o/best.png" 320 240 160,95,255,255,0 30,60,255,255,255 60,30,255,255,255; then
	echo "ok $n - -o --best: the best face yellow, the others white"
else
	echo "not ok $n - -o --best: the best face yellow, the others white"; fail=1
fi
compare output-debug "$f1" same 1 "$b1" -d -o out2.png "$one"
# the extension in any case, and .jpe for JPEG, as OpenCV (before, out.jpe
# got PNG bytes)
magic() { [ "$(od -An -tx1 -N4 "$1" 2>/dev/null | tr -d ' \n' | cut -c1-${#2})" = "$2" ]; }
for o in out.PNG:89504e47 out.JPG:ffd8ff out.jpe:ffd8ff; do
	compare "output-${o%:*}" "$f1" same 1 "$b1" -o "${o%:*}" "$one"
	n=$((n + 1))
	if magic "$tmp/o/${o%:*}" "${o#*:}" && magic "$tmp/r/${o%:*}" "${o#*:}"; then
		echo "ok $n - -o ${o%:*}: both wrote the same format"
	else
		echo "not ok $n - -o ${o%:*}: both wrote the same format"; fail=1
	fi
done
# -o that cannot be written (no such folder, a full disk): facedetect
# ignores imwrite()'s failure, prints the faces and exits 0; so does this
# mode, with a warning naming the file and why (before: exit 1, no faces;
# a JPEG on a full disk: libjpeg's exit())
ln -s /dev/full "$tmp/r/full.jpg"
ln -s /dev/full "$tmp/o/full.jpg"
ln -s /dev/full "$tmp/r/full.png"
ln -s /dev/full "$tmp/o/full.png"
for o in none/out.png:"No such file or directory" full.jpg:"No space left on device" \
	full.png:"No space left on device"; do
	compare "output-unwritable ${o%%:*}" "$f1" same 1 "$b1" -o "${o%%:*}" "$one"
	n=$((n + 1))
	if grep -qx "fdif-detect: warning: ${o%%:*}: ${o#*:}" "$tmp/o.err"; then
		echo "ok $n - -o ${o%%:*}: a warning says why"
	else
		echo "not ok $n - -o ${o%%:*}: a warning says why"; fail=1
		sed 's/^/# o.err: /' "$tmp/o.err"
	fi
done
# -o a name this mode does not write: exit 1, nothing printed, nothing
# written, "PROG: error: OUT: ...", as facedetect (OpenCV) does for a name
# without an extension or with one it has no writer for; facedetect
# writes .bmp, .ppm (this mode does not: a documented difference). Before,
# each got PNG bytes, exit 0.
for o in out.bmp:0 out.ppm:0 out:1 out.xyz:1; do
	out=${o%:*}
	run_real -o "$out" "$one"
	run_ours "$f1" -o "$out" "$one"
	why=
	[ "$rc_ours" -eq 1 ] || why="exit $rc_ours;"
	[ "$rc_real" -eq "${o#*:}" ] || why="$why facedetect's exit $rc_real, not ${o#*:};"
	[ ! -s "$tmp/o.out" ] || why="$why printed faces;"
	[ "${o#*:}" = 0 ] || [ ! -s "$tmp/r.out" ] || why="$why facedetect printed faces;"
	[ ! -e "$tmp/o/$out" ] || why="$why $out written;"
	grep -qx "fdif-detect: error: $out: cannot write such a picture (here -o writes PNG, .png, and JPEG, .jpg, .jpeg or .jpe)" \
		"$tmp/o.err" || why="$why no 'PROG: error: $out: ...';"
	[ "$(grep -c '^submit ' "$tmp/log")" -eq 1 ] || why="$why no search (facedetect searches first);"
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "ok $n - output-refused $out"
	else
		echo "not ok $n - output-refused $out: $why"
		for f in r.out r.err o.out o.err; do sed "s/^/# $f: /" "$tmp/$f"; done
		fail=1
	fi
done
# -q never writes -o (facedetect returns first), whatever its name
compare output-query "$f1" same 1 '' -q -o out.bmp "$one"
compare search-threshold "$f1" same 1 "$b1" --search-threshold 40 "$one"
compare missing-file "$f1" same 0 '' "$tmp/none.jpg"
compare missing-file-query "$f1" same 0 '' -q "$tmp/none.jpg"
compare not-a-picture "$f1" same 0 '' "$tmp/text.jpg"
compare bad-option "$f1" same 0 '' --frobnicate "$one"
compare bad-short-option "$f1" same 0 '' -x "$one"
compare no-file "$f1" same 0 ''
compare no-file-with-options "$f1" same 0 '' -c --best
compare two-files "$f1" same 0 '' "$one" "$none"
compare output-without-value "$f1" same 0 '' "$one" -o
compare bad-search-threshold "$f1" same 0 '' --search-threshold x "$one"
compare help "$f1" any 0 - -h
compare help-long "$f1" any 0 - --help "$one"
ours=$tmp/fdif-facedetect
compare named-boxes "$f1" same 1 "$b1" "$one"
compare named-query-none "" same 1 '' -q "$none"
compare named-bad-option "$f1" same 0 '' --frobnicate "$one"
echo "1..$n"
exit $fail
