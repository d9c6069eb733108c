"""A bot for Botzone's Tractor (双升) game: ``shengji botzone`` (docs/botzone.md).

Botzone sends the whole history as one JSON object, ``{"requests": [...], "responses":
[...]}``; the last request is the turn to answer. A request is one of three stages:

- ``deal``: ``{"stage": "deal", "deliver": [id], "global": {"level": "2", "banking":
  {"banker": -1, "called": -1, "snatched": -1, "major": "s"}}}`` — one card for this
  seat; the answer declares (``[id]`` calls trump with one level card, ``[id, id']``
  overturns a call with a pair) or passes (``[]``);
- ``cover``: ``{"stage": "cover", "deliver": [8 ids], ...}`` — the banker picks up the
  kitty; the answer is the 8 cards buried;
- ``play``: ``{"stage": "play", "history": [last_trick, this_trick, last_leader,
  this_leader], ...}`` — the plays of the last finished trick and of this one so far,
  each a list of card-id lists from its leader on; the answer is the cards played.

The seat is ``playerpos`` in the first request. Card ids are 0..107: ``id % 54`` is the
card, 52 and 53 the small and big jokers, otherwise rank ``A 2 … K`` = ``(id % 54) // 4``
and suit ``s h c d`` = ``id % 4``; ``id`` and ``id + 54`` are the two copies. The answer
is ``{"response": [ids]}``. In long-running mode the bot prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after each answer and then reads only the next
request, one JSON line.

The adapter turns the history into the seat's :class:`~shengji_env.rules.Position` and lets
any agent decide, as the JSON decision protocol does, then answers with the physical
copies it holds. Declarations follow Botzone's table, which is narrower than docs/rules.md
§4 (see docs/botzone.md).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from shengji_env.frontends.protocol import choose_cards
from shengji_env.frontends.serving import BadRequest, is_utf8, parse_request
from shengji_env.rules import (
    Bid,
    Game,
    Phase,
    Position,
    RuleConfig,
    TrickRecord,
    bid_strength,
    bid_trump,
    trick_points,
    trick_winner,
)
from shengji_env.rules.cards import BIG_JOKER, SMALL_JOKER, rank_of, suit_of
from shengji_env.rules.trump import trump_context

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
COPIES = 54
BOTZONE_SUITS = "shcd"  # Botzone's suit order; ours is S H D C
OUR_SUIT = {0: 0, 1: 1, 2: 3, 3: 2}  # Botzone suit index -> ours
LEVELS = {"2": 0, "3": 1, "4": 2, "5": 3, "6": 4, "7": 5, "8": 6, "9": 7, "10": 8, "0": 8}
LEVELS.update({"T": 8, "J": 9, "Q": 10, "K": 11, "A": 12, "1": 12})
RULES = RuleConfig(decks=2)  # Botzone's Tractor table is two decks


class BotzoneError(ValueError):
    """A request that does not fit Botzone's protocol; the message names the field."""


def card_of(botzone_id: int) -> int:
    """Our card id (0..53) of a Botzone card id (0..107)."""
    if isinstance(botzone_id, bool) or not isinstance(botzone_id, int):
        raise BotzoneError(f"a card id is an integer 0..107, got {botzone_id!r}")
    if not 0 <= botzone_id < 2 * COPIES:
        raise BotzoneError(f"card id {botzone_id} is not in 0..107")
    n = botzone_id % COPIES
    if n >= 52:
        return SMALL_JOKER if n == 52 else BIG_JOKER
    rank = (n // 4 - 1) % 13  # Botzone ranks A 2 .. K; ours 2 .. A
    return OUR_SUIT[n % 4] * 13 + rank


def botzone_id(card: int, copy: int = 0) -> int:
    """The Botzone id of copy ``copy`` (0 or 1) of our card ``card``."""
    if card >= SMALL_JOKER:
        n = 52 if card == SMALL_JOKER else 53
    else:
        suit = {ours: theirs for theirs, ours in OUR_SUIT.items()}[suit_of(card)]
        n = ((rank_of(card) + 1) % 13) * 4 + suit
    return n + COPIES * copy


def pick_ids(cards: Sequence[int], held: Sequence[int]) -> list[int]:
    """The physical ids, from ``held``, that play our ``cards``."""
    free = list(held)
    out = []
    for card in cards:
        match = next((bz for bz in free if card_of(bz) == card), None)
        if match is None:
            raise BotzoneError(f"the agent chose a card this seat does not hold ({card})")
        free.remove(match)
        out.append(match)
    return out


@dataclass
class Knowledge:
    """What the seat knows, read from the request history."""

    seat: int | None = None
    level: int = 0
    banking: dict[str, Any] = field(default_factory=dict)
    dealt: list[int] = field(default_factory=list)  # physical ids, in order
    kitty: list[int] = field(default_factory=list)  # picked up (cover)
    buried: list[int] = field(default_factory=list)
    tricks: list[tuple[int, list[list[int]]]] = field(default_factory=list)  # leader, plays
    trick: tuple[int, list[list[int]]] = field(default_factory=lambda: (0, []))
    deal_requests: int = 0

    @property
    def held(self) -> list[int]:
        """Physical ids in the hand now."""
        held = Counter(self.dealt) + Counter(self.kitty)
        held -= Counter(self.buried)
        if self.seat is not None:
            for leader, plays in self.tricks:
                held -= Counter(plays[(self.seat - leader) % 4])
        return sorted(held.elements())


def read_history(requests: Sequence[Any], responses: Sequence[Any]) -> Knowledge:
    """The seat's knowledge from Botzone's ``requests`` (the last one is the turn to
    answer) and this bot's earlier ``responses``, checked for contradictions."""
    known = Knowledge()
    for index, request in enumerate(requests):
        if not isinstance(request, dict):
            raise BotzoneError(f"requests[{index}] is not a JSON object")
        _read_request(known, request, index, responses)
    check_history(known)
    return known


def check_history(known: Knowledge) -> None:
    """Every physical card is in one place at most — dealt once, played once — and this
    seat buried and played only cards it held.

    Raises:
        BotzoneError: naming the contradiction (a tampered or corrupted history).
    """
    seen = Counter(known.dealt) + Counter(known.kitty)
    twice = sorted(bz for bz, count in seen.items() if count > 1)
    if twice:
        raise BotzoneError(f"the history deals card id(s) {twice} to this seat twice")
    if len(known.dealt) > RULES.hand_size:
        raise BotzoneError(
            f"the history deals {len(known.dealt)} cards; a hand holds {RULES.hand_size}"
        )
    held = Counter(seen)
    if not Counter(known.buried) <= held:
        raise BotzoneError("the history buries cards this seat did not hold")
    held -= Counter(known.buried)
    played: Counter[int] = Counter()
    for number, (leader, plays) in enumerate([*known.tricks, known.trick]):
        for offset, play in enumerate(plays):
            played.update(play)
            if known.seat is not None and (leader + offset) % 4 == known.seat:
                if not Counter(play) <= held:
                    raise BotzoneError(
                        f"trick {number + 1}: this seat played card id(s) it did not hold"
                    )
                held -= Counter(play)
    again = sorted(bz for bz, count in played.items() if count > 1)
    if again:
        raise BotzoneError(f"the history plays card id(s) {again} more than once")


def _read_request(
    known: Knowledge, request: dict[str, Any], index: int, responses: Sequence[Any]
) -> None:
    if "playerpos" in request:
        known.seat = _seat(request["playerpos"], f"requests[{index}].playerpos")
    stage = request.get("stage")
    glob = request.get("global", {})
    if not isinstance(glob, dict):
        raise BotzoneError(f"requests[{index}].global is not an object")
    if "level" in glob:
        level = str(glob["level"])
        if level not in LEVELS:
            raise BotzoneError(f"requests[{index}].global.level {glob['level']!r} is not a rank")
        known.level = LEVELS[level]
    banking = glob.get("banking", {})
    if isinstance(banking, dict):
        known.banking = banking
    if stage == "deal":
        known.dealt += _ids(request.get("deliver"), f"requests[{index}].deliver")
        known.deal_requests += 1
    elif stage == "cover":
        known.kitty = _ids(request.get("deliver"), f"requests[{index}].deliver")
        if index < len(responses):
            known.buried = _ids(responses[index], f"responses[{index}]")
    elif stage == "play":
        _read_play(known, request.get("history"), index)
    else:
        raise BotzoneError(f"requests[{index}].stage must be deal, cover or play, got {stage!r}")


def _read_play(known: Knowledge, history: Any, index: int) -> None:
    where = f"requests[{index}].history"
    if not isinstance(history, list) or len(history) != 4:
        raise BotzoneError(f"{where} must be [last_trick, this_trick, last_leader, this_leader]")
    last, current, last_leader, leader = history
    plays = [_ids(play, f"{where}[0]") for play in _list(last, f"{where}[0]")]
    now = [_ids(play, f"{where}[1]") for play in _list(current, f"{where}[1]")]
    if len(plays) not in (0, 4) or len(now) > 3:
        raise BotzoneError(f"{where}: a finished trick has 4 plays, the current one 0..3")
    if plays:
        known.tricks.append((_seat(last_leader, f"{where}[2]"), plays))
    known.trick = (_seat(leader, f"{where}[3]"), now)
    if known.seat is None:
        known.seat = (known.trick[0] + len(now)) % 4


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise BotzoneError(f"{where} must be a list")
    return value


def _ids(value: Any, where: str) -> list[int]:
    items = _list(value, where)
    for item in items:
        try:
            card_of(item)
        except BotzoneError as error:
            raise BotzoneError(f"{where}: {error}") from None
    return list(items)


def _seat(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise BotzoneError(f"{where} must be a seat 0..3, got {value!r}")
    return value


# --- from knowledge to a position ------------------------------------------------------


def _bids(known: Knowledge) -> list[Bid]:
    """The declarations Botzone's banking shows: a call (one level card of the trump suit)
    and a snatch over it (a pair)."""
    major = known.banking.get("major")
    bids: list[Bid] = []
    if isinstance(major, str) and major in BOTZONE_SUITS:
        card = OUR_SUIT[BOTZONE_SUITS.index(major)] * 13 + known.level
        for key, cards in (("called", (card,)), ("snatched", (card, card))):
            seat = known.banking.get(key, -1)
            if isinstance(seat, int) and 0 <= seat <= 3:
                strength = bid_strength(cards, known.level, RULES.decks) or 0
                bids.append(Bid(seat, cards, strength, bid_trump(cards)))
    return bids


def _banker(known: Knowledge) -> int | None:
    banker = known.banking.get("banker", -1)
    if isinstance(banker, int) and 0 <= banker <= 3:
        return banker
    bids = _bids(known)
    return bids[0].seat if bids else None


def position(known: Knowledge, stage: str) -> Position:
    if known.seat is None:
        raise BotzoneError("the seat is not known: the first request has no 'playerpos'")
    hand = [card_of(bz) for bz in known.held]
    common: dict[str, Any] = {
        "config": RULES,
        "seat": known.seat,
        "hands": [hand if s == known.seat else [] for s in range(4)],
        "level": known.level,
        "levels": (known.level, known.level),
        "bids": _bids(known),
    }
    if stage == "deal":
        dealt = min(4 * RULES.hand_size, 4 * known.deal_requests)
        return Position(**common, phase=Phase.BID, dealer=_banker(known), cards_dealt=dealt)
    dealer = known.seat if stage == "cover" else _banker(known)
    if dealer is None:
        raise BotzoneError("global.banking names no banker after the deal")
    kitty = [card_of(bz) for bz in (known.kitty if stage == "cover" else known.buried)]
    if stage == "cover":
        return Position(
            **common, phase=Phase.BURY, dealer=dealer, kitty=kitty, cards_dealt=4 * RULES.hand_size
        )
    return _play_position(known, common, dealer, kitty)


def _play_position(
    known: Knowledge, common: dict[str, Any], dealer: int, kitty: list[int]
) -> Position:
    bids = common["bids"]
    ctx = trump_context(RULES, known.level, bids[-1].trump_suit if bids else None)
    records, points = [], 0
    for leader, plays in known.tricks:
        cards = tuple(tuple(card_of(bz) for bz in play) for play in plays)
        winner = (leader + trick_winner(cards, ctx)) % 4
        value = trick_points(cards)
        if winner % 2 != dealer % 2:
            points += value
        records.append(TrickRecord(leader, cards, winner, value))
    leader, now = known.trick
    return Position(
        **common,
        phase=Phase.PLAY,
        dealer=dealer,
        kitty=kitty if known.seat == dealer else [],
        cards_dealt=4 * RULES.hand_size,
        leader=leader,
        trick=[[card_of(bz) for bz in play] for play in now],
        tricks=records,
        attacker_trick_points=points,
    )


# --- answering -------------------------------------------------------------------------


def answer(requests: Sequence[Any], responses: Sequence[Any], agent: Any) -> list[int]:
    """The response to the last of ``requests``: Botzone card ids."""
    if not requests:
        raise BotzoneError("requests is empty: nothing to answer")
    known = read_history(requests, responses)
    stage = requests[-1].get("stage")
    if stage == "deal":
        return _declare(known, agent)
    game = Game.from_position(position(known, stage))
    cards = choose_cards(game, agent)
    return pick_ids(cards, known.held)


def _declare(known: Knowledge, agent: Any) -> list[int]:
    """A Botzone declaration: a call with one level card while nobody has called, a pair
    over another seat's call while nobody has snatched; else a pass. Jokers are never
    shown (no-trump declarations are not part of this table)."""
    if known.seat is None:
        return []
    game = Game.from_position(position(known, "deal"))
    if not game.legal_bids(known.seat):
        return []
    cards = choose_cards(game, agent)
    if not cards or any(card >= SMALL_JOKER for card in cards):
        return []
    called = known.banking.get("called", -1)
    snatched = known.banking.get("snatched", -1)
    if called == -1:
        return pick_ids(cards[:1], known.held)
    if snatched == -1 and called != known.seat and len(cards) == 2 and cards[0] == cards[1]:
        return pick_ids(cards, known.held)
    return []


def respond(data: Any, agent: Any) -> dict[str, Any]:
    """Botzone's answer object for one full input; an error passes (or plays nothing) and
    says why in ``debug`` instead of crashing the bot."""
    try:
        if not isinstance(data, dict):
            raise BotzoneError("the input is not a JSON object")
        requests = _list(data.get("requests"), "requests")
        responses = _list(data.get("responses", []), "responses")
        return {"response": answer(requests, responses, agent)}
    except (BotzoneError, ValueError) as error:
        return {"response": [], "debug": f"error: {error}"[:1000]}
    except Exception as error:  # the bot keeps running whatever one input holds
        return {"response": [], "debug": f"error: {type(error).__name__}: {error}"[:1000]}


def serve_botzone(agent: Any, stdin: IO[str], stdout: IO[str], keep_running: bool = True) -> None:
    """Answer Botzone on ``stdin``/``stdout``: the first line is the full input; in
    long-running mode each later line is one request, and the history is kept here. A
    line that is not JSON is answered with an error and left out of the history."""
    requests: list[Any] = []
    responses: list[Any] = []
    first = True
    for line in stdin:
        try:
            data = _line_json(line)
        except ValueError as error:
            _write(stdout, {"response": [], "debug": f"error: {error}"[:1000]}, keep_running)
            continue
        if first:
            if not isinstance(data, dict):
                data = {"requests": None}
            requests = list(data.get("requests") or [])
            responses = list(data.get("responses") or [])
            first = False
        else:
            requests.append(data)
        reply = respond({"requests": requests, "responses": responses}, agent)
        responses.append(reply["response"])
        _write(stdout, reply, keep_running)
        if not keep_running:
            return


def _line_json(line: str) -> Any:
    """One input line as JSON, within the HTTP server's bounds (:func:`.parse_request`).

    Raises:
        ValueError: the line is not UTF-8 text, or not JSON within the bounds.
    """
    if not is_utf8(line):
        raise ValueError("not JSON (the input line is not UTF-8 text)")
    try:
        return parse_request(line)
    except BadRequest as error:
        raise ValueError(f"not JSON ({error})") from None


def _write(stdout: IO[str], reply: dict[str, Any], keep_running: bool) -> None:
    stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
    if keep_running:
        stdout.write(KEEP_RUNNING + "\n")
    stdout.flush()
