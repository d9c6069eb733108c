"""Observations: one flat float32 vector from named blocks, relative to the observer.

Seat blocks are relative: row 0 is the observer, row 1 the next player, 2 the partner,
3 the previous player. Every value lies in ``[0, 1]``; card counts are divided by the
number of decks. Nothing hidden from the observer is encoded: other hands appear only
through what they played, the voids they showed and cards a failed throw revealed; the
kitty only for the dealer. ``OBS_LAYOUT`` maps each block name to its slice.

:class:`SeatView` is the same information as a structured object for rule-based bots
(``info["view"]``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .actions import Decision, DecisionKind
from .rules import Bid, Game, Phase, RuleConfig, TrickRecord, TrumpContext
from .rules.cards import NUM_CARD_TYPES, NUM_RANKS, NUM_SUITS
from .rules.trump import NUM_EFFECTIVE_SUITS

CARDS = NUM_CARD_TYPES
MAX_BID_STRENGTH = 7

OBS_BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", CARDS),
    ("selection", CARDS),
    ("played", 4 * CARDS),
    ("trick", 4 * CARDS),
    ("kitty", CARDS),
    ("revealed", 4 * CARDS),
    ("trump_cards", CARDS),
    ("card_order", CARDS),
    ("voids", 4 * NUM_EFFECTIVE_SUITS),
    ("trump_suit", NUM_SUITS + 1),
    ("level", NUM_RANKS),
    ("team_levels", 2 * NUM_RANKS),
    ("bid_strength", MAX_BID_STRENGTH + 1),
    ("bidder", 5),
    ("dealer", 5),
    ("leader", 4),
    ("phase", 4),
    ("progress", 5),
)
"""(name, size) of each block, in order; sizes are derived, never typed elsewhere."""


def _layout(blocks: tuple[tuple[str, int], ...]) -> dict[str, slice]:
    layout, start = {}, 0
    for name, size in blocks:
        layout[name] = slice(start, start + size)
        start += size
    return layout


OBS_LAYOUT: dict[str, slice] = _layout(OBS_BLOCKS)
OBS_SIZE = sum(size for _, size in OBS_BLOCKS)
_PHASES = {DecisionKind.BID: 0, DecisionKind.BURY: 1, DecisionKind.LEAD: 2, DecisionKind.FOLLOW: 3}


@dataclass(frozen=True)
class SeatView:
    """What one seat knows, for rule-based bots. Seats here are absolute (0..3).

    ``kitty`` is the kitty the dealer picked up (during the bury) or buried (after),
    empty for the other seats. ``ctx`` is ``None`` until bidding ends.
    """

    seat: int
    config: RuleConfig
    kind: DecisionKind | None
    hand: tuple[int, ...]
    selection: tuple[int, ...]
    level: int
    levels: tuple[int, int]
    dealer: int | None
    bid: Bid | None
    bids: tuple[Bid, ...]
    ctx: TrumpContext | None
    trick_leader: int
    trick: tuple[tuple[int, ...], ...]
    tricks: tuple[TrickRecord, ...]
    played: tuple[tuple[int, ...], ...]
    voids: tuple[tuple[bool, ...], ...]
    revealed: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    attacker_points: int
    cards_dealt: int


def still_revealed(game: Game, seat: int) -> list[int]:
    """Cards a failed throw showed that ``seat`` still holds."""
    hand = game.hand(seat)
    shown: list[int] = []
    for card in game.revealed[seat]:
        if card in hand:
            hand.remove(card)
            shown.append(card)
    return shown


def known_kitty(game: Game, seat: int) -> list[int]:
    if seat != game.dealer or game.phase is Phase.BID:
        return []
    return list(game.kitty)


def seat_view(game: Game, seat: int, decision: Decision | None) -> SeatView:
    mine = decision is not None and decision.seat == seat
    return SeatView(
        seat=seat,
        config=game.config,
        kind=decision.kind if mine and decision else None,
        hand=tuple(game.hands[seat]),
        selection=tuple(decision.selection) if mine and decision else (),
        level=game.level,
        levels=(game.levels[0], game.levels[1]),
        dealer=game.dealer,
        bid=game.bid,
        bids=tuple(game.bids),
        ctx=game.ctx,
        trick_leader=game.leader,
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
        played=tuple(tuple(cards) for cards in game.played),
        voids=tuple(tuple(row) for row in game.voids),
        revealed=tuple(tuple(still_revealed(game, other)) for other in range(4)),
        kitty=tuple(known_kitty(game, seat)),
        attacker_points=game.attacker_trick_points,
        cards_dealt=game.dealt,
    )


def _one_hot(vector: np.ndarray, block: str, index: int | None) -> None:
    if index is not None:
        vector[OBS_LAYOUT[block].start + index] = 1.0


def _add_cards(
    vector: np.ndarray, start: int, cards: list[int] | tuple[int, ...], scale: float
) -> None:
    for card in cards:
        vector[start + card] += scale


class ObservationEncoder:
    """Builds observation vectors; caches what changes once per hand (trump tables)."""

    def __init__(self, config: RuleConfig) -> None:
        self.config = config
        self.scale = 1.0 / config.decks
        self._ctx_key: tuple[int, int | None] | None = None
        self._trump_block = np.zeros(CARDS, dtype=np.float32)
        self._order_block = np.zeros(CARDS, dtype=np.float32)

    def _trump_tables(self, game: Game) -> None:
        trump = game.ctx.trump_suit if game.ctx else (game.bid.trump_suit if game.bid else None)
        key = (game.level, trump)
        if key == self._ctx_key:
            return
        ctx = game.ctx if game.ctx is not None else TrumpContext(self.config, game.level, trump)
        self._trump_block = np.array(
            [1.0 if ctx.suits[c] == 4 else 0.0 for c in range(CARDS)], dtype=np.float32
        )
        self._order_block = np.array(
            [ctx.rank_keys[c] / max(1, ctx.key_count[ctx.suits[c]] - 1) for c in range(CARDS)],
            dtype=np.float32,
        )
        self._ctx_key = key

    def encode(self, game: Game, seat: int, decision: Decision | None) -> np.ndarray:
        vector = np.zeros(OBS_SIZE, dtype=np.float32)
        scale = self.scale
        _add_cards(vector, OBS_LAYOUT["hand"].start, game.hands[seat], scale)
        if decision is not None and decision.seat == seat:
            _add_cards(vector, OBS_LAYOUT["selection"].start, decision.selection, scale)
            _one_hot(vector, "phase", _PHASES[decision.kind])
        for rel in range(4):
            other = (seat + rel) % 4
            offset = rel * CARDS
            _add_cards(vector, OBS_LAYOUT["played"].start + offset, game.played[other], scale)
            _add_cards(
                vector, OBS_LAYOUT["revealed"].start + offset, still_revealed(game, other), scale
            )
            voids = OBS_LAYOUT["voids"].start + rel * NUM_EFFECTIVE_SUITS
            for suit, void in enumerate(game.voids[other]):
                if void:
                    vector[voids + suit] = 1.0
        trick_start = OBS_LAYOUT["trick"].start
        for index, play in enumerate(game.trick):
            rel = (game.leader + index - seat) % 4
            _add_cards(vector, trick_start + rel * CARDS, play, scale)
        _add_cards(vector, OBS_LAYOUT["kitty"].start, known_kitty(game, seat), scale)
        self._trump_tables(game)
        vector[OBS_LAYOUT["trump_cards"]] = self._trump_block
        vector[OBS_LAYOUT["card_order"]] = self._order_block
        self._encode_public(vector, game, seat)
        return vector

    def _encode_public(self, vector: np.ndarray, game: Game, seat: int) -> None:
        trump = game.ctx.trump_suit if game.ctx else (game.bid.trump_suit if game.bid else None)
        _one_hot(vector, "trump_suit", NUM_SUITS if trump is None else trump)
        _one_hot(vector, "level", game.level)
        _one_hot(vector, "team_levels", game.levels[seat % 2])
        _one_hot(vector, "team_levels", NUM_RANKS + game.levels[1 - seat % 2])
        _one_hot(vector, "bid_strength", game.bid.strength if game.bid else 0)
        _one_hot(vector, "bidder", (game.bid.seat - seat) % 4 if game.bid else 4)
        _one_hot(vector, "dealer", (game.dealer - seat) % 4 if game.dealer is not None else 4)
        if game.phase is Phase.PLAY:
            _one_hot(vector, "leader", (game.leader - seat) % 4)
        config = self.config
        total_cards = 4 * config.hand_size
        played = sum(len(cards) for cards in game.played)
        progress = OBS_LAYOUT["progress"].start
        vector[progress] = game.dealt / total_cards
        vector[progress + 1] = played / total_cards
        vector[progress + 2] = min(1.0, game.attacker_trick_points / config.total_points)
        vector[progress + 3] = min(1.0, max(0.0, game.penalty_points / config.total_points))
        if game.dealer is not None and game.phase is not Phase.BID:
            vector[progress + 4] = 1.0 if seat % 2 != game.dealer % 2 else 0.0
