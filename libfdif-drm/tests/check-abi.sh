#!/bin/sh
# SPDX-License-Identifier: MIT
# A library's ABI (libfdif-drm or libfdif-image) against its list in the
# tree (libfdif-drm.abi, libfdif-image.abi), like libdrm's symbols check:
# the SONAME, the libraries it needs (readelf -d: libfdif-drm none of the
# image format libraries), every exported symbol with its version (nm -D
# --defined-only), the public header's functions all exported, and the
# public structures' sizes (abi-sizes HEADER_NAME). A difference fails:
# change the list in the same commit as the ABI, and bump the SONAME
# where docs/library.md ("ABI") says. Prints TAP.
# Usage: check-abi.sh LIB_SO ABI_LIST HEADER ABI_SIZES
lib=$1 list=$2 header=$3 sizes=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok() { # ok NAME CMD...
	name=$1
	shift
	n=$((n + 1))
	if "$@" > "$tmp/why" 2>&1; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$tmp/why"
		fail=1
	fi
}
same() { # same WANT GOT: no difference (the diff is the reason)
	diff -u "$1" "$2"
}

sed -n 's/^soname //p' "$list" > "$tmp/soname.want"
readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p' > "$tmp/soname.got"
ok soname same "$tmp/soname.want" "$tmp/soname.got"
# the version nodes are named after the library: libfdif-image -> LIBFDIF_IMAGE_
node=$(sed 's/\.so\..*//' "$tmp/soname.want" | tr 'a-z-' 'A-Z_')_

sed -n 's/^needed //p' "$list" | LC_ALL=C sort > "$tmp/needed.want"
readelf -d "$lib" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | LC_ALL=C sort > "$tmp/needed.got"
ok needed-libraries same "$tmp/needed.want" "$tmp/needed.got"

sed -n 's/^symbol //p' "$list" | LC_ALL=C sort > "$tmp/syms.want"
# name@@VERSION; the version nodes themselves (type A) are not symbols
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | LC_ALL=C sort > "$tmp/syms.got"
ok exported-symbols same "$tmp/syms.want" "$tmp/syms.got"
ok every-symbol-versioned sh -c '! grep -v "@@$2" "$1"' sh "$tmp/syms.got" "$node"
ok only-fdif-symbols sh -c '! grep -v "^fdif_" "$1"' sh "$tmp/syms.got"

# every function the header declares is exported (one left out of the
# version script would be local: programs would not link)
grep -o '^[a-z][a-z0-9_ ]*[ *]fdif_[a-z0-9_]*(' "$header" |
	grep -o 'fdif_[a-z0-9_]*' | LC_ALL=C sort -u > "$tmp/header"
sed 's/@.*//' "$tmp/syms.got" | LC_ALL=C sort -u > "$tmp/names"
ok header-functions-exported same "$tmp/header" "$tmp/names"

# the public structures' sizes and alignments, on the architecture the
# list was made on
arch=$(sed -n 's/^arch //p' "$list")
if [ "$(uname -m)" = "$arch" ]; then
	grep '^struct ' "$list" > "$tmp/structs.want"
	"$sizes" "$(basename "$header" .h)" > "$tmp/structs.got"
	ok struct-sizes same "$tmp/structs.want" "$tmp/structs.got"
else
	n=$((n + 1))
	echo "ok $n - struct-sizes # SKIP the list's sizes are for $arch"
fi
echo "1..$n"
exit $fail
