"""Bots outside this package: any program that speaks the JSON decision protocol
(docs/protocol.md) as JSON lines on its stdin and stdout, seated as ``cmd:"PROGRAM ARGS"``,
or a server answering it over HTTP, seated as ``http:URL`` (``shengji serve``'s
``/decide``; a server's memory is its own, a program's is capped).

The program runs long: one request line per decision, one answer line back. It runs under
:class:`Limits` that the arena enforces. It is a process of its own with an empty
environment but for ``PATH``, ``LANG`` and ``HOME``, its memory capped (``RLIMIT_AS``),
and it only ever receives its own seat's requests. Everything it writes is hostile until
checked; a fault never stops the game:

- ``TLE``: no whole answer line within the decision's wall time (the process is ended);
- ``RE``: the process ended, or could not be started;
- ``MLE``: the process ended saying it ran out of memory (its memory is capped);
- ``OLE``: an answer line longer than the output cap (the process is ended);
- ``garbage``: a line that is not an answer (not JSON, no ``cards`` list, an unknown card,
  or the bot's own ``error``);
- ``illegal``: cards the rules refuse here.

The seat then plays the **substitute**: the legal card of lowest id (docs/rules.md), one at
a time, until the decision is complete (a pass in the bidding). For ``illegal``, the
answer's cards are played while the rules accept them and the substitute completes the
decision from the first card refused. After a TLE, RE, MLE or OLE the process is ended and
the seat plays the substitute until the agent is reset (the arena resets it for each
hand; in a whole-match episode, for each match); the process starts again then. The
agent's ``faults`` count them by kind since its last reset.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import resource
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from shengji_env.actions import COMMIT
from shengji_env.rules.cards import parse_cards
from shengji_env.view import PHASE_OF_KIND, SeatView, view_request

FAULTS = ("TLE", "RE", "MLE", "OLE", "garbage", "illegal")
ENDING = ("TLE", "RE", "MLE", "OLE")  # faults that end the process, and the seat's hand
OUT_OF_MEMORY = (b"MemoryError", b"bad_alloc", b"out of memory", b"Cannot allocate memory")
STDERR_BYTES = 1 << 20  # the most a bot may write to stderr (and to any file: RLIMIT_FSIZE)
KEPT_ENVIRONMENT = ("PATH", "LANG", "HOME")


@dataclass(frozen=True)
class Limits:
    """What an outside bot may use: wall seconds per decision, its process's memory (MB)
    and the longest answer line (bytes)."""

    decision_seconds: float = 5.0
    memory_mb: int = 1024
    output_bytes: int = 64 * 1024


class Fault(Exception):
    """An outside bot's failure to answer, by kind (one of :data:`FAULTS`)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


class BotProcess:
    """One running bot program: a request line in, an answer line out, within limits."""

    def __init__(self, command: list[str], limits: Limits) -> None:
        self.command, self.limits = command, limits
        self.process: subprocess.Popen | None = None
        self.buffer = b""
        self.stderr: Any = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The bot's answer object to ``request``.

        Raises:
            Fault: TLE, RE, OLE or garbage; the process is ended for TLE, RE and OLE.
        """
        process = self._running()
        try:
            assert process.stdin is not None
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
        except OSError as error:
            self.stop()
            raise Fault("RE", f"the bot stopped reading its input ({error})") from None
        return answer_object(self._answer_line())

    def _running(self) -> subprocess.Popen:
        if self.process is not None and self.process.poll() is None:
            return self.process
        self.stop()
        environment = {key: os.environ[key] for key in KEPT_ENVIRONMENT if key in os.environ}
        memory = self.limits.memory_mb * 1024 * 1024

        def limit() -> None:  # in the child, before the program starts
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_FSIZE, (STDERR_BYTES, STDERR_BYTES))

        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 — kept open as the bot's stderr
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                env=environment,
                start_new_session=True,
                preexec_fn=limit,
            )
        except OSError as error:
            raise Fault("RE", f"cannot start {shlex.join(self.command)}: {error}") from None
        os.set_blocking(self.process.stdout.fileno(), False)  # type: ignore[union-attr]
        return self.process

    def _answer_line(self) -> str:
        """The next line the bot writes, within the decision's time and the output cap."""
        process = self.process
        assert process is not None and process.stdout is not None
        deadline = time.monotonic() + self.limits.decision_seconds
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                if len(self.buffer) > self.limits.output_bytes:
                    raise self._too_long()
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.stop()
                    raise Fault("TLE", f"no answer within {self.limits.decision_seconds:g} s")
                chunk = os.read(process.stdout.fileno(), 1 << 16)
                if not chunk:
                    code = process.wait()
                    kind = "MLE" if self._said_out_of_memory() else "RE"
                    self.stop()
                    raise Fault(kind, f"the bot ended (exit status {code})")
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > self.limits.output_bytes:
            raise self._too_long()
        return line.decode("utf-8", errors="replace")

    def _too_long(self) -> Fault:
        """End the bot for an answer line over the output cap; the fault to raise."""
        self.stop()
        return Fault("OLE", f"an answer line over {self.limits.output_bytes} bytes")

    def _said_out_of_memory(self) -> bool:
        """Whether the ended bot's last words on stderr are about memory."""
        self.stderr.seek(max(0, self.stderr.seek(0, os.SEEK_END) - 4096))
        tail = self.stderr.read()
        return any(sign in tail for sign in OUT_OF_MEMORY)

    def stop(self) -> None:
        """End the process (and anything it started) if it runs; forget its output."""
        process, self.process, self.buffer = self.process, None, b""
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)


class HttpBot:
    """A bot behind ``POST URL`` (``shengji serve``'s ``/decide``): one request a decision,
    its answer object back, within the decision's time and the output cap."""

    def __init__(self, url: str, limits: Limits) -> None:
        self.url, self.limits = url, limits

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The bot's answer object to ``request`` (an error answer with status 400 too).

        Raises:
            Fault: TLE (no answer in time), RE (no connection, another status), OLE or
                garbage.
        """
        body = json.dumps(request).encode()
        headers = {"Content-Type": "application/json"}
        call = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(call, timeout=self.limits.decision_seconds) as answer:
                data = answer.read(self.limits.output_bytes + 1)
        except urllib.error.HTTPError as error:
            if error.code != 400:
                raise Fault("RE", f"HTTP status {error.code} from {self.url}") from None
            data = error.read(self.limits.output_bytes + 1)
        except TimeoutError:
            raise Fault("TLE", f"no answer within {self.limits.decision_seconds:g} s") from None
        except (OSError, http.client.HTTPException) as error:
            kind = "TLE" if "timed out" in str(error) else "RE"
            raise Fault(kind, f"{self.url}: {error}") from None
        if len(data) > self.limits.output_bytes:
            raise Fault("OLE", f"an answer over {self.limits.output_bytes} bytes")
        return answer_object(data)

    def stop(self) -> None:
        """Nothing to end: each decision is a request of its own."""


class OutsideAgent:
    """A bot outside this process (a :class:`BotProcess` or an :class:`HttpBot`), seated
    through the JSON decision protocol; see the module."""

    name = "outside"

    def __init__(self, bot: BotProcess | HttpBot) -> None:
        self.bot = bot
        self.faults: Counter[str] = Counter()  # since the last reset, by kind
        self._plan: list[int] | None = None  # the bot's cards; None: the substitute plays
        self._plan_view: SeatView | None = None
        self._benched = False  # a fault ended the bot: the substitute plays until reset

    def reset(self) -> None:
        self.faults, self._plan, self._plan_view, self._benched = Counter(), None, None, False

    def close(self) -> None:
        self.bot.stop()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.bot.stop()

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        view: SeatView = info["view"]
        mask = observation["action_mask"]
        if view is not self._plan_view:
            self._plan_view, self._plan = view, self._answer(view)
        if self._plan is not None:
            selected = len(info.get("selection", ()))
            action = self._plan[selected] if selected < len(self._plan) else COMMIT
            if mask[action]:
                return action
            self.faults["illegal"] += 1
            self._plan = None
        return substitute(mask)

    def _answer(self, view: SeatView) -> list[int] | None:
        """The bot's cards for ``view``'s decision; None (the substitute) on a fault."""
        assert view.kind is not None
        if self._benched:
            return None
        try:
            return answer_cards(self.bot.ask(view_request(view, PHASE_OF_KIND[view.kind])))
        except Fault as fault:
            self.faults[fault.kind] += 1
            self._benched = fault.kind in ENDING
            return None


def answer_object(text: str | bytes) -> dict[str, Any]:
    """A bot's answer as a JSON object.

    Raises:
        Fault: ``garbage`` — not JSON, or not an object.
    """
    try:
        answer = json.loads(text)
    except (ValueError, RecursionError):
        raise Fault("garbage", f"not a JSON answer: {text[:80]!r}") from None
    if not isinstance(answer, dict):
        raise Fault("garbage", f"an answer is a JSON object, got {text[:80]!r}")
    return answer


def answer_cards(answer: dict[str, Any]) -> list[int]:
    """The card ids of an answer object.

    Raises:
        Fault: ``garbage`` — the bot's own error, no ``cards`` list, or an unknown card.
    """
    if "error" in answer:
        raise Fault("garbage", f"the bot answered an error: {str(answer['error'])[:120]}")
    cards = answer.get("cards")
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        raise Fault("garbage", "an answer holds 'cards', a list of card strings")
    ids: list[int] = []
    for card in cards:
        try:
            parsed = parse_cards(card)
        except ValueError as error:
            raise Fault("garbage", f"cards: {error}") from None
        if len(parsed) != 1:
            raise Fault("garbage", f"cards: {card[:20]!r} is not one card")
        ids.extend(parsed)
    return ids


def substitute(mask: np.ndarray) -> int:
    """The substitute play's next action: COMMIT once allowed, else the legal card of
    lowest id."""
    if mask[COMMIT]:
        return COMMIT
    return int(np.flatnonzero(mask)[0])


def checked_limits(decision_seconds: float, memory_mb: int, output_bytes: int) -> Limits:
    if decision_seconds <= 0 or memory_mb < 16 or output_bytes < 64:
        raise ValueError(
            "an outside bot's limits must be decision_seconds > 0, memory_mb >= 16, "
            "output_bytes >= 64"
        )
    return Limits(decision_seconds, memory_mb, output_bytes)


def command_agent(
    command: str,
    decision_seconds: float = Limits.decision_seconds,
    memory_mb: int = Limits.memory_mb,
    output_bytes: int = Limits.output_bytes,
) -> OutsideAgent:
    """The program ``command`` (a shell-quoted command line), run long, as an agent."""
    words = shlex.split(command)
    if not words:
        raise ValueError('agent spec cmd: needs a program, e.g. cmd:"node bot.js"')
    limits = checked_limits(decision_seconds, memory_mb, output_bytes)
    return OutsideAgent(BotProcess(words, limits))


def http_agent(
    url: str,
    decision_seconds: float = Limits.decision_seconds,
    output_bytes: int = Limits.output_bytes,
) -> OutsideAgent:
    """The bot answering ``POST url`` (e.g. ``http://127.0.0.1:8765/decide``) as an agent."""
    address = urllib.parse.urlsplit(url)
    if address.scheme not in ("http", "https") or not address.hostname:
        raise ValueError(f"agent spec http: needs an http(s) URL, got {url!r}")
    limits = checked_limits(decision_seconds, Limits.memory_mb, output_bytes)
    return OutsideAgent(HttpBot(url, limits))
