#!/usr/bin/env python3
"""Writes the games of the store fixtures (scripts/make-store-fixtures.sh)
through a running `chimera serve`: HTTP for creating and joining games, a
minimal WebSocket client (RFC 6455, standard library only) for the moves.

Usage: store_fixture_client.py HOST:PORT

Prints one line per game made. Exits non-zero on anything unexpected.
"""

import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.error
import urllib.request

ADDR = sys.argv[1]
HOST, PORT = ADDR.rsplit(":", 1)
PORT = int(PORT)


def post(path, body):
    req = urllib.request.Request(
        f"http://{ADDR}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise SystemExit(f"POST {path} {body}: {e.code} {e.read().decode()}")


def get(path):
    with urllib.request.urlopen(f"http://{ADDR}{path}", timeout=30) as r:
        return json.loads(r.read())


class Ws:
    def __init__(self, game, token):
        self.s = socket.create_connection((HOST, PORT), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        q = f"?token={token}" if token else ""
        self.s.sendall(
            (
                f"GET /ws/{game}{q} HTTP/1.1\r\nHost: {ADDR}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.s.recv(1)
            if not chunk:
                raise SystemExit("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise SystemExit(f"websocket handshake refused: {head!r}")

    def _read(self, n):
        b = b""
        while len(b) < n:
            chunk = self.s.recv(n - len(b))
            if not chunk:
                raise SystemExit("websocket closed")
            b += chunk
        return b

    def recv(self):
        while True:
            b0, b1 = self._read(2)
            op, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            if op == 1:
                return json.loads(payload)
            if op == 8:
                raise SystemExit(f"websocket closed by the server: {payload!r}")
            if op == 9:
                self._frame(10, payload)

    def _frame(self, op, payload):
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | op])
        if n < 126:
            head += bytes([0x80 | n])
        else:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        body = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
        self.s.sendall(head + mask + body)

    def send(self, v):
        self._frame(1, json.dumps(v).encode())

    def wait(self, pred, what):
        t0 = time.time()
        while time.time() - t0 < 30:
            v = self.recv()
            if v.get("t") == "error":
                raise SystemExit(f"{what}: error {v}")
            if v.get("t") == "state" and pred(v):
                return v
        raise SystemExit(f"{what}: timed out")

    def close(self):
        try:
            self._frame(8, struct.pack(">H", 1000))
        finally:
            self.s.close()


def play(game, seats, moves, start_ply=0):
    """Plays `moves` from ply `start_ply`; `seats` is (white token, black token)."""
    socks = {t: Ws(game, t) for t in set(seats)}
    for ply, uci in enumerate(moves, start_ply):
        w = socks[seats[ply % 2]]
        w.send({"t": "move", "uci": uci, "ply": ply})
        w.wait(lambda s, p=ply: s.get("ply", 0) >= p + 1, f"{game} ply {ply} {uci}")
    return socks


def main():
    made = []
    # A hotseat chess game in progress.
    g = post("/api/games", {"variant": "chess", "mode": "hotseat"})
    for s in play(g["id"], (g["token"], g["token"]), ["e2e4", "e7e5", "g1f3"]).values():
        s.close()
    made.append(("hotseat chess, 3 plies, Black to move", g["id"], g["token"], None))

    # A friend game in Genie with a clock, joined, 4 plies played.
    g = post(
        "/api/games",
        {"variant": "genie", "mode": "friend", "color": "white", "clock": {"minutes": 60, "increment": 5}},
    )
    j = post(f"/api/games/{g['id']}/join", {"invite": g["invite"], "name": "friend"})
    socks = play(g["id"], (g["token"], j["token"]), ["d2d4", "d7d5", "c2c4", "e7e6"])
    for s in socks.values():
        s.close()
    made.append(("friend genie 60+5, joined, 4 plies", g["id"], g["token"], j["token"]))

    # A Magic Ring friend game whose invite nobody has taken yet.
    g = post("/api/games", {"variant": "magicring", "ring_powers": "NKQ", "mode": "friend", "color": "black"})
    made.append(("friend magicring NKQ, invite open", g["id"], g["token"], g["invite"]))

    # An open seek in the lobby (Clown, 5+3).
    g = post(
        "/api/games",
        {"variant": "clown", "mode": "seek", "color": "random", "clock": {"minutes": 5, "increment": 3}, "name": "seeker"},
    )
    made.append(("open seek clown 5+3", g["id"], g["token"], None))

    # A finished game: hotseat chess, resigned after two plies.
    g = post("/api/games", {"variant": "chess", "mode": "hotseat"})
    socks = play(g["id"], (g["token"], g["token"]), ["f2f3", "e7e5"])
    w = socks[g["token"]]
    w.send({"t": "resign"})
    w.wait(lambda s: s.get("status") == "finished", "resign")
    w.close()
    made.append(("hotseat chess, resigned (finished)", g["id"], g["token"], None))

    # An engine game: the player (White) moves, the engine (level 1) answers.
    g = post("/api/games", {"variant": "chess", "mode": "engine", "level": 1, "color": "white"})
    socks = play(g["id"], (g["token"], None), ["e2e4"])
    w = socks[g["token"]]
    w.wait(lambda s: s.get("ply", 0) >= 2, "engine reply")
    w.close()
    made.append(("engine chess level 1, 2 plies", g["id"], g["token"], None))

    seeks = get("/api/seeks")
    assert any(s.get("id") == made[3][1] for s in (seeks if isinstance(seeks, list) else seeks.get("seeks", []))), seeks
    for what, gid, tok, other in made:
        print(f"{gid} {tok} {other or '-'} # {what}")


main()
