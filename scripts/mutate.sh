#!/bin/sh
# Mutation testing, the whole set in one command: plant one small bug at a
# time in a scratch copy of the tree, rebuild what it touches, run the
# tests that cover it, and count per layer how many bugs the tests caught.
#
#   scripts/mutate.sh [--layer L]... [--id ID]... [--list] [--tap FILE]
#
# Without --layer: every layer (detector, device, library, element, and
# driver, which boots the guest for each mutant: hours). The work tree is
# never changed; the copy and its build are in ${FDIF_BUILD:-build}/mutation. See tests/mutation/mutate.py --help and
# docs/testing.md ("Mutation testing").
exec /usr/bin/python3 "$(dirname "$0")/../tests/mutation/mutate.py" "$@"
