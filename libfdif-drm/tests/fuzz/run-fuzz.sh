#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a libFuzzer target (fuzz-image.c) for a fixed budget from its seed
# corpus (a copy: what it finds stays in a scratch directory): at most
# RUNS inputs or SECONDS seconds, whichever comes first, each input at
# most 10 s and 512 MiB. A crash, a leak, undefined behaviour, a slow
# input or a seed that no longer loads fails; the reproducer is printed.
# Prints TAP: the seeds, then the run.
# Usage: run-fuzz.sh TARGET SEED_DIR RUNS SECONDS
target=$1 seeds=$2 runs=$3 secs=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/corpus"
cp "$seeds"/* "$tmp/corpus/"
n=0 fail=0
check() { # check NAME CMD...
	name=$1
	shift
	n=$((n + 1))
	if (cd "$tmp" && "$@") > "$tmp/log" 2>&1; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		tail -n 40 "$tmp/log" | sed 's/^/# /'
		fail=1
	fi
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# every seed once (also a check that the seeds are still read)
check "$(basename "$target") seeds" "$target" -runs=0 -rss_limit_mb=512 "$tmp/corpus"
check "$(basename "$target") $runs runs or ${secs}s" "$target" -runs="$runs" \
	-max_total_time="$secs" -timeout=10 -rss_limit_mb=512 -max_len=4096 \
	-print_final_stats=1 "$tmp/corpus"
echo "1..$n"
exit $fail
