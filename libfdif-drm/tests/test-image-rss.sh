#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect answers any file within 64 MiB of peak RSS: refused with a
# clear message, or decoded (the grey path a row at a time). The files
# (in BIG_DIR) are made by make-big-images (tests/make-big-images.c) at
# build time: a 661-byte JPEG with
# EXIF orientation 6 claiming 16384x16384 with no scan data, a 239-byte
# progressive JPEG claiming 12000x12000, real 16384x16384 PNGs (RGB, and
# grey Adam7) of zero rows, a PGM claiming 16384x16384 with one row.
# Each runs through --check, a search, --draw and --check --draw (on the fake kernel,
# mock-preload.c), --facedetect and standard input: its exit status, its
# message, and its peak RSS (read by Python's getrusage(), which counts
# the forked Python before the exec too: a stricter bound). Prints TAP.
# Usage: test-image-rss.sh FDIF_DETECT MOCK_MODULE BIG_DIR
cli=$1 mock=$2 big_dir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
dev=$tmp/accel0
max_kb=65536

# run NAME WANT_EXIT WANT_LINE CMD...: CMD on the fake device (no faces),
# stdin from $stdin; one subtest: the exit status, WANT_LINE a line of
# its stdout or stderr ("": any), and a peak RSS (its own, Python's
# RUSAGE_CHILDREN) of at most $max_kb KiB
run() {
	name=$1 want=$2 line=$3
	shift 3
	env FDIF_MOCK_DEVICE="$dev" FDIF_MOCK_FACES= LD_PRELOAD="$mock" python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=f)
sys.exit(r.returncode)' "$tmp/rss" "$@" > "$tmp/out" 2> "$tmp/err" < "${stdin:-/dev/null}"
	got=$?
	kb=$(cat "$tmp/rss")
	n=$((n + 1))
	if [ "$got" -eq "$want" ] && [ "$kb" -le "$max_kb" ] &&
	   { [ -z "$line" ] || cat "$tmp/out" "$tmp/err" | grep -qxF -e "$line"; }; then
		echo "ok $n - $name (exit $got, peak RSS $kb KiB)"
	else
		echo "not ok $n - $name (exit $got, want $want; peak RSS $kb KiB, at most $max_kb; want the line: $line)"
		sed 's/^/# out: /' "$tmp/out"
		sed 's/^/# err: /' "$tmp/err"
		fail=1
	fi
}

big="image too large (over the size or memory limit)"
bad="corrupt or truncated image"
for f in exif6-16384.jpg:bad prog-12000.jpg:big cut-16384.pgm:bad \
	 zero-16384.png:ok zero-16384-adam7.png:ok; do
	file=$big_dir/${f%:*}
	[ -s "$file" ] || { echo "Bail out! $file: not made"; exit 1; }
	case ${f#*:} in
	bad) run "check ${f%:*}" 1 "fdif-detect: $file: $bad" "$cli" --check "$file"
	     run "search ${f%:*}" 1 "fdif-detect: $file: $bad" "$cli" --device "$dev" "$file" ;;
	big) run "check ${f%:*}" 1 "fdif-detect: $file: $big" "$cli" --check "$file"
	     run "search ${f%:*}" 1 "fdif-detect: $file: $big" "$cli" --device "$dev" "$file" ;;
	ok)  run "check ${f%:*}" 0 "$file: 16384x16384" "$cli" --check "$file"
	     run "search ${f%:*}" 0 "$file: 0 faces (16384x16384)" "$cli" --device "$dev" "$file"
	     stdin=$file run "stdin ${f%:*}" 0 "-: 16384x16384" "$cli" --check - ;;
	esac
	# in colour and whole: over --draw's pixels (12 Mi) before anything is decoded
	run "draw ${f%:*}" 1 "fdif-detect: $file: $big" \
		"$cli" --device "$dev" --draw "$tmp/out.png" "$file"
	# and --check says so of a --draw run beforehand (the grey check above
	# takes the PNGs, which --draw refuses)
	run "check --draw ${f%:*}" 1 "fdif-detect: $file: $big" \
		"$cli" --check --draw "$tmp/out.png" "$file"
	run "facedetect ${f%:*}" 1 "fdif-detect: error: cannot load input image $file" \
		"$cli" --facedetect -o "$tmp/out.png" "$file"
done
# the facedetect mode without -o: grey, reduced, like a search
run "facedetect zero-16384.png grey" 0 "" env FDIF_DEVICE="$dev" \
	"$cli" --facedetect "$big_dir/zero-16384.png"
echo "1..$n"
exit $fail
