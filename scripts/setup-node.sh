#!/usr/bin/env bash
# Installs the npm packages the browser tests use, pinned, into the ignored
# folder .node/ (not the repository): axe-core, the accessibility checker
# that crates/server/tests/browser_csp.rs injects into every page. Needs
# Node and npm (Debian: apt-get install nodejs npm). scripts/test.sh runs
# this unless CHIMERA_SKIP_BROWSER=1.
set -euo pipefail
cd "$(dirname "$0")/.."
AXE_VERSION=4.10.2
have=$(node -p "require('./.node/node_modules/axe-core/package.json').version" 2>/dev/null || true)
if [[ "$have" == "$AXE_VERSION" ]]; then
    echo "axe-core $AXE_VERSION present: .node/node_modules/axe-core"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "setup-node.sh: npm is missing (apt-get install nodejs npm), or set CHIMERA_SKIP_BROWSER=1" >&2
    exit 1
fi
mkdir -p .node
npm install --prefix .node --no-save --no-audit --no-fund --ignore-scripts "axe-core@$AXE_VERSION"
node -p "'axe-core ' + require('./.node/node_modules/axe-core/package.json').version"
