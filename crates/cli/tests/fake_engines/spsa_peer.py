#!/usr/bin/env python3
"""A fake peer of scripts/spsa.py, both the tuning build and `chimera match`.

  spsa_peer.py uci     answers as a tuning build: the `info string spsa`
                       lines of two numbers, x (default 10, range 0-40,
                       step 2) and y (default 5, range 0-9, step 1)
  spsa_peer.py match ... --engine name=plus,...,option.Tune_x=V,... --engine name=minus,...
                       prints a match result in `chimera match`'s words:
                       the side with the larger x wins 3 games, loses
                       none and draws 1; y changes nothing. With the
                       environment's SPSA_PEER_FAULT set it reports a fault.
"""
import os
import sys

if sys.argv[1:2] == ["uci"]:
    sys.stdin.read()
    print("id name spsa-peer")
    print("info string spsa x,10,0,40,2")
    print("info string spsa y,5,0,9,1")
    print("uciok")
    sys.exit(0)

engines = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--engine"]
x = []
for spec in engines:
    opts = dict(kv.split("=", 1) for kv in spec.split(",") if "=" in kv)
    x.append(int(opts["option.Tune_x"]))
wins, losses = (3, 0) if x[0] > x[1] else (0, 3) if x[0] < x[1] else (0, 0)
print(f"Score of plus vs minus: {wins} - {losses} - 1  [0.5] {wins + losses + 1}")
print("Faults: 1 illegal move" if os.environ.get("SPSA_PEER_FAULT") else "Faults: none")
