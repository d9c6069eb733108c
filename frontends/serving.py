"""Two transports for the JSON decision protocol: JSON lines over stdin/stdout
(``shengji bot``) and HTTP (``shengji serve``: ``POST /decide``, ``GET /health``).

Both read a request through :func:`answer`, which never raises: a body of more than
:data:`MAX_REQUEST_BYTES`, nested deeper than :data:`MAX_DEPTH`, with an integer of more
than :data:`MAX_INT_DIGITS` digits, ``NaN``/``Infinity``, or anything the protocol refuses
gets an error answer and the next request is served. The HTTP server runs on uvicorn
(asyncio: idle connections cost no thread, a bounded backlog, keep-alive timeouts, a cap
on concurrent connections below the process's file limit) as a bare ASGI app; decisions run
one at a time on its event loop, so a stateful agent never sees two requests at once. A
connection that sends nothing for :data:`KEEP_ALIVE_SECONDS`, or takes more than
:data:`HEADER_SECONDS` to send a request's headers, is closed; a body that takes more than
:data:`BODY_SECONDS` is answered 408 and its connection closed. CORS is open (any origin may
ask).
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import re
import resource
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import IO, Any

from shengji_env.rules import RuleConfig

from .protocol import decide

MAX_REQUEST_BYTES = 1 << 20
MAX_DEPTH = 32
MAX_INT_DIGITS = 18
MAX_CONNECTIONS = 4096
BACKLOG = 1024
KEEP_ALIVE_SECONDS = 5
HEADER_SECONDS = 10
BODY_SECONDS = 10
FILES_KEPT = 64  # file descriptors kept free of connections (logs, models, the listener)


class BadRequest(ValueError):
    """A request body that is not a readable JSON request (too big, too deep, not JSON)."""


_LONG_DIGITS = re.compile(rf"\d{{{MAX_INT_DIGITS + 1}}}")
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


_ONLY_BRACKETS = str.maketrans({chr(c): None for c in range(128) if chr(c) not in "[]{}"})
_STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}


def _nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped). Without
    escapes, every other piece between quotes is a string: split, no regex (a third the
    cost on a request)."""
    escaped = "\\" in text
    outside = _STRINGS.sub("", text) if escaped else "".join(text.split('"')[0::2])
    steps = map(_STEPS.get, outside.translate(_ONLY_BRACKETS), itertools.repeat(0))
    return max(itertools.accumulate(steps), default=0)


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadRequest(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _constant(name: str) -> Any:
    raise BadRequest(f"{name} is not a JSON number")


def parse_request(text: str) -> Any:
    """The JSON value of a request body.

    Raises:
        BadRequest: the body is too large, nested too deep, not JSON, or holds a number
            JSON cannot carry (NaN, Infinity) or one too long.
    """
    if len(text) > MAX_REQUEST_BYTES:
        raise BadRequest(f"a request has at most {MAX_REQUEST_BYTES} bytes")
    if _nesting_depth(text) > MAX_DEPTH:
        raise BadRequest(f"a request is nested at most {MAX_DEPTH} levels deep")
    try:
        if _LONG_DIGITS.search(text) is None:  # no number can be too long: all in C
            return json.loads(text, parse_constant=_constant)
        return json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise BadRequest(f"malformed JSON: {error}") from None
    except RecursionError:
        raise BadRequest(f"a request is nested at most {MAX_DEPTH} levels deep") from None


def answer(text: str, agent: Any, config: RuleConfig) -> dict[str, Any]:
    """One response for one request text; never raises (an error answer instead)."""
    try:
        request = parse_request(text)
    except BadRequest as error:
        return {"id": None, "error": str(error)}
    return decide(request, agent, config)


def text_stdin() -> IO[str]:
    """Standard input as UTF-8 text in any locale: bytes that are not UTF-8 arrive as lone
    surrogates (``surrogateescape``), for the reader to refuse with an error instead of
    the decoder ending the process."""
    return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape")


def is_utf8(text: str) -> bool:
    """Whether ``text`` came from valid UTF-8 (no lone surrogates, see :func:`text_stdin`)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def serve_lines(agent: Any, config: RuleConfig, lines: IO[str], out: IO[str]) -> int:
    """Answer each non-empty input line with one output line; returns how many. A line
    longer than :data:`MAX_REQUEST_BYTES` is answered with an error and skipped; a last
    line without its newline (EOF mid-request) is still answered."""
    count = 0
    while True:
        line = lines.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            return count
        if len(line) > MAX_REQUEST_BYTES and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # the rest of the long line
                line = lines.readline(MAX_REQUEST_BYTES + 1)
            response: dict[str, Any] = {
                "id": None,
                "error": f"a request line has at most {MAX_REQUEST_BYTES} bytes",
            }
        elif not line.strip():
            continue
        elif not is_utf8(line):
            response = {"id": None, "error": "the request line is not UTF-8 text"}
        else:
            response = answer(line, agent, config)
        out.write(json.dumps(response) + "\n")
        out.flush()
        count += 1


Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]
CORS = [(b"access-control-allow-origin", b"*")]
PREFLIGHT = [
    *CORS,
    (b"access-control-allow-methods", b"GET, POST"),
    (b"access-control-max-age", b"600"),
]


def make_app(
    agent: Any, config: RuleConfig, info: dict[str, Any], body_seconds: float = BODY_SECONDS
) -> Any:
    """The ASGI application: ``POST /decide`` and ``GET /health``, CORS open. A bare ASGI
    callable (uvicorn speaks the protocol): the routing is two paths, and a framework's
    request and response objects cost a fifth of a decision's time (BENCHMARKS.md)."""
    health = json.dumps({"status": "ok", **info}).encode()

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        if method == "OPTIONS":
            allowed = dict(scope["headers"]).get(b"access-control-request-headers")
            headers = PREFLIGHT + ([(b"access-control-allow-headers", allowed)] if allowed else [])
            await _send(send, 200, b"OK", headers, b"text/plain")
        elif path not in ("/decide", "/health"):
            message = f"no such path {path}; use POST /decide or GET /health"
            await _send_json(send, 404, {"error": message})
        elif (path, method) not in (("/decide", "POST"), ("/health", "GET"), ("/health", "HEAD")):
            await _send_json(send, 405, {"error": f"{method} is not allowed here"})
        elif path == "/health":
            await _send(send, 200, health, CORS)
        else:
            status, response = await _decide(scope, receive, agent, config, body_seconds)
            await _send_json(send, status, response, CLOSE if status == 408 else [])

    return app


async def _decide(
    scope: dict[str, Any], receive: Receive, agent: Any, config: RuleConfig, body_seconds: float
) -> tuple[int, dict[str, Any]]:
    """The status and answer of one ``POST /decide``: the body read within its bounds."""
    length = dict(scope["headers"]).get(b"content-length")
    if length is not None and (not length.isdigit() or len(length) > 12):
        return 400, {"id": None, "error": f"bad Content-Length {length.decode(errors='replace')!r}"}
    if length is not None and int(length) > MAX_REQUEST_BYTES:
        return 413, TOO_BIG
    try:
        body = await asyncio.wait_for(_read_body(receive), body_seconds)
    except TimeoutError:
        return 408, {"id": None, "error": f"the request body took more than {body_seconds:g} s"}
    if isinstance(body, tuple):
        return body
    response = answer(body.decode("utf-8", errors="replace"), agent, config)
    return (400 if "error" in response else 200), response


TOO_BIG = {"id": None, "error": f"a request body has at most {MAX_REQUEST_BYTES} bytes"}
CLOSE = [(b"connection", b"close")]


async def _read_body(receive: Receive) -> bytes | tuple[int, dict[str, Any]]:
    """The request's body, or the refusal of one too large or left unfinished."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return 400, {"id": None, "error": "the client left before the body was read"}
        body += message.get("body", b"")
        if len(body) > MAX_REQUEST_BYTES:
            return 413, TOO_BIG
        if not message.get("more_body", False):
            return bytes(body)


async def _send_json(
    send: Send, status: int, payload: dict[str, Any], headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    body = json.dumps(payload, allow_nan=False).encode()
    await _send(send, status, body, [*CORS, *headers])


async def _send(
    send: Send,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]],
    media: bytes = b"application/json",
) -> None:
    head = [(b"content-type", media), (b"content-length", str(len(body)).encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


class HttpServer:
    """``shengji serve``'s server: uvicorn on a socket bound at creation (port 0 picks a
    free one, :attr:`port` tells which). :meth:`serve_forever` blocks; :meth:`shutdown`
    (from another thread) stops it."""

    def __init__(
        self,
        agent: Any,
        config: RuleConfig,
        host: str,
        port: int,
        info: dict[str, Any],
        idle_seconds: float = KEEP_ALIVE_SECONDS,
        header_seconds: float = HEADER_SECONDS,
        body_seconds: float = BODY_SECONDS,
    ) -> None:
        try:
            import uvicorn
        except ModuleNotFoundError:
            raise ValueError(
                "the HTTP server needs the serve extra: pip install 'shengji-env[serve]'"
            ) from None
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say they are TCP;
        # without it each answer's body waited for the client's delayed ACK (~40 ms).
        self.socket = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.socket.listen(BACKLOG)  # connections queue from now on, before serving starts
        self.port = self.socket.getsockname()[1]
        settings = uvicorn.Config(
            make_app(agent, config, info, body_seconds),
            log_level="warning",
            access_log=False,
            backlog=BACKLOG,
            limit_concurrency=connection_cap(),
            timeout_keep_alive=idle_seconds,
            lifespan="off",
            loop="asyncio",  # uvloop left 1-2% of answers waiting 2 s (BENCHMARKS.md)
            # httptools, the C parser (faster than h11 once TCP_NODELAY is on), closing
            # silent and slow connections
            http=impatient_protocol(header_seconds),
        )
        self.server = uvicorn.Server(settings)
        self._stopped = threading.Event()

    def serve_forever(self) -> None:
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        self.server.should_exit = True
        self._stopped.wait(timeout=10)

    def close(self) -> None:
        self.socket.close()


def make_server(
    agent: Any, config: RuleConfig, host: str, port: int, info: dict[str, Any], **timeouts: float
) -> HttpServer:
    """An HTTP server (not yet serving): ``POST /decide`` with a request body
    (``timeouts``: ``idle_seconds``, ``header_seconds``, ``body_seconds``)."""
    return HttpServer(agent, config, host, port, info, **timeouts)


def connection_cap() -> int:
    """Connections served at once: :data:`MAX_CONNECTIONS`, or fewer where the process may
    open fewer files (a socket is a file: past the limit, no one new is served)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - FILES_KEPT))


def impatient_protocol(header_seconds: float) -> type:
    """uvicorn's httptools protocol, closing connections that starve the server: one that
    sends nothing is closed after the keep-alive timeout (uvicorn starts that timer only
    after a first response), one whose request headers take more than ``header_seconds``
    is closed then."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class ImpatientProtocol(HttpToolsProtocol):
        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )
            self._header_deadline: Any = None

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._header_deadline = self.loop.call_later(header_seconds, self._too_slow)

        def on_headers_complete(self) -> None:
            if self._header_deadline is not None:
                self._header_deadline.cancel()
                self._header_deadline = None
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_deadline is not None:
                self._header_deadline.cancel()
            super().connection_lost(exc)

        def _too_slow(self) -> None:
            if not self.transport.is_closing():
                self.transport.close()

    return ImpatientProtocol
