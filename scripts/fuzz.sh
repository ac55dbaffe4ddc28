#!/usr/bin/env bash
# Runs every cargo-fuzz target (FEN, SAN, UCI-move and PGN readers; the
# engine's network-file and datagen-record readers) for a while each.
#
#   scripts/fuzz.sh                ~20 s per target
#   scripts/fuzz.sh 3600           an hour per target (long runs)
#   scripts/fuzz.sh 60 pgn         only the named targets
#   scripts/fuzz.sh --runs 20000   a fixed number of inputs per target (what
#                                  scripts/test.sh uses: the same amount of
#                                  fuzzing however loaded the machine is)
#
# --runs gives the same amount of fuzzing however loaded the machine is; a
# time limit gives less on a busy machine.
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

limit=(-max_total_time="${1:-20}")
if [[ "${1:-}" == --runs ]]; then
    limit=(-runs="${2:?--runs needs a number}")
    shift 2
else
    shift || true
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(fen san uci pgn network records)
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$t"
    # A network file is tens of kilobytes (the seed: a 16-wide net).
    max_len=4096
    [[ "$t" == network ]] && max_len=65536
    echo "fuzz.sh: $t (${limit[*]})" >&2
    cargo fuzz run --sanitizer none "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        "${limit[@]}" -max_len="$max_len" -print_final_stats=1
done
echo "fuzz.sh: no crash in ${targets[*]}" >&2
