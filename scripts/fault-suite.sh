#!/usr/bin/env bash
# The fault suite of `chimera serve` (docs/server.md, "Fault suite").
#
#   scripts/fault-suite.sh                 the full suite: 200 live friend games with both
#                                          seats driven, 10 rounds of kill -9 during play,
#                                          3,000 created games, 40 abandoned and 40 flooded
#                                          engine requests, 300 idle connections, bad input on
#                                          every endpoint and message type, seat attacks.
#                                          The second pass (tests/fault_play.rs): rematch
#                                          against the limits and across two instances, a
#                                          400-ply game's state polled, a restart after
#                                          kill -9, JSON arrays, 2,000 invite guesses; and
#                                          the connection layer (tests/fault_net.rs): idle
#                                          spectator sockets from 50 addresses during play,
#                                          Host, WebSocket close, errors below the router,
#                                          security headers, fd exhaustion.
#                                          Release build; figures on stdout and in
#                                          target/fault-report.txt.
#   scripts/fault-suite.sh --probe ADDR    a quick probe with curl (and python3 for the
#                                          WebSocket) of findings 2, 3, 4, 5, 7, 8 and 9 of
#                                          the fault suite against a server already running
#                                          at ADDR (e.g. an old build, to see them fail)
#
# Loopback only (client addresses 127.0.x.y), every loop bounded. The short
# version of the same tests runs in `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--probe" ]]; then
    A="${2:?usage: scripts/fault-suite.sh --probe 127.0.0.1:PORT}"
    case "$A" in 127.*|localhost:*) ;; *) echo "loopback addresses only" >&2; exit 2 ;; esac
    json='Content-Type: application/json'
    code() { curl -s -m 10 -o /dev/null -w '%{http_code}' "$@"; }
    echo "2. join a friend game with its public id only (want 400):"
    id=$(curl -s -m 10 -X POST -H "$json" -d '{"variant":"chess","mode":"friend"}' "http://$A/api/games" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p')
    echo "   $(code -X POST -H "$json" -d '{}' "http://$A/api/games/$id/join")"
    echo "3. 30 games created from one address (want 429 after the burst):"
    printf '   '
    for _ in $(seq 30); do printf '%s ' "$(code -X POST -H "$json" -d '{"variant":"chess","mode":"hotseat"}' "http://$A/api/games")"; done
    echo
    echo "4. {\"t\":\"resign\",\"confirm\":false} over a WebSocket (want refused):"
    python3 scripts/fault-probe-ws.py "$A"
    echo "5. a silent connection (want closed within 12 s):"
    if exec 3<>"/dev/tcp/${A%:*}/${A##*:}"; then
        if timeout 12 cat <&3 >/dev/null; then echo "   closed"; else echo "   still open after 12 s"; fi
        exec 3<&-
    fi
    echo "7. foreign Host; cross-site text/plain POST (want 421; 403):"
    echo "   $(code -H 'Host: rebind.example' "http://$A/api/games"); $(code -X POST -H 'Origin: http://evil.example' -H 'Content-Type: text/plain' -d '{"variant":"chess","mode":"hotseat"}' "http://$A/api/games")"
    echo "8. DELETE /api/games; GET /nope (want JSON bodies):"
    echo "   $(curl -s -m 10 -X DELETE "http://$A/api/games" -w ' [%{http_code} %{content_type}]'); $(curl -s -m 10 "http://$A/nope" -w ' [%{http_code} %{content_type}]')"
    echo "9. a clock of 1e-9 minutes (want 400):"
    echo "   $(code -X POST -H "$json" -d '{"variant":"chess","mode":"hotseat","clock":{"minutes":1e-9,"increment":0}}' "http://$A/api/games")"
    exit 0
fi

rm -f target/fault-report.txt
CHIMERA_FAULT_FULL=1 cargo test --release -p chimera-server --test fault --test fault_play --test fault_net -- --nocapture --test-threads=1 "$@"
echo "fault-suite.sh: report in target/fault-report.txt" >&2
cat target/fault-report.txt
