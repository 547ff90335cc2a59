#!/usr/bin/env bash
# Keeps looking: runs every fuzz group of the test suite (definition files,
# .pg files, board files, every game's positions and their round trip, the
# hashes' rank and unrank, the explorer's requests, the binary's flags) for
# a time budget each, with a seed of its own, instead of the suite's fixed
# seed and case counts.
#
#   scripts/fuzz.sh [--seconds N] [--seed N] [--bin-only]
#
# --seconds  seconds for each group (default 10)
# --seed     the seed (default: from the commit checked out, so every commit
#            tries inputs no other tried and a rerun of it tries the same)
#
# A failure prints its group, seed and shrunk input; keep that input as an
# explicit regression case beside its group. Runs with the suite's build
# (cargo test's profile), on all cores.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=10
seed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "scripts/fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$seed" ]; then
  commit="$(git rev-parse --short=15 HEAD 2>/dev/null || date +%s)"
  # The commit's first 60 bits as a number (a date when there is no git).
  case "$commit" in
    *[!0-9a-f]*) seed="$commit" ;;
    *) seed="$((16#$commit))" ;;
  esac
fi

echo "scripts/fuzz.sh: seed $seed, $seconds s a group"
# The modules whose tests run through the shared harness
# (tests/common/fuzzing.rs).
BITSOLVE_FUZZ_SEED="$seed" BITSOLVE_FUZZ_SECONDS="$seconds" \
  cargo test --locked --features mpi --test suite -- --nocapture \
  fuzz_inputs:: position_round_trip:: hash_fuzz:: http_fuzz::
