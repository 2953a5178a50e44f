#!/bin/bash
# run_logged LOG CMD (scripts/lib.sh): the demo runs the guest with its
# stdout into LOG and its stderr both into LOG and onto the terminal.
# Every line of both streams must end up in LOG, in the order written,
# and the stderr lines on stderr; CMD's exit status is run_logged's.
# TAP. Usage: test-run-logged.sh SOURCE_ROOT
root="$(realpath "$1")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# four lines, the streams taking turns, each given time to land
cat > "$tmp/cmd" <<'CMD'
#!/bin/sh
echo "out 1"; sleep 0.2
echo "err 1" >&2; sleep 0.2
echo "out 2"; sleep 0.2
echo "err 2" >&2; sleep 0.2
exit 3
CMD
chmod +x "$tmp/cmd"
echo stale > "$tmp/log"
FDIF_CACHE="$tmp/cache" FDIF_BUILD="$tmp/build" bash -c \
	". '$root/scripts/lib.sh' && run_logged '$tmp/log' '$tmp/cmd'" 2> "$tmp/err"
rc=$?
n=0 fail=0
result() { # result NAME OK [DETAIL]
	n=$((n + 1))
	if [ "$2" = 1 ]; then echo "ok $n - $1"; else echo "not ok $n - $1 ${3:-}"; fail=1; fi
}
echo "1..3"
result "the log holds both streams in order, and nothing from before" \
	"$([ "$(cat "$tmp/log")" = "$(printf 'out 1\nerr 1\nout 2\nerr 2')" ] && echo 1)" \
	"(log: $(tr '\n' '|' < "$tmp/log"))"
result "stderr still reaches the terminal" \
	"$([ "$(cat "$tmp/err")" = "$(printf 'err 1\nerr 2')" ] && echo 1)" \
	"(stderr: $(tr '\n' '|' < "$tmp/err"))"
result "the command's exit status is returned" "$([ $rc -eq 3 ] && echo 1)" "(exit $rc)"
exit $fail
