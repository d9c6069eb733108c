"""Replays: a hand as JSON lines of events, one format for logs, replays and test fixtures
(docs/replay.md; the schema is ``shengji_env/schemas/replay.schema.json``).

A hand is a ``hand`` event (the rules, levels, dealer), a ``deal`` event (the card order),
then ``bid``, ``bury``, ``play`` and ``trick`` events as they happened and a ``score``
event. Cards are card ids (0..53, docs/rules.md). :class:`HandRecorder` writes one from
the actions an environment took; :func:`read_replay` reads a file, checking every line
against the schema, and :func:`resimulate` plays a hand again on the reference engine and
checks that every recorded trick winner and the score come out the same.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .actions import COMMIT, DecisionKind
from .engines import ILLEGAL, SELECTED, PythonEngine
from .rules import Game, HandResult, IllegalMoveError, Phase, RuleConfig

FORMAT = "shengji-replay"
VERSION = 1


class ReplayError(ValueError):
    """A replay that does not parse, fails the schema, or does not re-simulate."""


@cache
def schema(name: str = "replay") -> dict[str, Any]:
    """A JSON Schema shipped with the package: ``replay``, ``request``, ``answer`` or
    ``manifest`` (an exported policy's)."""
    text = resources.files("shengji_env").joinpath(f"schemas/{name}.schema.json").read_text()
    return json.loads(text)


def header_event(game: Game, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``hand`` event of ``game``, a game at the start of a hand (no card dealt)."""
    event: dict[str, Any] = {
        "event": "hand",
        "format": FORMAT,
        "version": VERSION,
        "rules": game.config.to_dict(),
        "hand_number": game.hand_number,
        "levels": list(game.levels),
        "dealer": game.dealer,
    }
    if seats is not None:
        event["seats"] = list(seats)
    return event


class HandRecorder:
    """The events of one hand, from the actions an environment took (card by card, as the
    env's action ids); the reference engine replays them as they come, so a recorder
    also checks them. ``start`` is the game at the start of the hand."""

    def __init__(self, start: Game, seats: Sequence[str] | None = None) -> None:
        if start.phase is not Phase.BID or start.bids or not start.deck:
            raise ValueError("a recorder starts at the start of a hand (before any declaration)")
        self.engine = PythonEngine(start.config, match=False)
        self.engine.start(start)
        game = self.engine.game()
        self.events: list[dict[str, Any]] = [
            header_event(game, seats),
            {"event": "deal", "first": game.deal_start, "deck": list(game.deck)},
        ]

    @property
    def finished(self) -> bool:
        return self.engine.game().phase in (Phase.HAND_OVER, Phase.MATCH_OVER)

    def step(self, action: int) -> None:
        """Record the env action ``action`` of the seat to act."""
        engine, game = self.engine, self.engine.game()
        if self.finished:
            raise ReplayError("the hand is over: no more actions")
        kind, seat, dealt = engine.kind(), game.current_player, game.dealt
        selection = list(engine.selection())
        code = engine.step(action)
        if code == ILLEGAL:
            raise ReplayError(f"action {action} is illegal here: {engine.why_illegal(action)}")
        if code == SELECTED:
            return
        if kind is DecisionKind.BID:
            cards = selection + ([] if action == COMMIT else [action])
            if cards:
                self.events.append({"event": "bid", "seat": seat, "cards": cards, "dealt": dealt})
        elif kind is DecisionKind.BURY:
            self._bury(seat)
        else:
            self._play(seat)

    def _bury(self, seat: int) -> None:
        game = self.engine.game()
        picked = game.deck[game.dealt :]
        self.events.append({"event": "bury", "seat": seat, "kitty": picked, "cards": game.kitty})

    def _play(self, seat: int) -> None:
        game = self.engine.game()
        over = not game.trick
        trick = game.tricks[-1] if over else None
        plays = trick.plays if trick is not None else game.trick
        event: dict[str, Any] = {"event": "play", "seat": seat, "cards": list(plays[-1])}
        attempt = trick.attempt if trick is not None else game.trick_attempt
        if len(plays) == 1 and attempt is not None:
            event["attempt"] = list(attempt)
        self.events.append(event)
        if trick is not None:
            self.events.append({"event": "trick", "winner": trick.winner, "points": trick.points})
        if game.result is not None:
            self.events.append(score_event(game.result))


def score_event(result: HandResult) -> dict[str, Any]:
    return {"event": "score", **dataclasses.asdict(result)}


def write_replay(
    path: Path, hands: Iterable[Sequence[dict[str, Any]]], append: bool = False
) -> None:
    """Write hands (lists of events) to ``path`` as JSON lines."""
    with path.open("a" if append else "w", encoding="utf-8") as out:
        for events in hands:
            for event in events:
                out.write(json.dumps(event, separators=(",", ":")) + "\n")


def read_replay(path: Path | str) -> list[list[dict[str, Any]]]:
    """The hands in a replay file, each a list of events checked against the schema;
    :class:`ReplayError` names the line and field that is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"cannot read {path}: {error}") from None
    return parse_replay(text.splitlines())


def parse_replay(lines: Iterable[str]) -> list[list[dict[str, Any]]]:
    hands: list[list[dict[str, Any]]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise ReplayError(f"line {number}: not JSON ({error.msg})") from None
        check_event(event, f"line {number}")
        if event["event"] == "hand":
            hands.append([])
        elif not hands:
            raise ReplayError(f"line {number}: a replay starts with a 'hand' event")
        hands[-1].append(event)
    if not hands:
        raise ReplayError("the replay holds no hand")
    return hands


def check_event(event: Any, where: str) -> None:
    """Raise :class:`ReplayError` if ``event`` fails the replay schema."""
    import jsonschema

    validator = _validator()
    error = jsonschema.exceptions.best_match(validator.iter_errors(event))
    if error is not None:
        field = ".".join(str(part) for part in error.absolute_path) or "the event"
        raise ReplayError(f"{where}: field {field!r}: {error.message}")


@cache
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema("replay"))


def resimulate(events: Sequence[dict[str, Any]]) -> Game:
    """Play one hand's events again on the reference engine; returns the game at its end.
    Raises :class:`ReplayError` at the first event the rules refuse or disagree with."""
    return _Resimulation(events).run()


class _Resimulation:
    def __init__(self, events: Sequence[dict[str, Any]]) -> None:
        if len(events) < 2 or events[0]["event"] != "hand" or events[1]["event"] != "deal":
            raise ReplayError("a hand starts with a 'hand' and a 'deal' event")
        self.events = events
        self.game = self._start(events[0], events[1])

    @staticmethod
    def _start(header: dict[str, Any], deal: dict[str, Any]) -> Game:
        try:
            config = RuleConfig.from_dict(header["rules"])
            levels = tuple(header["levels"])
            game = Game(config, levels=levels, dealer=header["dealer"], deck=deal["deck"])
        except (ValueError, TypeError) as error:
            raise ReplayError(f"hand: {error}") from None
        if game.deal_start != deal["first"]:
            raise ReplayError(
                f"deal: field 'first' is {deal['first']}, the rules deal from {game.deal_start}"
            )
        game.hand_number = header["hand_number"]
        return game

    def run(self) -> Game:
        for _ in self.states():
            pass
        if self.game.result is None:
            raise ReplayError("the replay stops before the hand is over")
        return self.game

    def states(self) -> Iterator[tuple[dict[str, Any], Game]]:
        """Each event with the game just after it (the same object, changing)."""
        bids = iter([e for e in self.events[2:] if e["event"] == "bid"])
        pending = next(bids, None)
        game = self.game
        while game.phase is Phase.BID:
            seat = game.current_player
            if pending is not None and (pending["seat"], pending["dealt"]) == (seat, game.dealt):
                self._apply(pending, pending["cards"])
                yield pending, game
                pending = next(bids, None)
            else:
                game.declare([])
        if pending is not None:
            raise ReplayError(f"bid {pending}: no such decision in the deal")
        rest = [e for e in self.events[2:] if e["event"] != "bid"]
        for index, event in enumerate(rest):
            self._event(event, index)
            yield event, game

    def _event(self, event: dict[str, Any], index: int) -> None:
        game, kind = self.game, event["event"]
        if kind in ("bury", "play"):
            if event["seat"] != game.current_player:
                raise ReplayError(
                    f"{kind} #{index}: field 'seat' is {event['seat']}, seat "
                    f"{game.current_player} is to act"
                )
            if kind == "bury":
                self._same(event, "kitty", event["kitty"], game.deck[game.dealt :])
            self._apply(event, event.get("attempt", event["cards"]))
            if kind == "play" and event.get("attempt") is not None:
                played = game.tricks[-1].plays[0] if not game.trick else game.trick[0]
                self._same(event, "cards", sorted(event["cards"]), sorted(played))
        elif kind == "trick":
            if not game.tricks:
                raise ReplayError("trick event before any trick is over")
            last = game.tricks[-1]
            self._same(event, "winner", event["winner"], last.winner)
            self._same(event, "points", event["points"], last.points)
        elif kind == "score":
            if game.result is None:
                raise ReplayError("score event before the hand is over")
            for name, value in dataclasses.asdict(game.result).items():
                self._same(event, name, event[name], value)

    def _apply(self, event: dict[str, Any], cards: list[int]) -> None:
        try:
            self.game.step(cards)
        except IllegalMoveError as error:
            raise ReplayError(f"{event['event']} by seat {event.get('seat')}: {error}") from None

    @staticmethod
    def _same(event: dict[str, Any], field: str, recorded: Any, actual: Any) -> None:
        if recorded != actual:
            raise ReplayError(
                f"{event['event']}: field {field!r} says {recorded!r}, the rules give {actual!r}"
            )


def replay_states(events: Sequence[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], Game]]:
    """Each event of one hand with the reference game just after it (one object, changing:
    copy what you keep); raises :class:`ReplayError` like :func:`resimulate`."""
    return _Resimulation(events).states()
