"""What rejected requests leave behind in ``shengji serve``: near-limit requests (a hand of
far too many cards, each request different) sent one after another over one connection,
the server's resident memory before and after, and a normal request's latency meanwhile.

    python benchmarks/serve_rejected.py --agent default --requests 300 --cards 140000
"""

from __future__ import annotations

import argparse
import http.client
import json
import time
from pathlib import Path

from serve_load import sample_requests, start_server

CARDS = [
    f"{rank}{suit}"
    for suit in "SHDC"
    for rank in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
]


def resident_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return -1


def post(connection: http.client.HTTPConnection, body: bytes) -> int:
    connection.request("POST", "/decide", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="default")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--cards", type=int, default=140_000, help="cards in each hostile hand")
    args = parser.parse_args()
    server, port = start_server(["--agent", args.agent])
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        normal = sample_requests(50, seed=7)
        for body in normal:  # warm the caches with real requests
            post(connection, body)
        request = json.loads(normal[-1])
        before, statuses, latencies, size = resident_mb(server.pid), {}, [], 0
        for number in range(args.requests):
            hand = [CARDS[i % 52] for i in range(args.cards + number)]  # each one different
            body = json.dumps({**request, "hand": hand}).encode()
            size = len(body)
            status = post(connection, body)
            statuses[status] = statuses.get(status, 0) + 1
            if number % 25 == 0:
                started = time.perf_counter()
                post(connection, normal[number % len(normal)])
                latencies.append((time.perf_counter() - started) * 1e3)
        print(
            f"{args.requests} rejected requests of {size:,} bytes: statuses {statuses}; "
            f"server RSS {before} MB before, {resident_mb(server.pid)} MB after; a normal "
            f"request meanwhile at most {max(latencies):.1f} ms"
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
