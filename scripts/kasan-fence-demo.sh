#!/bin/bash
# A demonstration, not a test: a killed job's scheduler fence outlives the
# device, and the DRM scheduler's core code (6.12) then reads the freed
# scheduler for the fence's timeline name. Boots the debug kernel (KASAN)
# once with igt-tests/fdif_fence_uaf.c (which says how) and prints the
# KASAN report from the guest's console, for the cover letter
# (accel-fdif/export-patches.sh writes it). Exit 0 when the report is there and
# names drm_sched_fence_get_timeline_name(), 1 otherwise (a kernel that
# has the bug fixed, or a demo that did not get that far).
#
#   scripts/kasan-fence-demo.sh [--out DIR]
. "$(dirname "$0")/lib.sh"

out="$FDIF_BUILD/kasan-fence-demo"
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift ;;
	*) die "kasan-fence-demo.sh: unknown option $1" ;;
	esac
	shift
done

rm -rf "$out" && mkdir -p "$out/share"
cat > "$out/share/run.sh" <<'RUN'
#!/bin/sh
fdif_fence_uaf
echo "fdif_fence_uaf exited $?"
RUN
progress "booting the debug kernel with the demonstration (a few minutes)"
# the guest "splats" on purpose: run-guest.sh's verdict is not ours
"$FDIF_ROOT/guest/run-guest.sh" --debug-kernel --share "$out/share" \
	--cmd /mnt/run.sh --data --devices 1 --out "$out/guest" --timeout 400 \
	>/dev/null 2>"$out/run-guest.log" || true
log="$out/guest/console.log"
[ -f "$log" ] || die "no console log: see $out/run-guest.log"
tr -d '\r' < "$log" | grep -a '^fdif_fence_uaf'
# the report: from KASAN's BUG line to its closing line of '='
report=$(tr -d '\r' < "$log" | sed -n '/BUG: KASAN/,/^\(\[ *[0-9.]*\] \)\?==================/p')
if [ -z "$report" ]; then
	echo "no KASAN report in $log"
	exit 1
fi
printf '%s\n' "$report" | tee "$out/kasan.txt"
grep -q 'drm_sched_fence_get_timeline_name' "$out/kasan.txt" ||
	{ echo "the KASAN report is not the scheduler fence's"; exit 1; }
