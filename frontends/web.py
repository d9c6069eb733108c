"""``shengji web``: a table in the browser, served on 127.0.0.1 (Starlette + uvicorn).

The page (``frontends/static``) is plain HTML and JavaScript. It asks ``GET /api/state``
for the person's picture of the table (:func:`shengji_env.frontends.table.seat_state`) and posts the
person's clicks: ``/api/select`` and ``/api/unselect`` ``{"card": id}``, ``/api/play``,
``/api/clear``, ``/api/next`` (after a hand's score), ``/api/new`` ``{"seed": n}``.
``GET /api/replay`` gives the match so far as replay JSON lines; ``POST /api/replay/frames``
turns a replay file into the frames the page shows trick by trick.

A match belongs to one tab. ``POST /api/join`` gives the first tab to ask a token (the page
keeps it in ``sessionStorage`` and sends it as ``X-Table-Token``); every other tab watches
the match read-only: its clicks are refused (403) and change nothing. ``/api/new`` over an
unfinished match is refused (409) unless the request says ``{"confirm": true}`` (the page
asks the person first); a watching tab that starts a new match takes the table over with a
fresh token, and the tab that played before becomes a watcher.

The table answers only its own page: a request whose ``Host`` is not the loopback address
it serves on (a DNS-rebinding page) and a POST whose ``Origin`` is another site's are
refused (403) before anything is read. A body over its limit is refused (413) from its
``Content-Length`` or as soon as it passes the limit, never read whole; a body that is not
JSON — invalid UTF-8, nesting too deep, a number too long — is answered 400 with what was
wrong; nothing else changes. A replay is turned into frames in a worker thread, so the
table keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from shengji_env.replay import ReplayError, parse_replay, replay_states
from shengji_env.rules.cards import SUITS

from .serving import BODY_SECONDS, BadRequest, parse_request
from .table import TableError, TableSession, cards_json, record_json, sorted_hand

MAX_BODY = 64 * 1024
"""The largest action request (a click is a few bytes)."""
MAX_REPLAY_BODY = 1024 * 1024
"""The largest replay the viewer turns into frames (a whole match is about 150 kB)."""
MAX_REPLAY_HANDS = 64
Handler = Callable[[Any], Awaitable[Any]]
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
TOKEN_HEADER = "x-table-token"
WATCHING = "this match is played in another tab; this tab watches it (New match starts one here)"
UNDER_WAY = "a match is under way: confirm to end it and start a new one"


class Owner:
    """Which tab plays the match: the holder of the token given to the first tab that
    joined, or to the tab that started the match. Every other tab watches."""

    def __init__(self) -> None:
        self.token = ""

    def claim(self) -> str:
        self.token = secrets.token_urlsafe(16)
        return self.token

    def holds(self, headers: Any) -> bool:
        given = headers.get(TOKEN_HEADER, "")
        return bool(self.token) and secrets.compare_digest(given.encode(), self.token.encode())


def make_app(session: TableSession) -> Any:
    """The Starlette application serving ``session``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    static = resources.files("shengji_env.frontends").joinpath("static")
    owner = Owner()

    def answer(request: Any, status: int = 200, **extra: Any) -> Response:
        """The table as the requesting tab sees it, with ``extra`` fields."""
        with session.lock:
            state = session.state()
        return JSONResponse({**state, "owner": owner.holds(request.headers), **extra}, status)

    def page(name: str, media: str) -> Handler:
        async def serve(request: Any) -> Response:
            return Response(static.joinpath(name).read_text(encoding="utf-8"), media_type=media)

        return serve

    async def posted(request: Any, limit: int = MAX_BODY, what: str = "the request") -> Any:
        """The body of a POST from the table's own page, or the response refusing it."""
        refused = foreign_request(request.headers)
        if refused:
            return JSONResponse({"error": refused}, status_code=403)
        try:
            return await read_body(request, limit, what)
        except BodyRefused as refusal:
            return JSONResponse({"error": str(refusal)}, status_code=refusal.status)

    def action(apply: Callable[[TableSession, dict[str, Any]], None]) -> Handler:
        async def handle(request: Any) -> Response:
            body = await posted(request)
            if isinstance(body, Response):
                return body
            if not owner.holds(request.headers):
                return answer(request, 403, error=WATCHING)
            try:
                data = json_body(body)
                with session.lock:
                    apply(session, data)
                    session.message = ""
            except TableError as error:
                with session.lock:
                    session.message = str(error)
                return answer(request, 400, error=str(error))
            return answer(request)

        return handle

    async def join(request: Any) -> Response:
        refused = foreign_request(request.headers)
        if refused:
            return JSONResponse({"error": refused}, status_code=403)
        with session.lock:
            token = owner.claim() if not owner.token else ""
        if token:
            return answer(request, token=token, owner=True)
        return answer(request)

    async def new(request: Any) -> Response:
        body = await posted(request)
        if isinstance(body, Response):
            return body
        try:
            data = json_body(body)
            seed = seed_field(data)
        except TableError as error:
            return answer(request, 400, error=str(error))
        with session.lock:
            confirmed = session.match_over or data.get("confirm") is True
            if confirmed:
                session.new_match(seed)
                token = owner.claim()
        if not confirmed:
            return answer(request, 409, error=UNDER_WAY, confirm=True)
        return answer(request, token=token, owner=True)

    async def state(request: Any) -> Response:
        refused = foreign_request(request.headers, posting=False)
        if refused:
            return JSONResponse({"error": refused}, status_code=403)
        return answer(request)

    async def replay(request: Any) -> Response:
        refused = foreign_request(request.headers, posting=False)
        if refused:
            return JSONResponse({"error": refused}, status_code=403)
        with session.lock:
            lines = [json.dumps(event) for hand in session.hands for event in hand]
        return PlainTextResponse("\n".join(lines) + ("\n" if lines else ""))

    async def frames(request: Any) -> Response:
        body = await posted(request, MAX_REPLAY_BODY, "the replay")
        if isinstance(body, Response):
            return body
        try:
            hands = await run_in_threadpool(replay_frames, body.decode("utf-8", "replace"))
            return JSONResponse({"hands": hands})
        except ReplayError as error:
            return JSONResponse({"error": str(error)}, status_code=400)

    async def index(request: Any) -> Response:
        html = static.joinpath("index.html").read_text(encoding="utf-8")
        return HTMLResponse(html)

    routes = [
        Route("/", index),
        Route("/table.js", page("table.js", "text/javascript")),
        Route("/table.css", page("table.css", "text/css")),
        Route("/api/state", state),
        Route("/api/select", action(lambda s, d: s.select(card_field(d))), methods=["POST"]),
        Route("/api/unselect", action(lambda s, d: s.unselect(card_field(d))), methods=["POST"]),
        Route("/api/clear", action(lambda s, d: s.clear()), methods=["POST"]),
        Route("/api/play", action(lambda s, d: s.play()), methods=["POST"]),
        Route("/api/next", action(lambda s, d: s.next_hand()), methods=["POST"]),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/replay", replay),
        Route("/api/replay/frames", frames, methods=["POST"]),
    ]
    return Starlette(routes=routes)


def foreign_request(headers: Any, posting: bool = True) -> str:
    """Why a request does not come from the table's own page ("" when it does): its
    ``Host`` names no loopback address, or (``posting``) its ``Origin`` is another site's."""
    host = urlsplit(f"//{headers.get('host', '')}").hostname or ""
    if host not in LOOPBACK_NAMES:
        return f"the table answers requests to 127.0.0.1 or localhost only, not {host!r}"
    origin = headers.get("origin")
    if posting and origin is not None:
        origin_host = urlsplit(origin).netloc
        if origin_host != headers.get("host"):
            return f"the table answers its own page only, not {origin!r}"
    return ""


class BodyRefused(Exception):
    """A request body refused before it was read whole: too large (413) or too slow (408)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: Any, limit: int, what: str = "the request") -> bytes:
    """The request's body, read within ``limit`` bytes and :data:`BODY_SECONDS`.

    Raises:
        BodyRefused: 413 from its ``Content-Length`` before a byte is read, or as soon as
            the stream passes the limit; 408 once the body has taken too long.
    """
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BodyRefused(413, f"{what} is too large")
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise BodyRefused(413, f"{what} is too large")
    except TimeoutError:
        raise BodyRefused(408, f"{what} took more than {BODY_SECONDS} s to arrive") from None
    return bytes(body)


def json_body(body: bytes) -> dict[str, Any]:
    """A request body as a JSON object (empty: ``{}``), read within the HTTP server's
    bounds (:func:`.parse_request`).

    Raises:
        TableError: what is wrong with it: not UTF-8, not JSON within the bounds, or not
            an object.
    """
    if not body.strip():
        return {}
    try:
        data = parse_request(body.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise TableError(f"the request body is not UTF-8 text ({error.reason})") from None
    except BadRequest as error:
        raise TableError(f"the request body is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise TableError("the request body must be a JSON object")
    return data


def card_field(data: dict[str, Any]) -> int:
    card = data.get("card")
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 54:
        raise TableError(f"field 'card' must be a card id 0..53, got {card!r}")
    return card


def seed_field(data: dict[str, Any]) -> int | None:
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise TableError(f"field 'seed' must be a non-negative integer, got {seed!r}")
    return seed


def replay_frames(text: str) -> list[list[dict[str, Any]]]:
    """For each hand of a replay: a frame after the bury, each trick and the score (every
    hand shown: a replay is for looking back).

    Raises:
        ReplayError: the replay does not parse or re-simulate, or holds more than
            :data:`MAX_REPLAY_HANDS` hands.
    """
    hands = parse_replay(text.splitlines())
    if len(hands) > MAX_REPLAY_HANDS:
        raise ReplayError(f"the viewer shows at most {MAX_REPLAY_HANDS} hands, got {len(hands)}")
    return [
        [frame(event, game) for event, game in replay_states(events) if event["event"] in FRAMED]
        for events in hands
    ]


FRAMED = ("bury", "trick", "score")


def frame(event: dict[str, Any], game: Any) -> dict[str, Any]:
    """The table just after ``event``, every hand shown."""
    return {
        "event": event["event"],
        "hands": [cards_json(sorted_hand(hand, game.ctx)) for hand in game.hands],
        "trump": "none" if game.ctx.trump_suit is None else SUITS[game.ctx.trump_suit],
        "dealer": game.dealer,
        "trick_number": len(game.tricks),
        "trick": record_json(game.tricks[-1]) if game.tricks else None,
        "points": game.attacker_trick_points,
        "kitty": cards_json(game.kitty),
        "result": {k: v for k, v in event.items() if k != "event"}
        if event["event"] == "score"
        else None,
    }
