"""The JSON decision protocol: what one seat knows in, the cards to play out.

A request is a JSON object; cards are strings as in docs/rules.md (``"10H"``, ``"SJ"``):

```
{"id": 7,                                   # optional, echoed back
 "rules": {"decks": 2},                     # optional RuleConfig fields (checked)
 "seat": 0, "phase": "bid" | "bury" | "play",
 "hand": ["10H", "SJ", ...], "level": "2", "levels": ["2", "2"], "dealer": 0 | null,
 "bids": [{"seat": 1, "cards": ["2H"]}],    # declarations so far, in order
 "trump": "H" | "none",                     # optional: checked against the last bid
 "cards_dealt": 100,                        # bid phase: cards dealt so far (all seats)
 "kitty": ["3C", ...],                      # dealer only: picked up (bury) or buried (play)
 "tricks": [{"leader": 0, "plays": [["AS"], ["3S"], ["4S"], ["KS"]],
             "attempt": ["AS", "KS"] | null}],   # finished tricks; attempt: a failed throw
 "trick": {"leader": 2, "plays": [["KH"]]}, # the trick so far (play phase)
 "revealed": [[], ["QD"], [], []],          # failed-throw cards each seat still holds
 "points": {"attackers": 35, "penalty": 0}}
```

The response is ``{"id": 7, "cards": ["10H", "10H"]}`` (an empty list passes a bid), or
``{"id": 7, "error": "what was wrong"}``. :func:`decide` answers one request with any agent.

A request holds no more than a real game can: a hand of at most a hand and a kitty, at
most a hand's worth of tricks and of cards in a play, at most the decks' cards in all the
plays together, at most :data:`MAX_BIDS` declarations. Longer lists are refused before any
card in them is read, so the work and the memory a request costs are bounded whatever it
holds; the caches of parsed cards and judged tricks keep small entries only.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from typing import Any

from shengji_env.actions import COMMIT
from shengji_env.engines import SELECTED, make_engine
from shengji_env.rules import (
    Bid,
    Game,
    IllegalMoveError,
    Phase,
    Position,
    RuleConfig,
    TrickRecord,
    TrumpContext,
    bid_strength,
    bid_trump,
    format_cards,
    make_deck,
    parse_cards,
    trick_points,
    trick_winner,
)
from shengji_env.rules.cards import NUM_CARD_TYPES, SUITS, rank_index
from shengji_env.rules.trump import trump_context
from shengji_env.view import seat_view, view_request

PHASE_NAMES = {"bid": Phase.BID, "bury": Phase.BURY, "play": Phase.PLAY}
MAX_STEPS = 200
MAX_BIDS = 32
"""Declarations a request may list (each must overturn the one before: a real hand has few)."""
MAX_CACHED_CARDS = 40
"""Card lists up to this long are parsed once and cached (past plays); longer ones each time."""


class RequestError(ValueError):
    """A request that is malformed or inconsistent with the rules."""


def _field(
    request: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...
) -> Any:
    if name not in request:
        if default is ...:
            raise RequestError(f"missing field {name!r}")
        return default
    value = request[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RequestError(f"field {name!r} has the wrong type: {type(value).__name__}")
    return value


def _cards(value: Any, what: str, most: int) -> list[int]:
    """A list of at most ``most`` card strings, as card ids."""
    _limited(value, most, what)
    if not all(isinstance(card, str) for card in value):
        raise RequestError(f"{what} must be a list of card strings")
    try:
        if len(value) > MAX_CACHED_CARDS:
            return parse_cards(value)
        return list(_parsed(tuple(value)))
    except ValueError as error:
        raise RequestError(f"{what}: {error}") from None


def _limited(value: Any, most: int, what: str) -> list[Any]:
    """``value``, a list of at most ``most`` items (checked before any item is read)."""
    if not isinstance(value, list):
        raise RequestError(f"{what} must be a list")
    if len(value) > most:
        raise RequestError(f"{what} holds at most {most} items in this game, got {len(value)}")
    return value


@functools.lru_cache(maxsize=1 << 13)
def _parsed(cards: tuple[str, ...]) -> tuple[int, ...]:
    """Card strings parsed once: a front end sends the same past plays at every decision."""
    return tuple(parse_cards(cards))


def _seat(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise RequestError(f"{what} must be a seat 0..3, got {value!r}")
    return value


def build_game(request: dict[str, Any], config: RuleConfig) -> Game:
    """A game holding exactly what the request's seat knows (other hands left empty)."""
    seat = _seat(_field(request, "seat", int), "seat")
    phase_name = _field(request, "phase", str)
    if phase_name not in PHASE_NAMES:
        raise RequestError(f"phase must be one of {', '.join(PHASE_NAMES)}, got {phase_name!r}")
    phase = PHASE_NAMES[phase_name]
    hand = _cards(_field(request, "hand", list), "hand", config.hand_size + config.kitty_size)
    try:
        level = rank_index(str(_field(request, "level", str)))
        levels = [
            rank_index(str(v)) for v in _field(request, "levels", list, [request["level"]] * 2)
        ]
    except ValueError as error:
        raise RequestError(f"level: {error}") from None
    if len(levels) != 2:
        raise RequestError("levels must name two ranks (team of seats 0+2, team of seats 1+3)")
    dealer_value = _field(request, "dealer", (int, type(None)), None)
    dealer = None if dealer_value is None else _seat(dealer_value, "dealer")
    if phase is not Phase.BID and dealer is None:
        raise RequestError("the dealer must be known after the bidding")
    bids = _bids(_limited(_field(request, "bids", list, []), MAX_BIDS, "bids"), level, config)
    trump = bids[-1].trump_suit if bids else None
    stated = _field(request, "trump", str, None)
    if stated is not None and stated != ("none" if trump is None else SUITS[trump]):
        raise RequestError(f"trump {stated!r} disagrees with the declarations (§4)")
    common = {
        "config": config,
        "phase": phase,
        "seat": seat,
        "hands": [hand if s == seat else [] for s in range(4)],
        "level": level,
        "levels": (levels[0], levels[1]),
        "dealer": dealer,
        "bids": bids,
        "kitty": _cards(_field(request, "kitty", list, []), "kitty", config.kitty_size),
    }
    if phase is Phase.BID:
        game = Game.from_position(Position(**common, cards_dealt=_cards_dealt(request, config)))
        if not game.legal_bids(seat):
            raise RequestError("this seat has no declaration to make: nothing to decide")
    elif phase is Phase.BURY:
        if seat != dealer:
            raise RequestError("only the dealer buries the kitty (§5)")
        game = Game.from_position(Position(**common, cards_dealt=4 * config.hand_size))
    else:
        game = Game.from_position(
            _play_position(request, common, trump_context(config, level, trump))
        )
    _check_counts(game, hand, config)
    return game


def _bids(items: list[Any], level: int, config: RuleConfig) -> list[Bid]:
    bids: list[Bid] = []
    for item in items:
        if not isinstance(item, dict):
            raise RequestError("each bid is an object with 'seat' and 'cards'")
        cards = _cards(item.get("cards"), "bid cards", config.decks + 2)
        strength = bid_strength(cards, level, config.decks) if cards else None
        if strength is None:
            raise RequestError(
                f"bid {format_cards(cards)!r} is not a declaration at this level (§4)"
            )
        if bids and strength <= bids[-1].strength:
            raise RequestError("each declaration must be stronger than the one before (§4)")
        bids.append(
            Bid(_seat(item.get("seat"), "bid seat"), tuple(cards), strength, bid_trump(cards))
        )
    return bids


def _cards_dealt(request: dict[str, Any], config: RuleConfig) -> int:
    dealt = _field(request, "cards_dealt", int, 4 * config.hand_size)
    if not 0 < dealt <= 4 * config.hand_size:
        raise RequestError(f"cards_dealt must be 1..{4 * config.hand_size}")
    return dealt


def _play_position(request: dict[str, Any], common: dict[str, Any], ctx: TrumpContext) -> Position:
    """The position of a play-phase request: its tricks, the current trick and points."""
    config = common["config"]
    items = _limited(_field(request, "tricks", list, []), config.hand_size, "tricks")
    _check_card_total([*items, request.get("trick")], config)
    tricks = [_trick_record(item, ctx) for item in items]
    current = _field(
        request,
        "trick",
        dict,
        {"leader": tricks[-1].winner if tricks else common["dealer"], "plays": []},
    )
    leader, plays = _plays(current, "trick", config)
    if len(plays) > 3:
        raise RequestError("the current trick already has four plays")
    if (leader + len(plays)) % 4 != common["seat"]:
        raise RequestError(f"it is not seat {common['seat']}'s turn in the current trick")
    if plays:
        lead = plays[0]
        if len({ctx.suits[c] for c in lead}) != 1:
            raise RequestError("the lead of the current trick mixes suits (§6.1)")
        if any(len(p) != len(lead) for p in plays):
            raise RequestError("every play of a trick has as many cards as the lead (§6.2)")
    revealed = _field(request, "revealed", list, [[], [], [], []])
    if len(revealed) != 4:
        raise RequestError("revealed lists four seats")
    shown = [_cards(cards, "revealed", config.hand_size) for cards in revealed]
    points = _field(request, "points", dict, {})
    return Position(
        **common,
        cards_dealt=4 * common["config"].hand_size,
        leader=leader,
        trick=plays,
        tricks=tricks,
        revealed=shown,
        attacker_trick_points=int(points.get("attackers", 0)),
        penalty_points=int(points.get("penalty", 0)),
    )


def _check_card_total(items: list[Any], config: RuleConfig) -> None:
    """The plays of ``items`` (tricks) hold no more cards than the decks do (counted from
    the lists' lengths, before any card is read)."""
    total = 0
    for item in items:
        plays = item.get("plays") if isinstance(item, dict) else None
        if isinstance(plays, list):
            total += sum(len(play) for play in plays[:4] if isinstance(play, list))
    if total > NUM_CARD_TYPES * config.decks:
        raise RequestError(
            f"the tricks hold {total} cards; {config.decks} deck(s) hold "
            f"{NUM_CARD_TYPES * config.decks}"
        )


def _trick_record(item: Any, ctx: TrumpContext) -> TrickRecord:
    """A finished trick of the request, read and judged once per distinct trick: a front
    end sends the same past tricks again at every decision of a hand. (``repr`` names a
    JSON value exactly and costs a third of ``json.dumps``.)"""
    if not isinstance(item, dict):
        raise RequestError("trick must be an object with 'leader' and 'plays'")
    key = (repr(item), ctx)
    record = _RECORDS.get(key)
    if record is None:
        record = _read_record(item, ctx)
        if len(_RECORDS) >= MAX_RECORDS:
            _RECORDS.clear()
        _RECORDS[key] = record  # only tricks that read as finished tricks are kept
    return record


_RECORDS: dict[tuple[str, TrumpContext], TrickRecord] = {}
MAX_RECORDS = 1 << 12


def _read_record(item: dict[str, Any], ctx: TrumpContext) -> TrickRecord:
    config = ctx.config
    leader, plays = _plays(item, "trick", config)
    if len(plays) != 4:
        raise RequestError("a finished trick has four plays")
    attempt = item.get("attempt")
    shown = None if attempt is None else tuple(_cards(attempt, "attempt", config.hand_size))
    played = tuple(tuple(p) for p in plays)
    winner = (leader + trick_winner(played, ctx)) % 4
    return TrickRecord(leader, played, winner, trick_points(played), shown)


def _plays(item: Any, what: str, config: RuleConfig) -> tuple[int, list[list[int]]]:
    if not isinstance(item, dict):
        raise RequestError(f"{what} must be an object with 'leader' and 'plays'")
    leader = _seat(item.get("leader"), f"{what} leader")
    plays = item.get("plays")
    if not isinstance(plays, list):
        raise RequestError(f"{what} plays must be a list of card lists")
    _limited(plays, 4, f"{what} plays")
    return leader, [_cards(play, f"{what} play", config.hand_size) for play in plays]


def _check_counts(game: Game, hand: list[int], config: RuleConfig) -> None:
    seen = Counter(hand)
    for cards in game.played:
        seen.update(cards)
    if game.phase is Phase.PLAY and game.dealer == game.current_player:
        seen.update(game.kitty)
    deck = Counter(make_deck(config.decks))
    extra = sorted(card for card, n in seen.items() if n > deck[card])
    if extra:
        raise RequestError(
            f"more copies of {format_cards(extra)} than {config.decks} deck(s) hold "
            "(hand, plays and kitty together)"
        )
    if game.phase is Phase.BURY and len(hand) != config.hand_size + config.kitty_size:
        raise RequestError(f"the dealer burying holds {config.hand_size + config.kitty_size} cards")
    if game.phase is Phase.PLAY:
        expected = config.hand_size - len(game.played[game.current_player])
        if len(hand) != expected:
            raise RequestError(f"the hand should hold {expected} cards after the plays listed")
        if game.trick and len(hand) < len(game.trick[0]):
            raise RequestError("the hand cannot follow a lead larger than itself")


MAX_ID_CHARS = 128


def safe_id(request: Any) -> int | str | None:
    """The request's ``id`` to echo back: an integer or a short string; else ``None``."""
    ident = request.get("id") if isinstance(request, dict) else None
    if isinstance(ident, int) and not isinstance(ident, bool):
        return ident
    if isinstance(ident, str) and len(ident) <= MAX_ID_CHARS:
        return ident
    return None


def decide(request: Any, agent: Any, config: RuleConfig) -> dict[str, Any]:
    """Answer one request with ``agent``'s cards, or with an error; never raises."""
    ident = safe_id(request)
    try:
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object")
        rules = _field(request, "rules", dict, {})
        if not _same_rules(rules, config):
            requested = RuleConfig.from_dict({**config.to_dict(), **rules})
            if requested != config:
                raise RequestError(f"this bot plays {config.to_dict()}, not {requested.to_dict()}")
        game = build_game(request, config)
        cards = choose_cards(game, agent)
    except (RequestError, IllegalMoveError, ValueError) as error:
        return {"id": ident, "error": str(error)}
    except Exception as error:  # a server keeps serving whatever one request holds
        return {
            "id": ident,
            "error": f"the request could not be read: {type(error).__name__}: {error}",
        }
    return {"id": ident, "cards": format_cards(cards).split() if cards else []}


def _same_rules(rules: dict[str, Any], config: RuleConfig) -> bool:
    """Whether ``rules`` only repeat ``config``'s own values (the common case, checked
    without building a RuleConfig); anything else goes through RuleConfig's checks."""
    for key, value in rules.items():
        mine = getattr(config, key, _MISSING)
        if type(value) is not type(mine) or value != mine:
            return False
    return True


_MISSING = object()


def choose_cards(game: Game, agent: Any) -> list[int]:
    """The agent's whole decision at ``game``, card by card on an engine (the compiled core
    where it is built): its masks and observations, the view from the reference game."""
    engine = _engine(game.config)
    engine.start(game)
    seat = game.current_player
    view = seat_view(game, seat, engine.kind())
    chosen: list[int] = []
    for _ in range(MAX_STEPS):
        observation = {"observation": engine.observation(seat), "action_mask": engine.mask_of(seat)}
        action = int(agent.act(observation, {"view": view, "selection": tuple(chosen)}))
        if not engine.allows(action):
            raise RequestError(f"the agent chose an illegal action: {engine.why_illegal(action)}")
        if action == COMMIT:
            break
        chosen.append(action)
        if engine.step(action) != SELECTED:  # the decision completed itself
            break
    return chosen


_ENGINES = threading.local()


def _engine(config: RuleConfig) -> Any:
    """This thread's engine for ``config``, made once (``start`` loads each request's state)."""
    engines = _ENGINES.__dict__.setdefault("by_config", {})
    if config not in engines:
        engines[config] = make_engine(config)
    return engines[config]


def request_for(game: Game, seat: int) -> dict[str, Any]:
    """The request a front end would send for ``seat``'s decision (what that seat knows)."""
    phase = {Phase.BID: "bid", Phase.BURY: "bury", Phase.PLAY: "play"}[game.phase]
    return view_request(seat_view(game, seat), phase)
