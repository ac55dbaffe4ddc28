#!/usr/bin/env bash
# A profile-guided build of `chimera` (as Stockfish's `make profile-build`):
#
#   1. an instrumented release build (rustc -Cprofile-generate);
#   2. it runs `chimera bench` and `chimera bench --nnue` (every variant,
#      the hand-made evaluation and the nets), which writes the profile;
#   3. llvm-profdata merges the profile;
#   4. the release build again, laid out and inlined by the profile
#      (rustc -Cprofile-use).
#
# The result is target/pgo/chimera: the same program, the same moves (the
# bench signatures are printed for both builds and must agree), searching
# about 7% more nodes a second than `cargo build --release` on a 2-vCPU AMD
# EPYC (docs/strength.md §57). Nothing needs it; it is for matches and for
# serving. Two full builds: about 15 minutes on two cores.
#
# Needs rustup's llvm-tools component (added when missing). Usage:
#   scripts/build-pgo.sh            # PGO_DIR=target/pgo by default
#   TARGET_CPU=x86-64-v3 scripts/build-pgo.sh
#
# TARGET_CPU (x86-64 only; default x86-64-v2, as .cargo/config.toml) is
# rustc's -C target-cpu: x86-64-v3 (AVX2, BMI2: Intel since 2013, AMD since
# 2015) gave a plain build 1.048 [1.018, 1.079] times the nodes a second of
# the v2 build on a Zen 4 EPYC, and with the profile 1.035 [1.013, 1.057]
# times the plain v2 build's (docs/strength.md §58); `native` fits the
# build machine alone. Such a binary stops with an illegal instruction on a
# CPU without those instructions.
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')

# RUSTFLAGS replaces the flags of .cargo/config.toml, so they are repeated.
base=""
if [[ $host == x86_64-* ]]; then
  cpu=${TARGET_CPU:-x86-64-v2}
  if ! [[ $cpu =~ ^[A-Za-z0-9_.-]+$ ]]; then
    echo "build-pgo: TARGET_CPU must be a CPU name such as x86-64-v3 or native, not '$cpu'" >&2
    exit 2
  fi
  base="-C target-cpu=$cpu"
elif [[ -n ${TARGET_CPU:-} ]]; then
  echo "build-pgo: TARGET_CPU is for x86-64 hosts; this one is $host" >&2
  exit 2
fi

dir=${PGO_DIR:-$PWD/target/pgo}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [[ ! -x $profdata ]]; then
  rustup component add llvm-tools
fi

raw="$dir/profraw"
rm -rf "$raw" "$dir/merged.profdata"
echo "build-pgo: instrumented build" >&2
RUSTFLAGS="$base -Cprofile-generate=$raw" cargo build --release -p chimera --target-dir "$dir/gen"
gen="$dir/gen/release/chimera"
"$gen" bench >"$dir/bench-gen.txt" 2>/dev/null
"$gen" bench --nnue >"$dir/bench-gen-nnue.txt" 2>/dev/null
"$profdata" merge -o "$dir/merged.profdata" "$raw"

echo "build-pgo: optimised build" >&2
RUSTFLAGS="$base -Cprofile-use=$dir/merged.profdata" cargo build --release -p chimera --target-dir "$dir/use"
cp "$dir/use/release/chimera" "$dir/chimera"
"$dir/chimera" bench >"$dir/bench-use.txt" 2>/dev/null
"$dir/chimera" bench --nnue >"$dir/bench-use-nnue.txt" 2>/dev/null

for f in bench bench-nnue; do
  a=$(grep 'Nodes searched' "$dir/${f/bench/bench-gen}.txt")
  b=$(grep 'Nodes searched' "$dir/${f/bench/bench-use}.txt")
  if [[ $a != "$b" ]]; then
    echo "build-pgo: the signatures differ ($f): $a / $b" >&2
    exit 1
  fi
  echo "$f: $b (both builds)"
done
echo "build-pgo: $dir/chimera"
