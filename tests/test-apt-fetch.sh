#!/bin/bash
# apt_fetch (scripts/lib.sh) is quiet while apt-get succeeds, and when it
# fails passes on what apt-get said, so "cannot download X" comes with
# apt's reason (no network, no such version...). apt-get here is a stand-in
# on PATH that prints to stdout and stderr and exits as told: what is
# tested is the wrapper, not apt. TAP. Usage: test-apt-fetch.sh SOURCE_ROOT
root="$(realpath "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat > "$tmp/bin/apt-get" <<'FAKE'
#!/bin/sh
echo "progress on stdout"
echo "E: Unable to locate package $FAKE_PKG" >&2
exit "$FAKE_RC"
FAKE
chmod +x "$tmp/bin/apt-get"
n=0 fail=0
# run NAME RC: apt_fetch with the stand-in exiting RC; its output in $out
run() {
	out="$(PATH="$tmp/bin:$PATH" FAKE_RC=$2 FAKE_PKG=frobnicate FDIF_CACHE="$tmp/cache" \
		FDIF_BUILD="$tmp/build" bash -c ". '$root/scripts/lib.sh' &&
		apt_fetch '$tmp/dl' download frobnicate:arm64" 2>&1)"
	rc=$?
}
result() { # result NAME OK
	n=$((n + 1))
	if [ "$2" = 1 ]; then echo "ok $n - $1"; else echo "not ok $n - $1 (exit $rc: $out)"; fail=1; fi
}
echo "1..3"
run success 0
result "a download that works says nothing" "$([ $rc -eq 0 ] && [ -z "$out" ] && echo 1)"
run failure 100
result "a failed download fails" "$([ $rc -ne 0 ] && echo 1)"
result "a failed download shows apt-get's reason" \
	"$(grep -qF 'E: Unable to locate package frobnicate' <<<"$out" && echo 1)"
exit $fail
