"""The pieces of a game's state: its phases, finished tricks, how a hand ended
(docs/rules.md §4–§8), and a position as one seat knows it."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from .bidding import Bid
from .config import RuleConfig


class Phase(enum.Enum):
    BID = "bid"
    BURY = "bury"
    PLAY = "play"
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished trick. ``plays`` are in order from the leader; ``attempt`` is the
    throw the leader tried when it failed (§6.1), else ``None``."""

    leader: int
    plays: tuple[tuple[int, ...], ...]
    winner: int
    points: int
    attempt: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended (§7, §8)."""

    dealer: int
    level: int
    trump_suit: int | None
    trick_points: int
    kitty_points: int
    kitty_multiplier: int
    penalty_points: int
    attacker_points: int
    winner: str
    levels_gained: int
    next_dealer: int
    match_winner: int | None


@dataclass(frozen=True)
class Position:
    """A hand in progress as one seat knows it: the seat's own hand (and, for a search
    bot's sampled deal, the others'; unknown hands are left empty) and everything public.
    :meth:`Game.from_position` makes a game of it. Who played what and the voids shown
    follow from ``tricks`` and ``trick``, so they are not given.

    ``phase`` is :attr:`Phase.BID`, :attr:`Phase.BURY` or :attr:`Phase.PLAY`; ``seat``
    decides next. ``kitty``: what the dealer picked up (bury) or buried (play), empty
    when unknown. ``bids``: the declarations so far, in order (the last one stands).
    """

    config: RuleConfig
    phase: Phase
    seat: int
    hands: Sequence[Sequence[int]]
    level: int
    levels: tuple[int, int]
    dealer: int | None
    bids: Sequence[Bid] = ()
    cards_dealt: int = 0
    kitty: Sequence[int] = ()
    leader: int = 0
    trick: Sequence[Sequence[int]] = ()
    tricks: Sequence[TrickRecord] = ()
    revealed: Sequence[Sequence[int]] = field(default_factory=lambda: ([], [], [], []))
    attacker_trick_points: int = 0
    penalty_points: int = 0
