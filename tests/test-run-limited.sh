#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lib.sh run_limited, which runs each stage of scripts/test.sh:
# a stage stopped by its limit, or one that ends, leaves no process
# behind, not even one it started in a session of its own. Prints TAP.
# Usage: test-run-limited.sh SOURCE_ROOT
set -u
FDIF_BUILD=$(mktemp -d)
trap 'rm -rf "$FDIF_BUILD"' EXIT
export FDIF_BUILD
# shellcheck source=../scripts/lib.sh
. "$1/scripts/lib.sh"
set +e
n=0 fail=0
check() { # check WHAT CONDITION...
	local what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		fail=1
	fi
}
# a sleeper's unique command line: sleep takes a fraction
mark=$((RANDOM % 1000)).$$
left() { pgrep -f "sleep 7$mark" >/dev/null; }
none_left() { ! left; }

# with and without a cgroup: the environment's tag alone must hold what
# left the process group (a machine with no writable cgroup)
for how in cgroup tag; do
if [ "$how" = tag ]; then export FDIF_NO_CGROUP=1; else unset FDIF_NO_CGROUP; fi
if [ "$how" = cgroup ]; then
t0=$SECONDS
run_limited 2 bash -c "sleep 7$mark & sleep 7$mark"
rc=$?
check "$how: a stage past its limit is stopped (exit $rc, want 124)" [ "$rc" -eq 124 ]
check "$how: ... within its limit and the kill grace ($((SECONDS - t0)) s)" [ $((SECONDS - t0)) -le 14 ]
check "$how: ... and the sleeper it forked is gone" none_left
fi

run_limited 2 bash -c "setsid sleep 7$mark & sleep 7$mark"
rc=$?
check "$how: a stage whose child left its process group: stopped (exit $rc)" [ "$rc" -eq 124 ]
check "$how: ... and that child is gone too ($how)" none_left

if [ "$how" = cgroup ]; then
run_limited 2 bash -c 'trap "" TERM; sleep 7'"$mark"
rc=$?
check "$how: a stage that ignores TERM is killed (exit $rc, want 137)" [ "$rc" -eq 137 ]
fi

run_limited 60 bash -c "setsid sleep 7$mark & exit 3"
rc=$?
check "$how: a stage that ends keeps its exit status (exit $rc, want 3)" [ "$rc" -eq 3 ]
check "$how: ... and what it left running is killed" none_left

done

pkill -f "sleep 7$mark"
echo "1..$n"
exit $fail
