#!/bin/sh
# SPDX-License-Identifier: MIT
# The marked photos (testdata/) through the host detector, checked against
# the marked face boxes with the floors recorded for 'host'. Prints TAP.
# Usage: truth-host.sh TRUTH_HOST SOURCE_ROOT BUILD_DIR
set -eu
bin=$1 src=$2 build=$3
photos="$build/truth-photos" json="$build/truth-host-json"
"$src/testdata/fetch-photos.sh" "$photos" >&2
rm -rf "$json" && mkdir -p "$json"
"$bin" "$json" "$photos"/*
exec /usr/bin/python3 "$src/tests/truth.py" --testdata "$src/testdata" \
	--json-dir "$json" --floors host
