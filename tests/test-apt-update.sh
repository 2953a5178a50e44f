#!/bin/bash
# apt_ensure's apt-get update (apt_update, scripts/lib.sh) is tried again
# when it fails, as a Debian mirror in the middle of a sync makes it fail
# for a while ("File has unexpected size ... Mirror sync in progress?");
# after four tries it installs from the lists that did download, and a
# failed install is tried once more after an update. The pauses are paid
# once per run: a later update of the same run, after one that failed
# every try, is tried once. apt-get and dpkg-query here are stand-ins on PATH: the
# update fails as often as told, no package is installed. What is tested
# is the wrapper, not apt. TAP. Usage: test-apt-update.sh SOURCE_ROOT
root="$(realpath "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat > "$tmp/bin/apt-get" <<'FAKE'
#!/bin/sh
# the first $FAKE_UPDATE_FAILS updates and $FAKE_INSTALL_FAILS installs fail
for a; do case "$a" in update|install) op=$a ;; esac; done
echo "$op" >> "$FAKE_CALLS"
n=$(grep -cx "$op" "$FAKE_CALLS")
if [ "$op" = update ] && [ "$n" -le "${FAKE_UPDATE_FAILS:-0}" ]; then
	echo "E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress?" >&2
	exit 100
fi
if [ "$op" = install ] && [ "$n" -le "${FAKE_INSTALL_FAILS:-0}" ]; then
	echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/f/frobnicate.deb  Hash Sum mismatch" >&2
	exit 100
fi
exit 0
FAKE
printf '#!/bin/sh\nexit 1\n' > "$tmp/bin/dpkg-query"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/dpkg-query"
n=0 fail=0
# run UPDATE_FAILS INSTALL_FAILS [THEN]: apt_ensure frobnicate with a new
# cache (so it updates first), then the shell command THEN; its output in
# $out, apt-get's calls in $calls. A run's record of a failed update
# ($FDIF_APT_FAILED) is left alone unless KEEP_STAMP is unset.
run() {
	rm -rf "$tmp/cache" "$tmp/calls"
	[ -n "${KEEP_STAMP:-}" ] || rm -f "$tmp/run-apt-failed"
	out="$(PATH="$tmp/bin:$PATH" FAKE_CALLS="$tmp/calls" FAKE_UPDATE_FAILS=$1 \
		FAKE_INSTALL_FAILS=$2 FDIF_APT_RETRY_WAIT=0 FDIF_CACHE="$tmp/cache" \
		FDIF_APT_FAILED="$tmp/run-apt-failed" \
		FDIF_BUILD="$tmp/build" bash -c ". '$root/scripts/lib.sh' &&
		as_root() { \"\$@\"; } && apt_ensure frobnicate && ${3:-:}" 2>&1)"
	rc=$?
	calls=$(tr '\n' ' ' < "$tmp/calls" 2>/dev/null)
}
result() { # result NAME OK
	n=$((n + 1))
	if [ "$2" = 1 ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1 (exit $rc, apt-get: $calls; $out)"; fail=1; fi
}
echo "1..9"
run 0 0
result "an update that works is run once" \
	"$([ $rc -eq 0 ] && [ "$calls" = "update install " ] && echo 1)"
run 2 0
result "an update that fails twice is tried again and the install goes on" \
	"$([ $rc -eq 0 ] && [ "$calls" = "update update update install " ] && echo 1)"
result "each failed try is reported" \
	"$([ "$(grep -c 'apt-get update failed (try [12] of 4)' <<<"$out")" = 2 ] && echo 1)"
run 9 0
result "an update that keeps failing gives up after 4 tries and installs from what came" \
	"$([ $rc -eq 0 ] && [ "$calls" = "update update update update install " ] &&
	   grep -qF 'apt-get update failed 4 times' <<<"$out" &&
	   grep -qF 'installing from the package lists that did download' <<<"$out" && echo 1)"
run 0 1
result "a failed install is tried again after an update" \
	"$([ $rc -eq 0 ] && [ "$calls" = "update install update install " ] && echo 1)"
run 0 9
result "an install that keeps failing fails, with apt-get's reason" \
	"$([ $rc -ne 0 ] && [ "$calls" = "update install update install " ] &&
	   grep -qF 'Hash Sum mismatch' <<<"$out" && echo 1)"
run 9 0 'apt_update || :; apt_update || :'
result "after an update failed 4 times, later ones in the run are tried once" \
	"$([ "$calls" = "update update update update install update update " ] &&
	   [ "$(grep -c 'not retried' <<<"$out")" = 2 ] && echo 1)"
KEEP_STAMP=1 run 9 0
result "... and so is the next script's first update in that run" \
	"$([ $rc -eq 0 ] && [ "$calls" = "update install " ] && echo 1)"
touch -d '3 hours ago' "$tmp/run-apt-failed"
KEEP_STAMP=1 run 9 0
result "a record older than two hours is another run's: 4 tries again" \
	"$([ $rc -eq 0 ] && [ "$calls" = "update update update update install " ] && echo 1)"
exit $fail
