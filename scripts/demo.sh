#!/bin/bash
# The main job: detect the faces in photos on the emulated FDIF.
#
#   scripts/demo.sh [IMAGE ...]      (PGM, PPM, PNG or JPEG, any size)
#
# With no argument it uses the bundled sample, the astronaut photograph
# that Debian's python3-skimage ships. It builds what is not cached (QEMU
# with the emulated FDIF, the kernel with the driver, fdif-detect), boots
# the arm64 guest, shares a host folder into it (virtio-9p), runs
# fdif-detect there on each photo, prints the faces and leaves
# out/<name>.json and out/<name>-faces.png (the photo with the faces
# outlined) on the host.
. "$(dirname "$0")/lib.sh"

SAMPLE=/usr/lib/python3/dist-packages/skimage/data/astronaut.png
apt_ensure "${FDIF_HOST_PKGS[@]}"
[ $# -gt 0 ] || set -- "$SAMPLE"
for img in "$@"; do
	[ -r "$img" ] || die "$img: cannot read it"
done

out="$FDIF_ROOT/out"
share="$FDIF_ROOT/build/demo-share"
rm -rf "$share" && mkdir -p "$share/in" "$share/out" "$out"
{
	echo '#!/bin/sh'
	echo 'status=0'
} > "$share/run.sh"
names=() origs=()
i=0
for img in "$@"; do
	i=$((i + 1))
	base="$(basename "$img")"
	name="${base%.*}"
	# two photos of the same name must not overwrite each other
	for n in "${names[@]}"; do [ "$n" = "$name" ] && name="$name-$i"; done
	names+=("$name")
	origs+=("$img")
	cp "$img" "$share/in/$name.${base##*.}"
	cat >> "$share/run.sh" <<RUN
if fdif-detect --json --draw "/mnt/out/$name-faces.png" "/mnt/in/$name.${base##*.}" \\
	> "/mnt/out/$name.json" 2> "/mnt/out/$name.err"; then
	fdif-detect "/mnt/in/$name.${base##*.}" > "/mnt/out/$name.txt" 2>&1
	echo ok > "/mnt/out/$name.status"
else
	status=1
fi
RUN
done
echo 'exit $status' >> "$share/run.sh"

progress "running fdif-detect in the guest on ${#names[@]} photo(s)"
mkdir -p "$FDIF_ROOT/build/demo-guest"
"$FDIF_ROOT/igt-tests/harness/run-guest.sh" --share "$share" --cmd /mnt/run.sh \
	--out "$FDIF_ROOT/build/demo-guest" --timeout 600 \
	>/dev/null 2> >(tee "$FDIF_ROOT/build/demo-guest/harness.log" | grep '^\[fdif' >&2) || true
wait

status=0
for i in "${!names[@]}"; do
	name="${names[$i]}"
	if [ -f "$share/out/$name.status" ]; then
		cp "$share/out/$name.json" "$share/out/$name-faces.png" "$out/"
		sed "s|^/mnt/in/[^:]*|${origs[$i]}|" "$share/out/$name.txt" 2>/dev/null || true
		echo "  -> $out/$name.json"
		[ -f "$out/$name-faces.png" ] && echo "  -> $out/$name-faces.png"
	else
		echo "$name: failed: $(cat "$share/out/$name.err" 2>/dev/null ||
			echo "the guest did not run (see build/demo-guest/console.log)")" >&2
		status=1
	fi
done
exit $status
