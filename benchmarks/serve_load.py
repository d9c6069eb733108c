"""Load on ``shengji serve``: many clients at once, idle sockets, hostile bodies.

Starts the server as a subprocess pinned to core 0 (``taskset``) with an agent spec or an
exported policy, and drives it from this process pinned to core 1: ``--clients`` threads
each send ``--requests`` real decision requests (taken from seeded games) over one
keep-alive connection. Prints requests/s, latency percentiles, failures, and then the
same with 1,000 idle connections held open, with the server's thread count. With
``--hostile N`` it runs the load once more beside a crowd of ``--idle`` silent sockets
(each reopened as soon as the server closes it) and N clients that send, in a loop, the
worst requests the protocol's bounds allow (``benchmarks/protocol_bounds.py``).

    python benchmarks/serve_load.py --model exports/full-v4 --clients 50 --requests 200
    python benchmarks/serve_load.py --agent default --hostile 10
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

from shengji_env.frontends.protocol import request_for
from shengji_env.rules import Game, Phase, RuleConfig
from shengji_env.rules.sampling import random_action

ROOT = Path(__file__).resolve().parent.parent


def sample_requests(count: int, seed: int) -> list[bytes]:
    """Request bodies for decisions of seeded random games (every phase)."""
    rng = random.Random(seed)
    bodies: list[bytes] = []
    hand = 0
    while len(bodies) < count:
        game = Game(RuleConfig(), seed=seed + hand)
        hand += 1
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY) and len(bodies) < count:
            if rng.random() < 0.3:
                bodies.append(json.dumps(request_for(game, game.current_player)).encode())
            game.step(random_action(game, rng))
    return bodies


def start_server(source: list[str]) -> tuple[subprocess.Popen, int]:
    command = [sys.executable, "-m", "shengji_env.frontends.cli", "serve", *source, "--port", "0"]
    if os.cpu_count() and os.cpu_count() > 1:
        command = ["taskset", "-c", "0", *command]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    line = server.stderr.readline()
    return server, int(line.split("serving on http://")[1].split()[0].rsplit(":", 1)[1])


def client(port: int, bodies: list[bytes], latencies: list[float], failures: list[str]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for body in bodies:
        started = time.perf_counter()
        try:
            connection.request("POST", "/decide", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            data = response.read()
            if response.status != 200 or b'"cards"' not in data:
                failures.append(f"{response.status} {data[:80]!r}")
        except (OSError, http.client.HTTPException) as error:
            failures.append(repr(error))
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        latencies.append(time.perf_counter() - started)
    connection.close()


def load(port: int, bodies: list[bytes], clients: int, requests: int) -> dict[str, float]:
    latencies: list[float] = []
    failures: list[str] = []
    shares = [
        [bodies[(c * requests + i) % len(bodies)] for i in range(requests)] for c in range(clients)
    ]
    threads = [
        threading.Thread(target=client, args=(port, share, latencies, failures)) for share in shares
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    ms = np.array(latencies) * 1e3
    return {
        "requests": len(latencies),
        "failed": len(failures),
        "per_s": len(latencies) / elapsed,
        "p50_ms": float(np.percentile(ms, 50)),
        "p90_ms": float(np.percentile(ms, 90)),
        "p99_ms": float(np.percentile(ms, 99)),
        "max_ms": float(ms.max()),
    }


def silent_crowd(port: int, count: int, stop: threading.Event, reopened: list[int]) -> None:
    """Keep ``count`` connections open that never send a byte; reopen each one closed."""
    import select

    crowd = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    while not stop.is_set():
        closed, _, _ = select.select(crowd, [], [], 0.2)
        for connection in closed:
            connection.close()
            crowd[crowd.index(connection)] = socket.create_connection(("127.0.0.1", port))
            reopened[0] += 1
    for connection in crowd:
        connection.close()


def hostile_client(port: int, bodies: list[bytes], stop: threading.Event, seen: dict) -> None:
    """Send the worst allowed requests in a loop; count the answers by status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        for body in bodies:
            try:
                connection.request("POST", "/decide", body, {"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                seen[response.status] = seen.get(response.status, 0) + 1
            except (OSError, http.client.HTTPException):
                seen["dropped"] = seen.get("dropped", 0) + 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.close()


def worst_bodies() -> list[bytes]:
    """The protocol's worst allowed requests for 2 decks, as bodies."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from protocol_bounds import worst_allowed

    return [json.dumps(request).encode() for request in worst_allowed(2).values()]


def beside_attackers(port: int, bodies: list[bytes], args: argparse.Namespace) -> None:
    """The load again, beside the silent crowd and the hostile clients."""
    stop, reopened, seen = threading.Event(), [0], {}
    hostile = worst_bodies()
    helpers = [threading.Thread(target=silent_crowd, args=(port, args.idle, stop, reopened))]
    helpers += [
        threading.Thread(target=hostile_client, args=(port, hostile, stop, seen))
        for _ in range(args.hostile)
    ]
    for helper in helpers:
        helper.start()
    time.sleep(1.0)
    result = load(port, bodies, args.clients, args.requests)
    stop.set()
    for helper in helpers:
        helper.join()
    print(
        f"load beside {args.idle} silent sockets and {args.hostile} hostile clients:",
        json.dumps(result),
    )
    print(f"hostile answers by status: {seen}; silent sockets closed and reopened: {reopened[0]}")


def threads_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--model", help="an exported policy folder")
    group.add_argument("--agent", help="an agent spec")
    group.add_argument("--write-bodies", type=Path, help="only write the request bodies (wrk)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=200, help="requests per client")
    parser.add_argument("--idle", type=int, default=1000, help="idle connections held open")
    parser.add_argument("--hostile", type=int, default=0, help="clients sending worst requests")
    args = parser.parse_args()
    if args.write_bodies:
        args.write_bodies.write_bytes(b"\n".join(sample_requests(2000, seed=7)) + b"\n")
        return
    if os.cpu_count() and os.cpu_count() > 1:
        os.sched_setaffinity(0, {1})
    source = ["--model", args.model] if args.model else ["--agent", args.agent]
    server, port = start_server(source)
    try:
        bodies = sample_requests(2000, seed=7)
        load(port, bodies[:200], 4, 50)  # warm up
        print("load:", json.dumps(load(port, bodies, args.clients, args.requests)))
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(args.idle)]
        time.sleep(0.5)
        print(f"server threads with {len(idle)} idle connections: {threads_of(server.pid)}")
        print("load with them open:", json.dumps(load(port, bodies, 10, 50)))
        for connection in idle:
            connection.close()
        if args.hostile:
            beside_attackers(port, bodies, args)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
