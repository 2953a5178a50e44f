#!/bin/bash
# Performance report: boots the guest twice and measures, in one run,
# device-bound throughput and utilization at 1/2/4/8 jobs in flight and
# from 4 clients (with the device's detector on 1 host thread, then on its
# default number of threads), per-job software overhead with the timing model at zero,
# the library path on a 1920x1080 JPEG, and the host detector against
# OpenCV. Prints a markdown report; --write-docs also stores it in
# docs/performance.md. Nothing here asserts on time.
#
#   scripts/bench.sh [--write-docs] [--jobs N]
. "$(dirname "$0")/lib.sh"

write_docs= jobs=32
while [ $# -gt 0 ]; do
	case "$1" in
	--write-docs) write_docs=1 ;;
	--jobs) jobs=$2; shift ;;
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
fdif_bench throughput $jobs > /mnt/out/throughput.txt
fdif_bench overhead 300 > /mnt/out/overhead.txt
fdif_bench library /data/astronaut-1080p.jpg 5 > /mnt/out/library.txt
RUN

progress "running the device benchmarks in the guest (device on 1 host thread)"
cat > "$share/run1.sh" <<RUN
#!/bin/sh
set -e
fdif_bench throughput $jobs > /mnt/out/throughput-1.txt
RUN
chmod +x "$share/run1.sh"
"$FDIF_ROOT/igt-tests/harness/run-guest.sh" --share "$share" --cmd /mnt/run1.sh --data \
	--device-opts threads=1 --out "$FDIF_BUILD/bench-guest-1" --timeout 1800 >/dev/null ||
	die "the guest benchmarks failed: see $FDIF_BUILD/bench-guest-1/console.log"

progress "running the device benchmarks in the guest (device at its default threads)"
"$FDIF_ROOT/igt-tests/harness/run-guest.sh" --share "$share" --cmd /mnt/run.sh --data \
	--out "$FDIF_BUILD/bench-guest" --timeout 1800 >/dev/null ||
	die "the guest benchmarks failed: see $FDIF_BUILD/bench-guest/console.log"

progress "running the host detector benchmark (ours against OpenCV)"
"$FDIF_ROOT/scripts/bench-detector.sh" --markdown --repeat 10 \
	> "$share/out/detector.md" 2>/dev/null || die "detector benchmark failed"

report="$(/usr/bin/python3 "$FDIF_ROOT/bench/report.py" "$share/out")"
printf '%s\n' "$report"
if [ -n "$write_docs" ]; then
	printf '%s\n' "$report" > "$FDIF_ROOT/docs/performance.md"
	progress "wrote docs/performance.md"
fi
