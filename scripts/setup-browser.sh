#!/usr/bin/env bash
# Installs headless Chromium and chromedriver (Debian packages) for the
# server's real-browser tests (crates/server/tests/browser.rs), when missing.
set -euo pipefail
if command -v chromedriver >/dev/null 2>&1 && { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }; then
  echo "chromium and chromedriver present: $(command -v chromedriver)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium chromium-driver
command -v chromedriver
