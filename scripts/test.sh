#!/usr/bin/env bash
# The project's one test command (README: ./scripts/test.sh; CI: .ci/run).
#
#   ./scripts/test.sh                       the whole suite, in a lone copy of the repository (below)
#   CHIMERA_SLOW_TESTS=1 ./scripts/test.sh  also the big perft cases (> 20M nodes) and long oracle games
#   CHIMERA_FUZZ=0 ./scripts/test.sh        skip the cargo-fuzz run
#   CHIMERA_FUZZ_RUNS=1000000 ./scripts/test.sh  more inputs per target (default 20000)
#   CHIMERA_SKIP_BROWSER=1 ./scripts/test.sh     skip the headless Chromium tests
#   CHIMERA_SKIP_ENGINES=1 ./scripts/test.sh     skip the test of chimera bot with Stockfish
#   CHIMERA_SKIP_POSTGRES=1 ./scripts/test.sh    skip the PostgreSQL (multi-instance) tests
#   CHIMERA_LONE_COPY=0 ./scripts/test.sh   run in this checkout instead of a lone copy
#
# A lone copy: the suite does not run in this checkout but in a copy of its
# files (tracked, and untracked ones git does not ignore) in a directory of
# its own under $TMPDIR, with nothing beside it. So a test, script or doc
# that needs anything outside the repository fails here as it would on a
# user's fresh clone. The copy's place is fixed per checkout and its target/
# and .venv are kept between runs, so a second run rebuilds only what changed.
#
# Steps: set-up (Python venv with the oracles, Chromium, Stockfish), hygiene (rustfmt,
# clippy with warnings as errors, the self-containment check, rustdoc of the
# rules crate with warnings as errors), cargo test of the workspace (test
# profile: opt-level 3, no LTO), the rules crate's examples, then a short
# cargo-fuzz run of every target. Costs: docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

t0=$SECONDS
phase() { echo "test.sh: $1 ($((SECONDS - t0)) s so far)" >&2; }

if [[ "${CHIMERA_LONE_COPY:-1}" != 0 && -z "${CHIMERA_IN_LONE_COPY:-}" ]]; then
    key=$(printf '%s' "$PWD" | cksum | cut -d' ' -f1)
    home="${TMPDIR:-/tmp}/chimera-lone-copy-$key"
    copy="$home/chimera"
    mkdir -p "$copy"
    # Refresh the copy: everything but its build outputs and venv goes, then the
    # repository's files come back with their times (so cargo rebuilds only
    # what changed).
    find "$copy" -mindepth 1 -maxdepth 1 ! -name target ! -name .venv ! -name fuzz -exec rm -rf {} +
    find "$copy/fuzz" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} + 2>/dev/null || true
    if git rev-parse --git-dir >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
            [[ -e $f ]] && printf '%s\0' "$f"
        done | tar --null -T - -cf - | tar -xf - -C "$copy"
    else
        tar --exclude=./target --exclude=./.venv --exclude=./fuzz/target -cf - . | tar -xf - -C "$copy"
    fi
    beside=$(find "$home" -mindepth 1 -maxdepth 1 ! -name chimera)
    if [[ -n $beside ]]; then
        echo "test.sh: the lone copy has company: $beside" >&2
        exit 1
    fi
    echo "test.sh: running the suite in a lone copy, $copy (nothing beside it)" >&2
    CHIMERA_IN_LONE_COPY=1 exec bash "$copy/scripts/test.sh" "$@"
fi

bash scripts/setup-python.sh
if [[ "${CHIMERA_SKIP_BROWSER:-0}" != 1 ]]; then
    bash scripts/setup-browser.sh
    bash scripts/setup-node.sh
fi
if [[ "${CHIMERA_SKIP_ENGINES:-0}" != 1 ]]; then bash scripts/setup-engines.sh; else echo "test.sh: *** CHIMERA_SKIP_ENGINES=1: the chimera bot test with Stockfish is SKIPPED ***" >&2; fi
if [[ "${CHIMERA_SKIP_POSTGRES:-0}" != 1 ]]; then bash scripts/setup-postgres.sh; else echo "test.sh: *** CHIMERA_SKIP_POSTGRES=1: the PostgreSQL tests (two instances on one database) are SKIPPED ***" >&2; fi
CHIMERA_PYTHON="${CHIMERA_PYTHON:-$PWD/.venv/bin/python}"
export CHIMERA_PYTHON
phase "set-up done"

cargo fmt --all --check
bash scripts/check-self-contained.sh
cargo clippy --workspace --all-targets --quiet -- -D warnings
# The server as its features allow it: without the /lab pages, and with the
# lab that only reads studies (no self-play, no tuner); it never links the
# network trainer.
cargo clippy --quiet -p chimera-server --no-default-features --all-targets -- -D warnings
cargo clippy --quiet -p chimera-lab --no-default-features --all-targets -- -D warnings
if cargo tree -p chimera-server -e normal --prefix none | grep -q '^chimera-train '; then
    echo "test.sh: chimera-server links the trainer (chimera-train):" >&2
    cargo tree -p chimera-server -e normal -i chimera-train >&2
    exit 1
fi
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet -p chimera-rules
# The library as crates.io would get it: packaged alone and built from the package.
if ! out=$(cargo publish --dry-run --allow-dirty -p chimera-rules 2>&1); then
    echo "$out" >&2
    exit 1
fi
phase "hygiene done (rustfmt, self-containment, clippy, rustdoc, package)"

# CHIMERA_SLOW_TESTS=1 is read by the perft driver (crates/rules/tests/perft.rs).
cargo test --workspace
# The tuning build (scripts/spsa.py): its numbers are options and take values.
cargo clippy --quiet -p chimera-engine --features spsa --all-targets -- -D warnings
cargo test --quiet -p chimera-engine --features spsa --lib search_params
cargo test --quiet -p chimera-engine --features spsa --test uci_protocol search_numbers
phase "cargo test done"

# The library's examples, run as a user would (each exits non-zero on failure).
cargo run --quiet --profile test -p chimera-rules --example legal_moves -- genesis >/dev/null
cargo run --quiet --profile test -p chimera-rules --example genie_game >/dev/null
cargo run --quiet --profile test -p chimera-rules --example read_pgn >/dev/null
phase "examples done"

if [[ "${CHIMERA_FUZZ:-1}" != 0 ]]; then
    bash scripts/fuzz.sh --runs "${CHIMERA_FUZZ_RUNS:-20000}"
    phase "fuzzing done"
fi
phase "all tests passed"
