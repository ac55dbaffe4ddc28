#!/usr/bin/env bash
# The project's one test command (README: ./scripts/test.sh; CI: .ci/run).
#
#   ./scripts/test.sh                       the whole suite (test profile: opt-level 3, no LTO),
#                                           then a short cargo-fuzz run of every target
#   CHIMERA_SLOW_TESTS=1 ./scripts/test.sh  also the big perft cases (> 20M nodes)
#   CHIMERA_FUZZ=0 ./scripts/test.sh        skip the cargo-fuzz run
#   CHIMERA_FUZZ_RUNS=1000000 ./scripts/test.sh  more inputs per target (default 20000)
#
# The cargo test run already feeds every reader (FEN, SAN, UCI, PGN) random
# input and the seed corpus through the fuzz targets' bodies
# (crates/rules/tests/properties.rs), so panics are caught even with
# CHIMERA_FUZZ=0. Long fuzzing: scripts/fuzz.sh 3600.
set -euo pipefail
cd "$(dirname "$0")/.."

t0=$SECONDS
phase() { echo "test.sh: $1 ($((SECONDS - t0)) s so far)" >&2; }

if [[ ! -d ../shared ]]; then
    echo "test.sh: note: ../shared (the rules and reference texts) is not beside the repository" >&2
fi

bash scripts/setup-python.sh
if [[ -f scripts/setup-browser.sh ]]; then
    bash scripts/setup-browser.sh
fi
CHIMERA_PYTHON="${CHIMERA_PYTHON:-$PWD/.venv/bin/python}"
export CHIMERA_PYTHON
phase "set-up done"

# CHIMERA_SLOW_TESTS=1 is read by the perft driver (crates/rules/tests/perft.rs).
cargo test --workspace
phase "cargo test done"

if [[ "${CHIMERA_FUZZ:-1}" != 0 ]]; then
    bash scripts/fuzz.sh --runs "${CHIMERA_FUZZ_RUNS:-20000}"
    phase "fuzzing done"
fi
phase "all tests passed"
