#!/usr/bin/env bash
# The project's one test command (README: ./scripts/test.sh; CI: .ci/run).
#
#   ./scripts/test.sh                      the whole suite (release test profile)
#   CHIMERA_SLOW_TESTS=1 ./scripts/test.sh also the big perft cases (> 20M nodes)
#   CHIMERA_FUZZ=1 ./scripts/test.sh       also a short cargo-fuzz run of every
#                                          target (installs cargo-fuzz if missing;
#                                          CHIMERA_FUZZ_SECONDS per target, default 20)
#
# The default run already feeds every reader (FEN, SAN, UCI, PGN) random and
# seed-corpus input through the fuzz targets' bodies (crates/rules/tests/properties.rs,
# fuzz_corpus test), so panics are caught without cargo-fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -d ../shared ]]; then
    echo "test.sh: note: ../shared (the rules and reference texts) is not beside the repository" >&2
fi

bash scripts/setup-python.sh
if [[ -f scripts/setup-browser.sh ]]; then
    bash scripts/setup-browser.sh
fi
CHIMERA_PYTHON="${CHIMERA_PYTHON:-$PWD/.venv/bin/python}"
export CHIMERA_PYTHON

# CHIMERA_SLOW_TESTS=1 is read by the perft driver (crates/rules/tests/perft.rs).
cargo test --workspace --release

if [[ "${CHIMERA_FUZZ:-0}" == 1 ]]; then
    bash scripts/fuzz.sh "${CHIMERA_FUZZ_SECONDS:-20}"
fi
echo "test.sh: all tests passed"
