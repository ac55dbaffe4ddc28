#!/usr/bin/env python3
"""Finding 4 of the fault suite, probed over a real WebSocket (Python's standard
library only): creates a hot-seat game on the server at ADDR (loopback
only), sends {"t":"resign","confirm":false} and prints whether the game
ended. Before the fix it resigned; now the message is refused.

    python3 scripts/fault-probe-ws.py 127.0.0.1:PORT
"""
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.request

addr = sys.argv[1]
host, port = addr.rsplit(":", 1)
if not (host.startswith("127.") or host == "localhost"):
    sys.exit("loopback addresses only")


def post(path, body):
    req = urllib.request.Request(f"http://{addr}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=10))


game = post("/api/games", {"variant": "chess", "mode": "hotseat"})
s = socket.create_connection((host, int(port)), timeout=10)
key = base64.b64encode(os.urandom(16)).decode()
s.sendall((f"GET /ws/{game['id']}?token={game['token']} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n"
           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
head = b""
while b"\r\n\r\n" not in head:
    chunk = s.recv(4096)
    if not chunk:
        sys.exit("the server closed the connection during the upgrade")
    head += chunk
data = b'{"t":"resign","confirm":false}'
mask = os.urandom(4)
s.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
time.sleep(1.0)
state = json.load(urllib.request.urlopen(f"http://{addr}/api/games/{game['id']}", timeout=10))
status = state.get("status")
print(f"   game status after the message: {status} ({'resigned: finding reproduced' if status == 'finished' else 'refused'})")
s.close()
