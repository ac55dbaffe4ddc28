#!/usr/bin/env bash
# Installs Stockfish (Debian's package, /usr/games/stockfish) when missing:
# the UCI engine that `chimera bot` connects to a server in the test of the
# Bot API's client (crates/cli/tests/api_clients.rs).
set -euo pipefail
if [ -x /usr/games/stockfish ]; then
  echo "stockfish present: /usr/games/stockfish"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y stockfish
ls -l /usr/games/stockfish
