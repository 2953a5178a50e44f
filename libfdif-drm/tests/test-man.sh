#!/bin/sh
# SPDX-License-Identifier: MIT
# fdif-detect's man page: made (help2man), formats without a warning, and
# meson installs it. The page is generated from --help, so comparing the
# two proves nothing; it is checked against what the program accepts,
# found by running it, and against the committed list of its options
# below (its interface: a new option is added there, and documented):
# every option of the list is accepted and documented; every option the
# page documents is accepted (in the normal or the --facedetect mode);
# every long option the program accepts
# (every word in its binary's strings tried as --WORD) is in the list.
# Prints TAP.
# Usage: test-man.sh FDIF_DETECT MAN_PAGE BUILD_DIR
cli=$1 page=$2 build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/accel"
n=0 fail=0
ok() { # ok NAME CMD...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fail=1; fi
}

# fdif-detect's options, and those of its --facedetect mode (facedetect's)
options='--json --draw --min-size --direction --roi --threshold --lhit --device
--list-devices --check --help --version --facedetect'
fd_options='--biggest --best --center --data-dir --query --search --search-threshold
--output --debug'

# accepts [--facedetect] OPT: the program's parser takes OPT (with a
# value if it wants one); nothing can reach a device
accepts() {
	env FDIF_ACCEL_DIR="$tmp/accel" FDIF_DEVICE= "$cli" "$@" x.png < /dev/null \
		> "$tmp/run" 2>&1
	! grep -qi 'unrecognized' "$tmp/run"
}
refuses() { ! accepts "$@"; }
accepted_somehow() { accepts "$1" || accepts --facedetect "$1"; }
listed() { printf '%s\n' $options $fd_options | grep -qx -- "$1"; }
documents() { printf '%s\n' "$text" | grep -q -- "$1\\([^a-z-]\\|\$\\)"; }

ok made [ -s "$page" ]
ok title grep -q '^\.TH FDIF-DETECT "*1' "$page"
warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
ok formats-without-warnings [ -z "$warn" ]
[ -z "$warn" ] || echo "$warn" | sed 's/^/# /'
text=$(groff -man -Tutf8 -P-cbou "$page" 2>/dev/null)	# plain text

# the check can tell: an option nobody has is refused
ok "refuses --frobnicate" refuses --frobnicate
ok "refuses --facedetect --frobnicate" refuses --facedetect --frobnicate
for opt in $options; do
	ok "accepts $opt" accepts "$opt"
	ok "documents $opt" documents "$opt"
done
for opt in $fd_options; do
	ok "accepts --facedetect $opt" accepts --facedetect "$opt"
done
# what the page documents, the program takes
for opt in $(printf '%s\n' "$text" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	ok "documented $opt is accepted" accepted_somehow "$opt"
done
# what the program takes, the list has (an abbreviation of a listed
# option, which getopt_long takes, is not another option)
found=0
for word in $(strings "$cli" | grep -oE '[a-z][a-z-]{2,30}' | sort -u); do
	for opt in $options; do
		case $opt in --"$word"?*) continue 2 ;; esac
	done
	accepts "--$word" || continue
	found=$((found + 1))
	ok "accepted --$word is in the list" listed "--$word"
done
ok "found the options by running it ($found)" [ "$found" -ge 13 ]
ok has-version sh -c 'printf "%s\n" "$1" | grep -q "$2"' sh "$text" "$("$cli" --version | cut -d' ' -f3)"
for sec in 'EXIT STATUS' 'JSON OUTPUT' 'FACEDETECT MODE' 'ENVIRONMENT'; do
	ok "section $sec" sh -c 'printf "%s\n" "$1" | grep -q "^$2"' sh "$text" "$sec"
done
ok installed-in-man1 sh -c 'meson introspect --installed "$1" | grep -q "share/man/man1/fdif-detect.1"' sh "$build"
echo "1..$n"
exit $fail
