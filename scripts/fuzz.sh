#!/usr/bin/env bash
# Runs every cargo-fuzz target (FEN, SAN, UCI-move and PGN readers) for a
# while each.
#
#   scripts/fuzz.sh            ~20 s per target
#   scripts/fuzz.sh 3600       an hour per target (long runs)
#   scripts/fuzz.sh 60 pgn     only the named targets
#
# Installs cargo-fuzz if missing. Only stable Rust is needed: libFuzzer's
# build flags need RUSTC_BOOTSTRAP=1, and the run uses --sanitizer none
# (the readers are safe Rust; what is looked for is panics).
# The seed corpus is fuzz/seeds/<target>/ (checked in, also run by the normal
# tests); the growing corpus goes to fuzz/corpus/<target>/ (not checked in).
# A crash is saved under fuzz/artifacts/<target>/: copy it into
# fuzz/seeds/<target>/ once fixed so the normal test run keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(fen san uci pgn)
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$t"
    echo "fuzz.sh: $t for ${seconds}s" >&2
    cargo fuzz run --sanitizer none "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$seconds" -max_len=4096 -print_final_stats=1
done
echo "fuzz.sh: no crash in ${targets[*]}" >&2
