#!/usr/bin/env bash
# The full fault suite of `chimera serve` (docs/server.md, "Fault suite"):
# 200 live friend games with both seats driven, 10 rounds of kill -9 during
# play, 3,000 created games, 40 abandoned and 40 flooded engine requests,
# 300 idle connections, bad input on every endpoint and message type, seat
# attacks. Release build, loopback only (client addresses 127.0.x.y), every
# loop bounded. The short version of the same tests runs in `cargo test`.
#
#   scripts/fault-suite.sh            figures on stdout and in target/fault-report.txt
set -euo pipefail
cd "$(dirname "$0")/.."
rm -f target/fault-report.txt
CHIMERA_FAULT_FULL=1 cargo test --release -p chimera-server --test fault -- --nocapture --test-threads=1 "$@"
echo "fault-suite.sh: report in target/fault-report.txt" >&2
cat target/fault-report.txt
