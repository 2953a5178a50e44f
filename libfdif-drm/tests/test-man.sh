#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect's man page: made (help2man), formats without a warning,
# names every option --help lists, and meson installs it. Prints TAP.
# Usage: test-man.sh FDIF_DETECT MAN_PAGE BUILD_DIR
cli=$1 page=$2 build=$3
n=0 fail=0
ok() { # ok NAME CMD...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fail=1; fi
}
ok made [ -s "$page" ]
ok title grep -q '^\.TH FDIF-DETECT "*1' "$page"
warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
ok formats-without-warnings [ -z "$warn" ]
[ -z "$warn" ] || echo "$warn" | sed 's/^/# /'
text=$(groff -man -Tutf8 -P-cbou "$page" 2>/dev/null)	# plain text
for opt in $("$cli" --help | grep -o -- '^  --[a-z-]*' | sort -u); do
	ok "documents $opt" sh -c 'printf "%s\n" "$1" | grep -q -- "$2"' sh "$text" "$opt"
done
ok has-version sh -c 'printf "%s\n" "$1" | grep -q "$2"' sh "$text" "$("$cli" --version | cut -d' ' -f3)"
for sec in 'EXIT STATUS' 'JSON OUTPUT' 'FACEDETECT MODE' 'ENVIRONMENT'; do
	ok "section $sec" sh -c 'printf "%s\n" "$1" | grep -q "^$2"' sh "$text" "$sec"
done
ok installed-in-man1 sh -c 'meson introspect --installed "$1" | grep -q "share/man/man1/fdif-detect.1"' sh "$build"
echo "1..$n"
exit $fail
