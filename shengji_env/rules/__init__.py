"""The pure Shengji rules engine (standard library only); see docs/rules.md.

The public rules API of docs/design.md is re-exported here.
"""

from .bidding import Bid, bid_strength, bid_trump, candidate_bids, legal_bids
from .cards import (
    BIG_JOKER,
    NUM_CARD_TYPES,
    SMALL_JOKER,
    card_points,
    format_card,
    format_cards,
    make_card,
    make_deck,
    parse_card,
    parse_cards,
    points_of,
)
from .config import RuleConfig
from .errors import IllegalMoveError
from .game import Game, team_of
from .legal import (
    check_throw,
    failed_throw_penalty,
    follow_error,
    is_legal_follow,
    legal_plays,
)
from .patterns import Component, decompose, is_titanic, is_tractor
from .scoring import kitty_multiplier, level_change, next_dealer
from .state import HandResult, Phase, Position, TrickRecord
from .trick import ruff_strength, trick_points, trick_winner
from .trump import TRUMP, TrumpContext

__all__ = [
    "BIG_JOKER",
    "NUM_CARD_TYPES",
    "SMALL_JOKER",
    "TRUMP",
    "Bid",
    "Component",
    "Game",
    "HandResult",
    "IllegalMoveError",
    "Phase",
    "Position",
    "RuleConfig",
    "TrickRecord",
    "TrumpContext",
    "bid_strength",
    "bid_trump",
    "candidate_bids",
    "card_points",
    "check_throw",
    "decompose",
    "failed_throw_penalty",
    "follow_error",
    "format_card",
    "format_cards",
    "is_legal_follow",
    "is_titanic",
    "is_tractor",
    "kitty_multiplier",
    "legal_bids",
    "legal_plays",
    "level_change",
    "make_card",
    "make_deck",
    "next_dealer",
    "parse_card",
    "parse_cards",
    "points_of",
    "ruff_strength",
    "team_of",
    "trick_points",
    "trick_winner",
]
