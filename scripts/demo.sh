#!/bin/bash
# The main job: detect the faces in photos on the emulated FDIF.
#
#   scripts/demo.sh [--out DIR] [PHOTO|FOLDER ...]
#   scripts/demo.sh --camera [--frames N] [--out DIR] [PHOTO|FOLDER ...]
#
# See usage() below. It builds what is not cached (QEMU with the emulated
# FDIF, the kernel with the driver, fdif-detect for the guest), boots the
# arm64 guest once, shares a host folder into it (virtio-9p), runs
# fdif-detect there once on each photo and prints the faces; or, with
# --camera, streams the photos through the guest's camera into a
# GStreamer pipeline with fdiffacedetect. Nothing it needs comes from a
# test target.
. "$(dirname "$0")/lib.sh"

SAMPLE=/usr/lib/python3/dist-packages/skimage/data/astronaut.png

usage() {
	cat <<EOF
usage: scripts/demo.sh [--out DIR] [PHOTO|FOLDER ...]
       scripts/demo.sh --camera [--frames N] [--out DIR] [PHOTO|FOLDER ...]

Detect the faces in photos on the emulated OMAP4 FDIF: QEMU with the
device, the Linux kernel with the fdif accel driver, and fdif-detect
(libfdif-drm) in an arm64 guest.

  PHOTO       a PGM, PPM, PNG or JPEG file of any size
  FOLDER      every such file in the folder (not its subfolders)
  --out DIR   where the results go (default: out/ in the clone)
  --camera    a camera stream instead: the photos (fitted into 320x240 grey
              frames) are shown in turn, 2 s each, on the guest's camera
              (vivid, its output looped to its input); a GStreamer pipeline,
              v4l2src io-mode=dmabuf ! fdiffacedetect, reads it and prints the
              faces of every frame (camera pixels: x y w h) and the frames
              per second; DIR/camera.txt keeps them
  --frames N  camera frames to take (default: 120 a photo, 2 s of the
              camera's 60 frames/s, so that each photo is seen)
  --help      this text

Without a photo it uses the bundled sample, the astronaut photograph of
Debian's python3-skimage. For each photo NAME it prints the faces and
leaves DIR/NAME.json (what fdif-detect --json reports) and
DIR/NAME-faces.png (the photo with the faces outlined).

The first run installs packages with apt-get (enabling the arm64
architecture in dpkg for the guest's libraries) and builds QEMU and the
kernel into \${FDIF_CACHE:-~/.cache/fdif}; later runs reuse them.
Exit status: 0 if every photo was processed, 1 otherwise, 2 for bad usage.
EOF
}

out="$FDIF_ROOT/out"
photos=()
camera= frames=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--out)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		out=$2
		shift
		;;
	--camera) camera=1 ;;
	--frames)
		[ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]{0,4}$ ]] || { usage >&2; exit 2; }
		frames=$2
		shift
		;;
	--) shift; break ;;
	-*) printf 'demo.sh: unknown option %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
	*) photos+=("$1") ;;
	esac
	shift
done
photos+=("$@")

is_photo() {
	case "${1,,}" in
	*.pgm | *.ppm | *.pnm | *.png | *.jpg | *.jpeg) return 0 ;;
	esac
	return 1
}

# the photos, folders expanded; bad arguments stop here, before any build
inputs=()
for p in "${photos[@]}"; do
	if [ -d "$p" ]; then
		n=${#inputs[@]}
		while IFS= read -r -d '' f; do
			is_photo "$f" && inputs+=("$f")
		done < <(find -L "$p" -maxdepth 1 -type f -print0 | LC_ALL=C sort -z)
		[ ${#inputs[@]} -gt "$n" ] ||
			die "$p: no PGM, PPM, PNG or JPEG files in this folder"
	elif [ -f "$p" ] && [ -r "$p" ]; then
		inputs+=("$p")
	else
		die "$p: cannot read it (not a readable file or folder)"
	fi
done

apt_ensure "${FDIF_HOST_PKGS[@]}"
if [ ${#inputs[@]} -eq 0 ]; then
	[ -r "$SAMPLE" ] || die "$SAMPLE is missing: is python3-skimage installed?"
	inputs=("$SAMPLE")
fi

# Each photo read on the host first (fdif-detect --check), by the library
# and the way fdif-detect and the camera's feeder read it in the guest,
# so a file that is no picture is named before QEMU and the kernel are
# built or the guest booted. fdif-detect searches the others; the camera
# shows all of them or none.
meson_build
readable=()
unreadable=0
for f in "${inputs[@]}"; do
	arg=$f
	case "$arg" in -*) arg=./$arg ;; esac
	# --draw as the guest's run: the drawing decodes the colour picture
	if msg="$("$FDIF_BUILD/libfdif-drm/fdif-detect" --check --draw /dev/null "$arg" 2>&1 >/dev/null)"; then
		readable+=("$f")
	else
		printf '%s: failed: %s\n' "$f" "${msg#"fdif-detect: $arg: "}" >&2
		unreadable=1
	fi
done
[ "$unreadable" = 0 ] || [ -z "$camera" ] ||
	die "the camera can only show pictures: nothing was streamed"
[ ${#readable[@]} -gt 0 ] || die "none of the photos could be read"
inputs=("${readable[@]}")

# The guest sees only numbered copies (in/001.png, ...): no file name of
# the user's ever reaches a shell in the guest.
share="$FDIF_BUILD/demo-share"
log_dir="$FDIF_BUILD/demo-guest"
rm -rf "$share" "$log_dir"
mkdir -p "$share/in" "$share/out" "$log_dir" "$out"
copies=()
for i in "${!inputs[@]}"; do
	f=${inputs[$i]}
	base=${f##*/}
	ext=img
	case "$base" in *.*) ext=${base##*.} ;; esac
	copies[$i]="$(printf '%03d' $((i + 1))).${ext,,}"
	cp -- "$f" "$share/in/${copies[$i]}"
done
cat > "$share/run.sh" <<'RUN'
#!/bin/sh
# one fdif-detect run a photo: the JSON, the drawing and the exit status
for f in /mnt/in/*; do
	id=${f##*/}
	id=${id%.*}
	fdif-detect --json --draw "/mnt/out/$id-faces.png" "$f" \
		> "/mnt/out/$id.json" 2> "/mnt/out/$id.err"
	echo $? > "/mnt/out/$id.rc"
done
RUN

if [ -n "$camera" ]; then
	: "${frames:=$((120 * ${#inputs[@]}))}"
	# the camera: fdif-vivid-feed shows the photos on vivid's looped
	# output; fdiffacedetect reads the capture side's dma-bufs. A feeder
	# that did not start (a photo it cannot read) or stopped is reported
	# as such, with its log, not as the camera's error.
	cat > "$share/run.sh" <<RUN
#!/bin/sh
fdif-vivid-feed -s 2 /mnt/in/* > /tmp/feed.log 2>&1 &
feeder=\$!
i=0
while ! grep -q '^capture ' /tmp/feed.log && kill -0 \$feeder 2>/dev/null &&
	[ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
node=\$(sed -n 's/^capture //p' /tmp/feed.log)
if [ -z "\$node" ]; then
	{ echo "the camera did not start:"; cat /tmp/feed.log; } > /mnt/out/camera.err
	echo 1 > /mnt/out/camera.rc
	exit 0
fi
fdif-gst-faces -n $frames "v4l2src device=\$node io-mode=dmabuf ! video/x-raw,format=GRAY8,width=320,height=240 ! fdiffacedetect display=false" > /mnt/out/camera.txt 2> /mnt/out/camera.err
rc=\$?
kill -0 \$feeder 2>/dev/null ||
	{ echo "the camera's feeder stopped:"; cat /tmp/feed.log; } >> /mnt/out/camera.err
echo \$rc > /mnt/out/camera.rc
kill \$feeder
wait
cp /tmp/feed.log /mnt/out/feed.log
RUN
	# the guest's time limit: the boot and the pipeline's start, then the
	# frames at 10 a second (the camera gives 60; a loaded machine less)
	limit=$((600 + frames / 10))
	progress "streaming ${#inputs[@]} photo(s), $frames frames, through the guest's camera into fdiffacedetect (time limit ${limit} s)"
	log_dir="$FDIF_BUILD/demo-guest"
	set +e
	run_logged "$log_dir/harness.log" "$FDIF_ROOT/guest/run-guest.sh" \
		--share "$share" --cmd /mnt/run.sh --gst --out "$log_dir" --timeout "$limit"
	hrc=$?
	set -e
	[ -f "$share/out/camera.rc" ] ||
		die "the guest did not run the camera (exit $hrc): see $log_dir/console.log"
	# faces TIME N x y w h ...: one line a frame
	[ ! -f "$share/out/camera.txt" ] || awk '$1 == "faces" {
		printf "frame at %s: %d face(s)", $2, $3
		for (i = 4; i + 3 <= NF; i += 4) printf "  %s,%s %sx%s", $i, $(i + 1), $(i + 2), $(i + 3)
		printf "\n" }' "$share/out/camera.txt"
	# the guest's messages name the numbered copies: show the user's names
	while IFS= read -r line; do
		for i in "${!inputs[@]}"; do
			line=${line//"/mnt/in/${copies[$i]}"/"${inputs[$i]}"}
		done
		printf '%s\n' "${line#fdif-gst-faces: }"
	done < "$share/out/camera.err"
	if [ -f "$share/out/camera.txt" ]; then
		cp "$share/out/camera.txt" "$out/camera.txt"
		echo "  -> $out/camera.txt"
	fi
	[ "$(cat "$share/out/camera.rc")" = 0 ] && [ "$hrc" -eq 0 ] ||
		die "the camera pipeline failed: see $share/out/camera.err and $log_dir/console.log"
	exit 0
fi

# the guest's time limit: the boot, then up to 5 s a photo (a large JPEG
# decoded and scaled on the guest's CPU)
limit=$((600 + 5 * ${#inputs[@]}))
progress "running fdif-detect in the guest on ${#inputs[@]} photo(s) (time limit ${limit} s)"
harness_log="$log_dir/harness.log"
set +e
run_logged "$harness_log" "$FDIF_ROOT/guest/run-guest.sh" --share "$share" \
	--cmd /mnt/run.sh --out "$log_dir" --timeout "$limit"
hrc=$?
set -e

# where to look when the guest did not do its part
if [ -s "$log_dir/console.log" ]; then
	look="$log_dir/console.log"
else
	look="$harness_log"
fi
[ "$hrc" -eq 0 ] || [ -n "$(ls "$share/out"/*.rc 2>/dev/null)" ] ||
	die "the guest did not run (exit $hrc): see $look"

# NAME for each photo: its base name without extension, made unique
status=0
declare -A taken=()
for i in "${!inputs[@]}"; do
	f=${inputs[$i]}
	id=$(printf '%03d' $((i + 1)))
	base=${f##*/}
	name=${base%.*}
	k=2
	while [ -n "${taken[$name]:-}" ]; do name="${base%.*}-$k"; k=$((k + 1)); done
	taken[$name]=1
	if [ ! -f "$share/out/$id.rc" ]; then
		printf '%s: failed: the guest did not get to this photo (see %s)\n' "$f" "$look" >&2
		status=1
		continue
	fi
	if [ "$(cat "$share/out/$id.rc")" != 0 ]; then
		printf '%s: failed: %s\n' "$f" \
			"$(sed 's/^fdif-detect: [^:]*: //' "$share/out/$id.err")" >&2
		status=1
		continue
	fi
	/usr/bin/python3 "$FDIF_ROOT/scripts/faces-json.py" --image "$f" \
		"$share/out/$id.json" "$out/$name.json" || { status=1; continue; }
	cp "$share/out/$id-faces.png" "$out/$name-faces.png"
	echo "  -> $out/$name.json"
	echo "  -> $out/$name-faces.png"
done
[ "$hrc" -eq 0 ] || [ "$status" -ne 0 ] ||
	die "the guest reported a failure (exit $hrc): see $look"
[ "$unreadable" = 0 ] || status=1
exit $status
