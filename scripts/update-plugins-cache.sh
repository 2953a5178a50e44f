#!/bin/bash
# SPDX-License-Identifier: MIT
# fdiffacedetect's plugin cache, as GStreamer's own plugins keep theirs:
# gst/docs/gst_plugins_cache.json, the plugin as loaded (its element's
# klass, pad templates and caps, properties with types, defaults, ranges
# and flags, the enums and flags types), which hotdoc's GStreamer
# extension builds the element's documentation from (docs/gstreamer.md).
#
#   scripts/update-plugins-cache.sh [--plugin PLUGIN]
#	regenerates gst/docs/gst_plugins_cache.json from PLUGIN (default:
#	the host build's gst/libgstfdif.so, built first with ninja); commit
#	it with the change to the element. `ninja -C build
#	update-plugins-cache` runs this on the build's own plugin.
#   scripts/update-plugins-cache.sh --check --plugin PLUGIN --out DIR
#	regenerates it into DIR and compares it with the committed one:
#	TAP, and a diff and exit 1 when the committed one is stale (the
#	host test fdiffacedetect-plugins-cache, suite gst-fdif).
#   scripts/update-plugins-cache.sh --scanner
#	only builds the scanner, if it is not in the cache yet (the build
#	stage of scripts/test.sh), and prints its folder.
#
# Debian ships no gst-hotdoc-plugins-scanner, so it is built from the
# source of the installed GStreamer (`apt-get source gstreamer1.0` at the
# version of libgstreamer1.0-dev) in ${FDIF_CACHE:-~/.cache/fdif}/gst-doc:
#
#   dl-VERSION/             the Debian source package
#   scanner-VERSION-HASH/   gst-hotdoc-plugins-scanner, built against the
#                           system's gstreamer-1.0 and gio-2.0, and
#                           upstream's gst-plugins-doc-cache-generator.py
#                           beside it (it runs the scanner from its own
#                           folder), unmodified
#
# The cache is made by upstream's generator as GStreamer's builds make
# theirs, but from an empty cache each time, not merged into the
# committed one: a single plugin, built here whole, so the file is
# exactly what the plugin says, and a property or value that went away
# goes from it too (upstream's merge would keep it). No value of ours is
# marked "unstable-values", which only that merge would honour.
. "$(dirname "$0")/lib.sh"

CACHE_FILE=gst/docs/gst_plugins_cache.json
DOC="$FDIF_CACHE/gst-doc"
# how the scanner is built; part of its folder's key
SCANNER_CFLAGS=(-O2 -Wall)
SCANNER_PKGS=(gstreamer-1.0 gio-2.0)

# scanner_ensure: the scanner's folder in the cache (built once); on
# stdout. Every failure says why on stderr and returns 1.
scanner_ensure() {
	local src ver uver dl dsc key dir tmp t0 old
	src=$(dpkg-query -W -f '${source:Package}\n' libgstreamer1.0-dev 2>/dev/null | head -1)
	ver=$(dpkg-query -W -f '${source:Version}\n' libgstreamer1.0-dev 2>/dev/null | head -1)
	if [ -z "$src" ] || [ -z "$ver" ]; then
		echo "fdif: libgstreamer1.0-dev is not installed (apt-get install libgstreamer1.0-dev)" >&2
		return 1
	fi
	uver=${ver#*:}		# the files' names have no epoch
	key=$( { printf '%s\n' "${SCANNER_CFLAGS[@]}" "${SCANNER_PKGS[@]}";
		cc --version 2>/dev/null | head -1; } | sha256sum | cut -c1-8)
	dir="$DOC/scanner-$uver-$key"
	if [ -x "$dir/gst-hotdoc-plugins-scanner" ] &&
	   [ -f "$dir/gst-plugins-doc-cache-generator.py" ]; then
		echo "$dir"
		return 0
	fi
	t0=$SECONDS
	apt_ensure dpkg-dev gcc pkg-config libgstreamer1.0-dev libglib2.0-dev python3 ||
		return 1
	dl="$DOC/dl-$uver"
	if ! compgen -G "$dl/${src}_*.dsc" >/dev/null; then
		apt_src_enable
		progress "downloading Debian's $src $ver source (apt-get source), for gst-hotdoc-plugins-scanner"
		rm -rf "$dl.tmp"
		# the installed version, or where the archive has moved on
		# (a point release replaces it), the archive's: the scanner is
		# the same within a stable release
		apt_fetch "$dl.tmp" source --download-only "$src=$ver" ||
			{ rm -rf "$dl.tmp"; apt_fetch "$dl.tmp" source --download-only "$src"; } || {
			echo "fdif: cannot download the $src source, $ver or the archive's (its deb-src list: apt_src_enable, scripts/lib.sh)" >&2
			return 1
		}
		mv "$dl.tmp" "$dl"
	fi
	dsc=$(compgen -G "$dl/${src}_*.dsc" | head -1)
	progress "building gst-hotdoc-plugins-scanner from ${dsc##*/} into $dir"
	tmp="$dir.tmp"
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-source -x --no-check "$dsc" "$tmp/src" > "$tmp/dpkg-source.log" 2>&1 || {
		cat "$tmp/dpkg-source.log" >&2
		echo "fdif: dpkg-source -x $dsc failed" >&2
		return 1
	}
	# shellcheck disable=SC2046
	cc "${SCANNER_CFLAGS[@]}" -o "$tmp/gst-hotdoc-plugins-scanner" \
		"$tmp/src/docs/gst-hotdoc-plugins-scanner.c" \
		$(pkg-config --cflags --libs "${SCANNER_PKGS[@]}") || {
		echo "fdif: gst-hotdoc-plugins-scanner did not build (above)" >&2
		return 1
	}
	cp "$tmp/src/docs/gst-plugins-doc-cache-generator.py" "$tmp/" || return 1
	# (dpkg-source leaves a link to the upstream tarball beside the tree)
	rm -rf "$tmp/src" "$tmp"/*.orig.tar.* "$tmp/dpkg-source.log"
	mv "$tmp" "$dir" || return 1
	for old in "$DOC"/scanner-*; do	# other versions: superseded
		case "$old" in "$dir" | *.tmp) ;; *) rm -rf "$old" ;; esac
	done
	progress "gst-hotdoc-plugins-scanner built in $((SECONDS - t0)) s"
	echo "$dir"
}

# generate SCANNER_DIR PLUGIN OUT: upstream's generator on PLUGIN, from an
# empty cache, into OUT/gst_plugins_cache.json (its other files beside
# it); 1 with what the scanner said when that is not the fdif plugin.
generate() {
	local scanner=$1 plugin=$2 out=$3
	rm -rf "$out" && mkdir -p "$out"
	# a registry of its own, without the system's plugins (none is needed
	# to load this one), in a locale that translates nothing
	(cd "$out" && env -u MESON_BUILD_ROOT LC_ALL=C.UTF-8 \
		GST_REGISTRY_1_0="$out/registry.bin" GST_PLUGIN_SYSTEM_PATH_1_0= \
		GST_PLUGIN_PATH= GST_REGISTRY_FORK=no GST_DEBUG= \
		/usr/bin/python3 "$scanner/gst-plugins-doc-cache-generator.py" \
		"$out/gst_plugins_cache.json" "$out/generated.json" "$plugin") \
		> "$out/generator.log" 2>&1 || {
		cat "$out/generator.log" >&2
		return 1
	}
	if ! /usr/bin/python3 - "$out/gst_plugins_cache.json" <<'PY'
import json, sys
try:
    with open(sys.argv[1], encoding="utf8") as f:
        d = json.load(f)
except (OSError, ValueError) as e:
    sys.exit("%s: %s" % (sys.argv[1], e))
if "fdiffacedetect" not in d.get("fdif", {}).get("elements", {}):
    sys.exit("%s: no plugin fdif with element fdiffacedetect in it" % sys.argv[1])
PY
	then
		# (the scanner says why it could not load a plugin, and exits 0)
		sed 's/^/scanner: /' "$out/generated.json.stderr" >&2
		return 1
	fi
}

# json_changes OLD NEW: each value that differs, by its path in the JSON
# (a diff's context seldom shows which property a "default" line is of)
json_changes() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys

def load(path):
    try:
        with open(path, encoding="utf8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("%s: %s" % (path, e))
        return None

def walk(a, b, path):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            p = path + [k]
            if k not in b:
                print("gone: %s" % "/".join(p))
            elif k not in a:
                print("new: %s" % "/".join(p))
            else:
                walk(a[k], b[k], p)
    elif a != b:
        print("changed: %s: %s -> %s" % ("/".join(path), json.dumps(a), json.dumps(b)))

old, new = load(sys.argv[1]), load(sys.argv[2])
if old is not None and new is not None:
    walk(old, new, [])
PY
}

mode=update plugin='' out=''
while [ $# -gt 0 ]; do
	case "$1" in
	--check) mode=check ;;
	--scanner) mode=scanner ;;
	--plugin) plugin=$2; shift ;;
	--out) out=$2; shift ;;
	-h|--help) sed -n '3,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "update-plugins-cache.sh: unknown option $1 (--help)" ;;
	esac
	shift
done

case $mode in
scanner)
	scanner_ensure || die "the GStreamer plugin-doc scanner could not be built"
	;;
check)
	if [ -z "$plugin" ] || [ -z "$out" ]; then
		die "--check needs --plugin PLUGIN --out DIR"
	fi
	mkdir -p "$out"
	echo "1..3"
	if ! scanner=$(scanner_ensure 2> "$out/scanner.log"); then
		echo "not ok 1 - gst-hotdoc-plugins-scanner built from Debian's gstreamer1.0 source"
		sed 's/^/# /' "$out/scanner.log"
		exit 1
	fi
	echo "ok 1 - gst-hotdoc-plugins-scanner built from Debian's gstreamer1.0 source ($scanner)"
	sed 's/^/# /' "$out/scanner.log"	# (what a build here said, and how long it took)
	if ! generate "$scanner" "$plugin" "$out/generated" 2> "$out/generate.log"; then
		echo "not ok 2 - the scanner read plugin fdif and element fdiffacedetect from $plugin"
		sed 's/^/# /' "$out/generate.log"
		exit 1
	fi
	echo "ok 2 - the scanner read plugin fdif and element fdiffacedetect from $plugin"
	if diff -u --label "$CACHE_FILE (committed)" --label "$CACHE_FILE (the plugin as built)" \
		"$FDIF_ROOT/$CACHE_FILE" "$out/generated/gst_plugins_cache.json" > "$out/diff"; then
		echo "ok 3 - $CACHE_FILE is the plugin as built"
	else
		echo "not ok 3 - $CACHE_FILE is stale: run scripts/update-plugins-cache.sh (or ninja update-plugins-cache) and commit it"
		json_changes "$FDIF_ROOT/$CACHE_FILE" "$out/generated/gst_plugins_cache.json" |
			sed 's/^/# /'
		sed 's/^/# /' "$out/diff"
		exit 1
	fi
	;;
update)
	if [ -z "$plugin" ]; then
		[ -f "$FDIF_BUILD/build.ninja" ] || meson setup "$FDIF_BUILD" "$FDIF_ROOT" >/dev/null
		progress "building the plugin (ninja -C $FDIF_BUILD gst/libgstfdif.so)"
		ninja -C "$FDIF_BUILD" gst/libgstfdif.so >/dev/null ||
			die "the plugin did not build (is GStreamer enabled? meson configure $FDIF_BUILD)"
		plugin="$FDIF_BUILD/gst/libgstfdif.so"
	fi
	scanner=$(scanner_ensure) || die "the GStreamer plugin-doc scanner could not be built"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	generate "$scanner" "$(realpath "$plugin")" "$tmp/out" ||
		die "the scanner could not read the fdif plugin from $plugin"
	mkdir -p "$FDIF_ROOT/$(dirname "$CACHE_FILE")"
	if cmp -s "$tmp/out/gst_plugins_cache.json" "$FDIF_ROOT/$CACHE_FILE"; then
		progress "$CACHE_FILE: up to date"
	else
		cp "$tmp/out/gst_plugins_cache.json" "$FDIF_ROOT/$CACHE_FILE"
		progress "$CACHE_FILE: updated; commit it with the change to the element"
		git -C "$FDIF_ROOT" diff --stat -- "$CACHE_FILE" >&2 || true
	fi
	;;
esac
