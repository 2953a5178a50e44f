#!/bin/bash
# Performance report: boots the guest once and measures, in one run,
# device-bound throughput and utilization at 1/2/4/8 jobs in flight and
# from 4 clients, jobs/s and device ms/job with the emulated FDIF's
# detector on 1 host thread and on its default 2 (two devices, measured
# in turn, --rounds times, each with its timing model and with the model
# at 0, where a job takes the detector's time), per-job software overhead
# with the timing model at zero,
# the library path on a 1920x1080 JPEG, and the host detector against
# OpenCV. Prints a markdown report; --write-docs also stores it in
# docs/performance.md. Nothing here asserts on time.
#
#   scripts/bench.sh [--write-docs] [--jobs N] [--rounds N]
. "$(dirname "$0")/lib.sh"

write_docs= jobs=32 rounds=5
while [ $# -gt 0 ]; do
	case "$1" in
	--write-docs) write_docs=1 ;;
	--jobs) jobs=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	*) die "bench.sh: unknown option $1" ;;
	esac
	shift
done

apt_ensure "${FDIF_HOST_PKGS[@]}" libopencv-dev g++
meson_build
share="$FDIF_BUILD/bench-share"
rm -rf "$share" && mkdir -p "$share/out"
cat > "$share/run.sh" <<RUN
#!/bin/sh
set -e
# the accel node of the emulated FDIF at register address \$1
node() {
	for d in /sys/class/accel/accel*; do
		case "\$(readlink "\$d/device")" in
		*/\$1.fdif) echo "/dev/accel/\${d##*/}"; return ;;
		esac
	done
	echo "no FDIF at \$1" >&2
	exit 1
}
dflt=\$(node c000000) one=\$(node c001000)
fdif_bench throughput $jobs "\$dflt" > /mnt/out/throughput.txt
fdif_bench compare $jobs $rounds "\$one" "\$dflt" > /mnt/out/compare.txt
fdif_bench overhead 300 "\$dflt" > /mnt/out/overhead.txt
fdif_bench library /data/astronaut-1080p.jpg 5 "\$dflt" > /mnt/out/library.txt
RUN

# the first FDIF (the one overhead and library use) runs its detector on
# the default number of host threads, the second on 1: compared in turn
progress "running the device benchmarks in the guest (one boot)"
"$FDIF_ROOT/guest/run-guest.sh" --share "$share" --cmd /mnt/run.sh --data \
	--device-opts "test-regs=on|test-regs=on,threads=1" \
	--out "$FDIF_BUILD/bench-guest" --timeout 1800 >/dev/null ||
	die "the guest benchmarks failed: see $FDIF_BUILD/bench-guest/console.log"

progress "running the host detector benchmark (ours against OpenCV)"
"$FDIF_ROOT/scripts/bench-detector.sh" --markdown --repeat 10 \
	> "$share/out/detector.md" 2>/dev/null || die "detector benchmark failed"

report="$(/usr/bin/python3 "$FDIF_ROOT/bench/report.py" "$share/out")"
printf '%s\n' "$report"
if [ -n "$write_docs" ]; then
	# keeping the Camera section, scripts/bench-camera.sh's
	camera=$(sed -n '/^## Camera$/,/^## /{/^## /!p;/^## Camera$/p}' "$FDIF_ROOT/docs/performance.md")
	{ printf '%s\n' "$report"; [ -z "$camera" ] || printf '\n%s\n' "$camera"; } \
		> "$FDIF_ROOT/docs/performance.md"
	progress "wrote docs/performance.md"
fi
