#!/usr/bin/env python3
"""A scripted fake UCI engine for testing `chimera match`.

It plays the moves it is given, one per `go` (counted from `ucinewgame`),
and misbehaves on request:

  --moves e2e4/g1f3      moves to answer, in order ('0000' once they run out)
  --crash-at N           exit(3) on the Nth go without answering
  --sleep-at N --sleep S sleep S seconds on the Nth go before answering
  --hang-at N            never answer the Nth go
  --score CP             print 'info depth 1 score cp CP' before each bestmove
  --variants a/b         announce a UCI_Variant combo with these values
  --require-variant V    answer '0000' unless 'setoption name UCI_Variant value V' came
  --path-adds V          as Fairy-Stockfish's VariantPath: after 'setoption name
                         VariantPath value ...', the next 'uci' lists variant V too
  --log PATH             append every line received to PATH
"""
import sys
import time


def main():
    args = sys.argv[1:]
    opt = {}
    i = 0
    while i < len(args):
        if args[i].startswith("--") and i + 1 < len(args):
            opt[args[i][2:]] = args[i + 1]
            i += 2
        else:
            sys.stderr.write("fake engine: bad argument %r\n" % args[i])
            sys.exit(2)
    moves = [m for m in opt.get("moves", "").split("/") if m]
    crash_at = int(opt.get("crash-at", "0"))
    sleep_at = int(opt.get("sleep-at", "0"))
    sleep_s = float(opt.get("sleep", "0"))
    hang_at = int(opt.get("hang-at", "0"))
    score = opt.get("score")
    variants = [v for v in opt.get("variants", "").split("/") if v]
    required = opt.get("require-variant")
    path_adds = opt.get("path-adds")
    log = open(opt["log"], "a") if "log" in opt else None
    variant = "chess"
    gos = 0

    def say(s):
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            say("id name Scripted")
            say("id author chimera tests")
            say("option name Hash type spin default 16 min 1 max 1024")
            if path_adds:
                say("option name VariantPath type string default <empty>")
            if variants:
                say("option name UCI_Variant type combo default chess" + "".join(" var " + v for v in variants))
            say("uciok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "ucinewgame":
            gos = 0
        elif cmd == "setoption" and line.startswith("setoption name UCI_Variant value "):
            variant = line.split()[-1]
            if variant not in variants:
                # Fairy-Stockfish ignores a variant it does not know.
                variant = "chess"
        elif cmd == "setoption" and line.startswith("setoption name VariantPath value ") and path_adds:
            if path_adds not in variants:
                variants.append(path_adds)
        elif cmd == "go":
            gos += 1
            if gos == crash_at:
                sys.exit(3)
            if gos == hang_at:
                continue
            if gos == sleep_at:
                time.sleep(sleep_s)
            mv = moves[gos - 1] if gos <= len(moves) else "0000"
            if required and variant != required:
                mv = "0000"
            if score is not None:
                say("info depth 1 score cp %s nodes 1 pv %s" % (score, mv))
            say("bestmove " + mv)
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
