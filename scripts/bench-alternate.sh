#!/usr/bin/env bash
# Times builds of chimera against the first by alternating runs of the
# same bench: ROUNDS rounds, each running every build once in turn; the
# ratio of each build's nodes a CPU second to the first's in the same
# round, then the geometric mean and its 95% interval over the rounds.
# A shared machine's speed drifts by ±10% from run to run, and the rounds
# cancel the drift (docs/strength.md §57).
#
#   scripts/bench-alternate.sh ROUNDS BASE_BIN OTHER_BIN... [-- BENCH ARGS]
#   scripts/bench-alternate.sh 30 ./base ./new -- search --nnue --records recs.bin --sample 100 --depth 11 --plies 8-120
#
# Without BENCH ARGS: `bench --nnue`. Raw lines (round, build, nodes, CPU
# ms) go to stderr.
set -euo pipefail
rounds=${1:-}
[[ $# -gt 0 ]] && shift
bins=()
while [[ $# -gt 0 && $1 != -- ]]; do
  bins+=("$1")
  shift
done
[[ ${1:-} == -- ]] && shift
args=("$@")
[[ ${#args[@]} -eq 0 ]] && args=(--nnue)
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]] || [[ ${#bins[@]} -lt 2 ]]; then
  sed -n '2,13p' "$0" >&2
  echo "bench-alternate: ROUNDS must be a positive number, and two builds or more given" >&2
  exit 2
fi

out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for ((i = 1; i <= rounds; i++)); do
  for b in "${bins[@]}"; do
    if r=$("$b" bench "${args[@]}" 2>"$err"); then :; else
      echo "bench-alternate: round $i: \`$b bench ${args[*]}\` failed (exit status $?); its errors end:" >&2
      tail -n 5 "$err" >&2
      exit 1
    fi
    n=$(sed -n 's/^Nodes searched *: *//p' <<<"$r")
    t=$(sed -n 's/^CPU time (ms) *: *//p' <<<"$r")
    if ! [[ $n =~ ^[0-9]+$ && $t =~ ^[0-9]+$ ]]; then
      echo "bench-alternate: round $i: \`$b bench ${args[*]}\` printed no \"Nodes searched\" and \"CPU time (ms)\" lines (is it a chimera build?); its output ends:" >&2
      tail -n 5 <<<"$r" >&2
      exit 1
    fi
    echo "$i $b $n $t" | tee -a "$out" >&2
  done
done

python3 - "$out" "${bins[@]}" <<'EOF'
import math, sys
rows = [l.split() for l in open(sys.argv[1])]
bins = sys.argv[2:]
speed = {}
for i, b, n, t in rows:
    speed.setdefault(i, {})[b] = int(n) / max(int(t), 1)
base = bins[0]
for b in bins[1:]:
    lr = [math.log(r[b] / r[base]) for r in speed.values()]
    m = sum(lr) / len(lr)
    se = (sum((x - m) ** 2 for x in lr) / max(len(lr) - 1, 1)) ** 0.5 / len(lr) ** 0.5
    print(f"{b}: {math.exp(m):.3f} [{math.exp(m - 1.96 * se):.3f}, {math.exp(m + 1.96 * se):.3f}] "
          f"times the nodes a CPU second of {base} ({len(lr)} rounds)")
EOF
