# shellcheck shell=bash
# Shared helpers for the fdif build and test scripts.  Source, don't run.

set -euo pipefail

FDIF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FDIF_CACHE="$(realpath -m "${FDIF_CACHE:-$HOME/.cache/fdif}")"
# meson refuses include directories that look inside the source tree, and
# it compares strings: a cache inside the clone, or beside it with the
# clone's path as a prefix (/src/fdif and /src/fdif-cache), breaks the
# guest build long after the kernel was built. Say so at once.
case "$FDIF_CACHE" in
"$FDIF_ROOT" | "$FDIF_ROOT"*)
	printf 'fdif: error: FDIF_CACHE=%s starts with the source tree'"'"'s path %s; meson cannot build from it: choose a cache elsewhere\n' \
		"$FDIF_CACHE" "$FDIF_ROOT" >&2
	exit 1 ;;
esac
# the host build and everything a run leaves (results, guest root): inside
# the clone unless FDIF_BUILD says otherwise (the tests use an empty one)
FDIF_BUILD="${FDIF_BUILD:-$FDIF_ROOT/build}"
mkdir -p "$FDIF_CACHE" "$FDIF_BUILD"
FDIF_BUILD="$(cd "$FDIF_BUILD" && pwd)"
export FDIF_ROOT FDIF_CACHE FDIF_BUILD

# progress MESSAGE...: a timestamped line on stderr, so long steps are visible.
progress() {
	printf '[fdif %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die() {
	printf 'fdif: error: %s\n' "$*" >&2
	exit 1
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "need root to run: $*"
	fi
}

# run_limited LIMIT CMD...: run CMD with a time limit, and leave nothing
# of it behind. CMD runs in a process group of its own (timeout's, without
# --foreground), with a tag of its own in its environment
# (FDIF_STAGE_TAG), which every process it starts inherits, in another
# session or process group too (a guest's QEMU, a sleeper after setsid);
# and where this machine lets us make one, in a cgroup v2 of its own as
# well. At the limit the group gets TERM, and KILL 10 s later; and when
# CMD ends, by itself or so, everything still in its cgroup, its process
# group or carrying its tag is killed. Only a process that clears its own
# environment and leaves the group (sudo, env -i with setsid) escapes the
# tag; the cgroup, where there is one, holds that too. Returns CMD's exit
# status, or 124 (137) when the limit stopped it. An interrupt (Ctrl-C)
# of the caller stops it too (run_limited_stop, from the caller's trap).
# FDIF_NO_CGROUP=1 leaves the cgroup out (the tests show the rest holds).
RUN_LIMITED_CG= RUN_LIMITED_PGID= RUN_LIMITED_TAG=
run_limited() {
	local limit=$1 mnt rel rc=0
	shift
	RUN_LIMITED_CG=
	RUN_LIMITED_TAG="fdif-stage-$$-$RANDOM$RANDOM"
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts 2>/dev/null)
	rel=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null)
	if [ -z "${FDIF_NO_CGROUP:-}" ] && [ -n "$mnt" ] && [ -w "$mnt${rel%/}" ]; then
		RUN_LIMITED_CG="$mnt${rel%/}/fdif-stage-$$-$RANDOM"
		mkdir "$RUN_LIMITED_CG" 2>/dev/null || RUN_LIMITED_CG=
	fi
	FDIF_STAGE_TAG=$RUN_LIMITED_TAG timeout -k 10 "$limit" bash -c \
		'[ -z "$1" ] || echo $$ > "$1/cgroup.procs" 2>/dev/null; shift; exec "$@"' \
		fdif-limited "$RUN_LIMITED_CG" "$@" &
	RUN_LIMITED_PGID=$!
	wait "$RUN_LIMITED_PGID" 2>/dev/null || rc=$?
	run_limited_stop
	return "$rc"
}

# run_limited_tagged TAG: the processes whose environment has
# FDIF_STAGE_TAG=TAG (/proc/PID/environ: NUL-separated)
run_limited_tagged() {
	local f pid
	for f in /proc/[0-9]*/environ; do
		pid=${f#/proc/} && pid=${pid%/environ}
		[ "$pid" != "$BASHPID" ] || continue
		grep -qzx -F "FDIF_STAGE_TAG=$1" "$f" 2>/dev/null && echo "$pid"
	done
	return 0
}

# run_limited_stop: kill what run_limited's command left running.
run_limited_stop() {
	local i pids
	if [ -n "$RUN_LIMITED_PGID" ]; then
		kill -KILL -- "-$RUN_LIMITED_PGID" 2>/dev/null || true
	fi
	if [ -n "$RUN_LIMITED_CG" ] && [ -d "$RUN_LIMITED_CG" ]; then
		for i in $(seq 50); do
			# (cgroup files have no size: read them)
			[ -n "$(cat "$RUN_LIMITED_CG/cgroup.procs" 2>/dev/null)" ] || break
			if [ -e "$RUN_LIMITED_CG/cgroup.kill" ]; then
				echo 1 > "$RUN_LIMITED_CG/cgroup.kill" 2>/dev/null || true
			else
				xargs -r kill -KILL < "$RUN_LIMITED_CG/cgroup.procs" 2>/dev/null || true
			fi
			sleep 0.1
		done
		rmdir "$RUN_LIMITED_CG" 2>/dev/null || true
	fi
	if [ -n "$RUN_LIMITED_TAG" ]; then
		# (a process that forks while it is killed: look again)
		for i in $(seq 20); do
			pids=$(run_limited_tagged "$RUN_LIMITED_TAG")
			[ -n "$pids" ] || break
			# shellcheck disable=SC2086
			kill -KILL $pids 2>/dev/null || true
			sleep 0.1
		done
	fi
	RUN_LIMITED_PGID= RUN_LIMITED_CG= RUN_LIMITED_TAG=
	return 0
}

# kconfig_check CONFIG FRAGMENT...: whether every CONFIG_*= line of the
# fragments made it into the kernel's CONFIG (merge_config.sh and
# olddefconfig drop what does not apply, silently), and every "# CONFIG_*
# is not set" line stayed off (a select turns an option back on, silently);
# names those that did not, and returns 1 if any.
kconfig_check() {
	local config=$1 line missing=0
	shift
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qx "$line" "$config" ||
				{ echo "config: $line did not stick" >&2; missing=1; } ;;
		"# CONFIG_"*" is not set")
			line=${line#\# }; line=${line% is not set}
			! grep -q "^$line=" "$config" ||
				{ echo "config: $line is on, though set off" >&2; missing=1; } ;;
		esac
	done < <(cat "$@")
	return $missing
}

# apt_update: apt-get update, tried again after a pause when it fails: a
# Debian mirror being synced serves index files of the wrong size for a
# while ("File has unexpected size ... Mirror sync in progress?"), which
# should cost a build minutes, not its result. Four tries, the pauses
# FDIF_APT_RETRY_WAIT seconds (default 15), then twice and four times
# that; apt-get's own messages stay on stderr. Returns 1 if every try
# failed: apt keeps the lists that did download, and the lists count as
# fresh all the same (the next call would only fail the same way).
# Those pauses are paid once per run: after an update that failed every
# try, the file $FDIF_APT_FAILED says so (scripts/test.sh points it into
# the run's results, so each run starts without it; for the other
# commands it is in $FDIF_BUILD and counts for two hours), and later
# updates of the same run try once, without a pause.
FDIF_APT_FAILED="${FDIF_APT_FAILED:-$FDIF_BUILD/.apt-update-failed}"
export FDIF_APT_FAILED
apt_update() {
	local try tries=4 wait=${FDIF_APT_RETRY_WAIT:-15}
	[ -z "$(find "$FDIF_APT_FAILED" -mmin -120 2>/dev/null)" ] || tries=1
	for try in $(seq "$tries"); do
		if as_root apt-get update -qq; then
			touch "$FDIF_CACHE/.apt-updated"
			rm -f "$FDIF_APT_FAILED"
			return 0
		fi
		[ "$try" -lt "$tries" ] || break
		progress "apt-get update failed (try $try of $tries); again in ${wait}s"
		sleep "$wait"
		wait=$((wait * 2))
	done
	touch "$FDIF_CACHE/.apt-updated"
	if [ "$tries" -eq 1 ]; then
		echo "fdif: apt-get update failed again (it failed 4 times earlier in this run; not retried)" >&2
	else
		echo "fdif: apt-get update failed 4 times (its messages are above)" >&2
	fi
	mkdir -p "$(dirname "$FDIF_APT_FAILED")" && touch "$FDIF_APT_FAILED"
	return 1
}

# apt_ensure PKG...: install the packages that are not installed yet.
apt_ensure() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	progress "installing ${missing[*]} (apt-get)"
	if [ ! -f "$FDIF_CACHE/.apt-updated" ] ||
	   [ -n "$(find "$FDIF_CACHE/.apt-updated" -mmin +360)" ]; then
		# a list that would not download (one architecture's, say)
		# need not be one these packages come from
		apt_update ||
			progress "installing from the package lists that did download"
	fi
	# lists a day old can name packages a mirror has replaced: once more
	# with fresh ones
	apt_install "${missing[@]}" && return 0
	progress "apt-get install failed; once more with fresh package lists"
	apt_update || true
	apt_install "${missing[@]}"
}

apt_install() {
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout=600 "$@" >/dev/null
}

# apt_fetch DIR ARGS...: apt-get -qq ARGS (download, source --download-only)
# into DIR, quietly; if it fails, what apt-get said goes to stderr (the
# caller's "cannot download" then comes with apt's reason). As root, apt
# hands downloads to its _apt user, who cannot write into a root-owned
# cache folder (nor reach one under /root): it is told to download as
# root, rather than the folder being made world-writable.
apt_fetch() {
	local dir=$1 as=() log
	shift
	[ "$(id -u)" != 0 ] || as=(-o APT::Sandbox::User=root)
	mkdir -p "$dir"
	log="$(mktemp)"
	if (cd "$dir" && apt-get -qq "${as[@]}" "$@") >"$log" 2>&1; then
		rm -f "$log"
		return 0
	fi
	printf 'fdif: apt-get %s failed:\n' "$*" >&2
	tail -n 20 "$log" | sed 's/^/    /' >&2
	rm -f "$log"
	return 1
}

# apt_src_enable: a deb-src list of our own, next to (never inside) debian.sources.
apt_src_enable() {
	local list=/etc/apt/sources.list.d/fdif-deb-src.sources
	[ -f "$list" ] && return 0
	progress "adding $list for apt-get source"
	as_root tee "$list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt_update || progress "going on with the package lists that did download"
}

# hash_inputs PATH...: one short hash over the contents and names of files.
hash_inputs() {
	local p
	for p in "$@"; do
		if [ -d "$p" ]; then
			find "$p" -type f -print0 | LC_ALL=C sort -z |
				xargs -0 sha256sum
		elif [ -e "$p" ]; then
			sha256sum "$p"
		else
			printf '%s\n' "$p"
		fi
	done | sed "s|$FDIF_ROOT/||" | sha256sum | cut -c1-16
}

# kernel_build_inputs KDIR: what a kernel build folder's name does not key
# (that is the tree, the patches and the config fragments): our files
# synced into the tree (KDIR's drivers/, include/, Documentation/), and
# the compiler ($CROSS_COMPILE). accel-fdif/build*.sh write it to the
# folder's .fdif-built after a build and skip make's walk of an unchanged
# tree (about 20 s, paid by each stage that boots a guest) while it holds.
kernel_build_inputs() {
	hash_inputs "$1/drivers" "$1/include" "$1/Documentation" \
		"$("${CROSS_COMPILE}gcc" --version | head -1)"
}

# apply_patches DIR PATCH...: apply a patch series to the tree in DIR.
apply_patches() {
	local dir=$1 p
	shift
	for p in "$@"; do
		[ -e "$p" ] || continue
		progress "applying $(basename "$p")"
		patch -d "$dir" -p1 --quiet --forward < "$p" ||
			die "$(basename "$p") does not apply to $dir"
	done
}

# Packages the host build (detector, library) and the detector's fixtures need.
FDIF_HOST_PKGS=(build-essential meson ninja-build pkg-config libglib2.0-dev
	opencv-data libdrm-dev libpng-dev libjpeg-dev libexif-dev python3 python3-numpy
	python3-pil python3-skimage python-matplotlib-data facedetect libjson-c-dev
	help2man groff-base
	libgstreamer1.0-dev "libgstreamer-plugins-base1.0-dev:$(dpkg --print-architecture)")
# (the host's own architecture named: that package is not multi-arch, so
# an arm64 one, as someone may install for a guest build, would satisfy a
# bare name and leave the host without GStreamer's video library; the
# guest build never installs it, guest/gst-root.sh unpacks it)

# What only the tests need: the OpenCV reference, sparse for the driver,
# gst-inspect-1.0 and the base/good plugins for fdiffacedetect's pipelines,
# dpkg-source (dpkg-dev) for the GStreamer source the plugin cache's
# scanner is built from (scripts/update-plugins-cache.sh), clang and its
# runtime for the decoders' libFuzzer targets, strings (binutils) for
# test-man.sh.
FDIF_TEST_PKGS=(libopencv-dev g++ sparse
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
	dpkg-dev clang libclang-rt-14-dev binutils)

# testdata_packages: the Debian packages the marked photos come from
testdata_packages() {
	awk -F'\t' 'NR > 1 && $2 == "deb" { print $3 }' "$FDIF_ROOT/testdata/photos.tsv" |
		sort -u
}

# meson_build: configure (once) and build the host tree in $FDIF_BUILD.
meson_build() {
	local dir="$FDIF_BUILD"
	if [ ! -f "$dir/build.ninja" ]; then
		progress "configuring the host build in $dir (meson)"
		meson setup "$dir" "$FDIF_ROOT" >/dev/null
	fi
	progress "building host programs (ninja)"
	ninja -C "$dir" >/dev/null || ninja -C "$dir"
}

# run_logged LOG CMD...: CMD with its stdout into LOG and its stderr both
# into LOG and onto ours, the lines in about the order written (both
# append to LOG, emptied first); returns CMD's exit status.
run_logged() {
	local log=$1 rc
	shift
	: > "$log"
	{ "$@" 2>&1 >&3 3>&- | tee -a "$log" >&2 && rc=0 || rc=${PIPESTATUS[0]}; } 3>> "$log"
	return "$rc"
}
