"""Two transports for the JSON decision protocol: JSON lines over stdin/stdout
(``shengji bot``) and HTTP (``shengji serve``, ``POST /decide``, ``GET /health``)."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO, Any

from shengji_env.rules import RuleConfig

from .protocol import decide

MAX_REQUEST_BYTES = 1 << 20


def answer(text: str, agent: Any, config: RuleConfig) -> dict[str, Any]:
    """One response for one request text; malformed JSON gets an error response."""
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        return {"id": None, "error": f"malformed JSON: {error}"}
    return decide(request, agent, config)


def serve_lines(agent: Any, config: RuleConfig, lines: IO[str], out: IO[str]) -> int:
    """Answer each non-empty input line with one output line; returns how many."""
    count = 0
    for line in lines:
        if not line.strip():
            continue
        out.write(json.dumps(answer(line, agent, config)) + "\n")
        out.flush()
        count += 1
    return count


def make_server(
    agent: Any, config: RuleConfig, host: str, port: int, info: dict[str, Any]
) -> ThreadingHTTPServer:
    """An HTTP server (not yet serving): ``POST /decide`` with a request body."""

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/health":
                self._send(200, {"status": "ok", **info})
            else:
                self._send(404, {"error": f"no such path {self.path}; use POST /decide"})

        def do_POST(self) -> None:
            if self.path != "/decide":
                self._send(404, {"error": f"no such path {self.path}; use POST /decide"})
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_REQUEST_BYTES:
                self._send(413, {"error": f"a request body must have 0..{MAX_REQUEST_BYTES} bytes"})
                return
            text = self.rfile.read(length).decode("utf-8", errors="replace")
            response = answer(text, agent, config)
            self._send(400 if "error" in response else 200, response)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: a server for programs, not people

    return ThreadingHTTPServer((host, port), Handler)
