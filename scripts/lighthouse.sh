#!/usr/bin/env bash
# Lighthouse's four scores and the cumulative layout shift of the site's
# main pages, on a release build serving a fresh store (docs/server.md,
# "Lighthouse"). Installs Lighthouse (npm, pinned) into the ignored
# .node/lighthouse/ and uses the system's Chromium (scripts/setup-browser.sh).
#
#   scripts/lighthouse.sh                 # build, serve, measure, print the table
#   CHIMERA_BIN=path scripts/lighthouse.sh   # measure that binary (no build)
#   LIGHTHOUSE_PRESET=desktop scripts/lighthouse.sh   # desktop instead of the default phone
#
# The pages: the lobby, a game against the engine, a friend game, the
# analysis board, a rules page and a player's profile. Each page is measured
# with Lighthouse's default settings (a phone, throttled: the strictest);
# the reports (JSON) are kept in target/lighthouse/.
set -euo pipefail
cd "$(dirname "$0")/.."
LIGHTHOUSE_VERSION=12.2.3
lh=.node/lighthouse/node_modules/.bin/lighthouse
have=$(node -p "require('./.node/lighthouse/node_modules/lighthouse/package.json').version" 2>/dev/null || true)
if [[ "$have" != "$LIGHTHOUSE_VERSION" ]]; then
    command -v npm >/dev/null || { echo "lighthouse.sh: npm is missing (apt-get install nodejs npm)" >&2; exit 1; }
    mkdir -p .node/lighthouse
    npm install --prefix .node/lighthouse --no-save --no-audit --no-fund --ignore-scripts "lighthouse@$LIGHTHOUSE_VERSION"
fi
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[[ -n $chrome ]] || { echo "lighthouse.sh: no Chromium: run scripts/setup-browser.sh" >&2; exit 1; }

bin=${CHIMERA_BIN:-}
if [[ -z $bin ]]; then
    cargo build --release -p chimera
    bin=target/release/chimera
fi
out=target/lighthouse
rm -rf "$out"
mkdir -p "$out"
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
# The server at the lowest CPU priority: Lighthouse measures the phone's
# work, and a phone does not run the server (the analysis board's engine
# search would otherwise take one of a small machine's cores from the browser
# being measured).
nice -n 19 "$bin" serve --addr "127.0.0.1:$port" --data "$data" --bot-seeks off >"$out/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 100); do
    curl -sf "$base/api/health" >/dev/null && break
    sleep 0.1
done

post() { curl -sf -H 'Content-Type: application/json' -H "Origin: $base" -d "$2" "$base$1"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
engine=$(post /api/games '{"variant":"genie","mode":"engine","level":1,"color":"white"}' | field id)
friend=$(post /api/games '{"variant":"clown","mode":"friend","clock":{"minutes":5,"increment":3}}' | field id)
post /api/account/signup '{"username":"lighthouse","password":"a long pass phrase for lighthouse"}' >/dev/null

pages=(
    "lobby|/"
    "game vs the engine|/game/$engine"
    "friend game|/game/$friend"
    "analysis board|/analysis"
    "rules page|/rules/genie"
    "profile|/@/lighthouse"
)
preset=()
[[ -n ${LIGHTHOUSE_PRESET:-} ]] && preset=(--preset="$LIGHTHOUSE_PRESET")
n=0
for p in "${pages[@]}"; do
    n=$((n + 1))
    url="$base${p#*|}"
    CHROME_PATH=$chrome "$lh" "$url" --quiet --output=json --output-path="$out/$n.json" \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu" "${preset[@]}" ||
        { echo "lighthouse.sh: Lighthouse failed on $url" >&2; exit 1; }
done

python3 - "$out" "${pages[@]}" <<'EOF'
import json, sys
out, pages = sys.argv[1], sys.argv[2:]
cats = ["performance", "accessibility", "best-practices", "seo"]
print("| page | Performance | Accessibility | Best practices | SEO | CLS | below 0.9 |")
print("| --- | --- | --- | --- | --- | --- | --- |")
worst = 100
for n, p in enumerate(pages, 1):
    r = json.load(open(f"{out}/{n}.json"))
    scores = [round(r["categories"][c]["score"] * 100) for c in cats]
    worst = min(worst, *scores)
    cls = r["audits"]["cumulative-layout-shift"]["numericValue"]
    low = sorted(a for a, v in r["audits"].items()
                 if v.get("score") is not None and v.get("scoreDisplayMode") in ("binary", "numeric") and v["score"] < 0.9)
    print(f"| {p.split('|')[0]} | " + " | ".join(map(str, scores)) + f" | {cls:.3f} | {', '.join(low) or '–'} |")
print(f"\nlowest score: {worst}")
EOF
