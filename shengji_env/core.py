"""The compiled core's Python face (``shengji_env._core``, built from ``csrc/``).

The core runs the whole hot path — rules, the hand and match state machine, the exact
prefix masks and the observation encoder — on the same state as the reference engine
(:mod:`shengji_env.rules`), which stays the readable specification and the oracle. This
module finds out whether the core is built, and converts a core game's state into a
reference :class:`~shengji_env.rules.Game` and back (views, rendering, search).
"""

from __future__ import annotations

import importlib
import os
import random
from types import ModuleType
from typing import Any

from .rules import Bid, Game, HandResult, Phase, RuleConfig, TrickRecord
from .rules.bidding import bid_card_types
from .rules.trump import trump_context

ENGINES = ("core", "python")
PHASES = (Phase.BID, Phase.BURY, Phase.PLAY, Phase.HAND_OVER, Phase.MATCH_OVER)
_MISSING = (
    "the compiled core (shengji_env._core) is not built: install with a C++17 compiler "
    "(`pip install -e .`), or pass engine='python' to run on the reference engine"
)


def load_core() -> ModuleType | None:
    """The compiled module, or ``None`` where the package was installed without it."""
    try:
        return importlib.import_module("shengji_env._core")
    except ImportError:
        return None


def require_core() -> ModuleType:
    core = load_core()
    if core is None:
        raise RuntimeError(_MISSING)
    return core


ENGINE_VARIABLE = "SHENGJI_ENGINE"


def default_engine() -> str:
    """The engine an env gets without ``engine=``: ``$SHENGJI_ENGINE`` when set (``core`` or
    ``python``; the test suite runs once with each), else ``"core"`` when it is built, else
    ``"python"``."""
    chosen = os.environ.get(ENGINE_VARIABLE)
    if chosen:
        if chosen not in ENGINES:
            raise ValueError(
                f"{ENGINE_VARIABLE} must be one of {', '.join(ENGINES)}, got {chosen!r}"
            )
        return chosen
    return "core" if load_core() is not None else "python"


def rule_arguments(config: RuleConfig) -> dict[str, Any]:
    """The core's constructor arguments for ``config``."""
    return {
        "decks": config.decks,
        "twos_always_trump": config.twos_always_trump,
        "failed_throw_penalty": config.failed_throw_penalty,
        "kitty_multiplier_cap": config.kitty_multiplier_cap,
        "triples_first": config.titanic_follow_order == "triples_first",
        "start_level": config.start_level_index,
    }


def _result_fields(result: HandResult) -> tuple:
    return (
        result.dealer,
        result.level,
        result.trump_suit,
        result.trick_points,
        result.kitty_points,
        result.kitty_multiplier,
        result.penalty_points,
        result.attacker_points,
        result.winner,
        result.levels_gained,
        result.next_dealer,
        result.match_winner,
    )


def to_game(state: dict[str, Any], config: RuleConfig) -> Game:
    """A reference :class:`Game` holding a core game's exported ``state`` (``config``: the
    game's rules, start level included)."""
    game = Game.__new__(Game)
    game.config = config
    game.rng = random.Random()
    game.rng.setstate((3, tuple(state["rng_state"]), None))
    game.levels = list(state["levels"])
    game.hand_number = state["hand_number"]
    game.match_winner = state["match_winner"]
    game.results = [HandResult(*fields) for fields in state["results"]]
    game.deck = list(state["deck"])
    game.dealer = state["dealer"]
    game.level = state["level"]
    game.deal_start = state["deal_start"]
    game.dealt = state["dealt"]
    game.hands = [list(hand) for hand in state["hands"]]
    game.bid_types = bid_card_types(game.level)
    game.bid_cards = [[c for c in hand if c in game.bid_types] for hand in game.hands]
    game.bids = [Bid(*fields) for fields in state["bids"]]
    game.bid = game.bids[-1] if game.bids else None
    game.final_round = state["final_round"]
    game.kitty = list(state["kitty"])
    game.ctx = trump_context(config, game.level, state["trump_suit"]) if state["has_ctx"] else None
    game.leader = state["leader"]
    game.trick = list(state["trick"])
    game.trick_attempt = state["trick_attempt"]
    game.tricks = [TrickRecord(*fields) for fields in state["tricks"]]
    game.played = [list(cards) for cards in state["played"]]
    game.voids = [list(row) for row in state["voids"]]
    game.revealed = [list(cards) for cards in state["revealed"]]
    game.attacker_trick_points = state["attacker_trick_points"]
    game.penalty_points = state["penalty_points"]
    game.result = None if state["result"] is None else HandResult(*state["result"])
    game.phase = PHASES[state["phase"]]
    game.current_player = state["current_player"]
    return game


def state_of(game: Game) -> dict[str, Any]:
    """The state of a reference :class:`Game` as the core's ``load`` takes it."""
    _, words, _ = game.rng.getstate()
    return {
        "rng_state": list(words),
        "levels": tuple(game.levels),
        "hand_number": game.hand_number,
        "match_winner": game.match_winner,
        "results": [_result_fields(result) for result in game.results],
        "deck": list(game.deck),
        "dealer": game.dealer,
        "level": game.level,
        "deal_start": game.deal_start,
        "dealt": game.dealt,
        "hands": [list(hand) for hand in game.hands],
        "bids": [(bid.seat, bid.cards, bid.strength, bid.trump_suit) for bid in game.bids],
        "final_round": game.final_round,
        "kitty": list(game.kitty),
        "has_ctx": game.ctx is not None,
        "trump_suit": None if game.ctx is None else game.ctx.trump_suit,
        "leader": game.leader,
        "trick": [list(play) for play in game.trick],
        "trick_attempt": game.trick_attempt,
        "tricks": [
            (t.leader, [list(p) for p in t.plays], t.winner, t.points, t.attempt)
            for t in game.tricks
        ],
        "played": [list(cards) for cards in game.played],
        "voids": [list(row) for row in game.voids],
        "revealed": [list(cards) for cards in game.revealed],
        "attacker_trick_points": game.attacker_trick_points,
        "penalty_points": game.penalty_points,
        "result": None if game.result is None else _result_fields(game.result),
        "phase": PHASES.index(game.phase),
        "current_player": game.current_player,
    }
