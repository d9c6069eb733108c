"""Two transports for the JSON decision protocol: JSON lines over stdin/stdout
(``shengji bot``) and HTTP (``shengji serve``: ``POST /decide``, ``GET /health``).

Both read a request through :func:`answer`, which never raises: a body of more than
:data:`MAX_REQUEST_BYTES`, nested deeper than :data:`MAX_DEPTH`, with an integer of more
than :data:`MAX_INT_DIGITS` digits, ``NaN``/``Infinity``, or anything the protocol refuses
gets an error answer and the next request is served. The HTTP server runs on uvicorn
(asyncio: idle connections cost no thread, a bounded backlog, keep-alive timeouts, a cap
on concurrent connections) with starlette; decisions run one at a time on its event loop,
so a stateful agent never sees two requests at once. CORS is open (any origin may ask).
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import threading
from typing import IO, Any

from shengji_env.rules import RuleConfig

from .protocol import decide

MAX_REQUEST_BYTES = 1 << 20
MAX_DEPTH = 32
MAX_INT_DIGITS = 18
MAX_CONNECTIONS = 4096
BACKLOG = 1024
KEEP_ALIVE_SECONDS = 5


class BadRequest(ValueError):
    """A request body that is not a readable JSON request (too big, too deep, not JSON)."""


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    steps = [1 if b in "[{" else -1 for b in _BRACKETS.findall(_STRINGS.sub("", text))]
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
        else:
            response = answer(line, agent, config)
        out.write(json.dumps(response) + "\n")
        out.flush()
        count += 1


def make_app(agent: Any, config: RuleConfig, info: dict[str, Any]) -> Any:
    """The starlette application: ``POST /decide`` and ``GET /health``, CORS open."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.cors import CORSMiddleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def health(_: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", **info})

    async def decide_route(request: Request) -> JSONResponse:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or len(length) > 12):
            return JSONResponse({"id": None, "error": f"bad Content-Length {length!r}"}, 400)
        if length is not None and int(length) > MAX_REQUEST_BYTES:
            message = f"a request body has at most {MAX_REQUEST_BYTES} bytes"
            return JSONResponse({"id": None, "error": message}, 413)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_REQUEST_BYTES:
                message = f"a request body has at most {MAX_REQUEST_BYTES} bytes"
                return JSONResponse({"id": None, "error": message}, 413)
        response = answer(body.decode("utf-8", errors="replace"), agent, config)
        return JSONResponse(response, 400 if "error" in response else 200)

    async def not_found(request: Request, _: Exception) -> JSONResponse:
        message = f"no such path {request.url.path}; use POST /decide or GET /health"
        return JSONResponse({"error": message}, 404)

    async def wrong_method(request: Request, _: Exception) -> JSONResponse:
        return JSONResponse({"error": f"{request.method} is not allowed here"}, 405)

    routes = [
        Route("/decide", decide_route, methods=["POST"]),
        Route("/health", health, methods=["GET"]),
    ]
    cors = Middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST"])
    handlers = {404: not_found, 405: wrong_method}
    return Starlette(routes=routes, middleware=[cors], exception_handlers=handlers)


class HttpServer:
    """``shengji serve``'s server: uvicorn on a socket bound at creation (port 0 picks a
    free one, :attr:`port` tells which). :meth:`serve_forever` blocks; :meth:`shutdown`
    (from another thread) stops it."""

    def __init__(
        self, agent: Any, config: RuleConfig, host: str, port: int, info: dict[str, Any]
    ) -> None:
        try:
            import uvicorn
        except ModuleNotFoundError:
            raise ValueError(
                "the HTTP server needs the serve extra: pip install 'shengji-env[serve]'"
            ) from None
        self.socket = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.socket.listen(BACKLOG)  # connections queue from now on, before serving starts
        self.port = self.socket.getsockname()[1]
        settings = uvicorn.Config(
            make_app(agent, config, info),
            log_level="warning",
            access_log=False,
            backlog=BACKLOG,
            limit_concurrency=MAX_CONNECTIONS,
            timeout_keep_alive=KEEP_ALIVE_SECONDS,
            lifespan="off",
            loop="asyncio",  # uvloop with httptools left 1-2% of answers waiting 1-2 s
            http="h11",  # under 50 busy connections (BENCHMARKS.md); asyncio + h11 did not
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
    agent: Any, config: RuleConfig, host: str, port: int, info: dict[str, Any]
) -> HttpServer:
    """An HTTP server (not yet serving): ``POST /decide`` with a request body."""
    return HttpServer(agent, config, host, port, info)
