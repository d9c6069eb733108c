"""An outside bot that misbehaves in one way (the first argument) from its Nth request
(the second, default 1), and until then passes or plays the first card of its hand — the
arena's tests seat it as ``cmd:"python hostile.py MODE N"``.

Modes: sleep (past any limit), exit (mid-hand), garbage, foreign (cards it does not hold),
flood (an endless line), memory (allocates past the cap), snoop (answers with the names of
its environment variables as an error: it must find no other seat's cards there)."""

import json
import os
import sys
import time

mode, start = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1
for number, line in enumerate(sys.stdin, start=1):
    request = json.loads(line)
    if number >= start:
        if mode == "sleep":
            time.sleep(3600)
        if mode == "exit":
            sys.exit(3)
        if mode == "garbage":
            print("this is not JSON {", flush=True)
            continue
        if mode == "foreign":
            held = set(request["hand"])
            other = next(c for c in ("BJ", "SJ", "AS", "2C", "3D") if c not in held)
            print(json.dumps({"cards": [other]}), flush=True)
            continue
        if mode == "flood":
            while True:
                sys.stdout.write("x" * 65536)
        if mode == "memory":
            hoard = bytearray(4 << 30)
        if mode == "snoop":
            print(json.dumps({"error": "environment: " + " ".join(sorted(os.environ))}), flush=True)
            continue
    cards = [] if request["phase"] == "bid" else request["hand"][:1]
    print(json.dumps({"cards": cards}), flush=True)
