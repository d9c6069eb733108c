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
    ("revealed", 4 * CARDS),
    ("kitty", CARDS),
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
    """What one seat knows at the start of its decision, for rule-based bots. Seats here
    are absolute (0..3); ``revealed`` holds the cards failed throws showed that each seat
    still holds. The cards selected so far are ``info["selection"]``.

    ``kitty`` is the kitty the dealer picked up (during the bury) or buried (after),
    empty for the other seats. ``ctx`` is ``None`` until bidding ends.
    """

    seat: int
    config: RuleConfig
    kind: DecisionKind | None
    hand: tuple[int, ...]
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
    penalty_points: int
    cards_dealt: int


def known_kitty(game: Game, seat: int) -> list[int]:
    if seat != game.dealer or game.phase is Phase.BID:
        return []
    return list(game.kitty)


def seat_view(game: Game, seat: int, kind: DecisionKind | None = None) -> SeatView:
    """The view of ``seat``; ``kind`` is the decision it is about to make, if any."""
    return SeatView(
        seat=seat,
        config=game.config,
        kind=kind,
        hand=tuple(game.hands[seat]),
        level=game.level,
        levels=(game.levels[0], game.levels[1]),
        dealer=game.dealer,
        bid=game.bid,
        bids=tuple(game.bids),
        ctx=game.ctx,
        trick_leader=game.leader,
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
        played=tuple(map(tuple, game.played)),
        voids=tuple(map(tuple, game.voids)),
        revealed=tuple(map(tuple, game.revealed)),
        kitty=tuple(known_kitty(game, seat)),
        attacker_points=game.attacker_trick_points,
        penalty_points=game.penalty_points,
        cards_dealt=game.dealt,
    )


_START = {name: block.start for name, block in OBS_LAYOUT.items()}
_SEAT_BLOCKS = slice(OBS_LAYOUT["played"].start, OBS_LAYOUT["revealed"].stop)
_CARD_TABLES = slice(OBS_LAYOUT["trump_cards"].start, OBS_LAYOUT["card_order"].stop)


_RELATIVE = np.array([[(seat + rel) % 4 for rel in range(4)] for seat in range(4)])
"""_RELATIVE[seat] lists the absolute seats in the observer's relative order."""


class _Table:
    """Card counts per absolute seat, kept in step with a game by :meth:`sync`."""

    def __init__(self) -> None:
        self.hand_number = -1
        self.hands = np.zeros((4, CARDS), dtype=np.float32)
        self.seat_blocks = np.zeros((3, 4, CARDS), dtype=np.float32)
        self.played, self.trick, self.revealed = self.seat_blocks  # views, absolute seats
        self.voids = np.zeros((4, NUM_EFFECTIVE_SUITS), dtype=np.float32)
        self.kitty = np.zeros(CARDS, dtype=np.float32)
        self.hand_sizes = [0, 0, 0, 0]
        self.played_sizes = [0, 0, 0, 0]
        self.revealed_sizes = [0, 0, 0, 0]
        self.trick_state = (0, 0)
        self.kitty_state: tuple[Phase, int] | None = None

    def sync(self, game: Game, scale: float) -> None:
        if game.hand_number != self.hand_number:
            self.__init__()  # type: ignore[misc]  # a new hand: start from zero
            self.hand_number = game.hand_number
        for seat in range(4):
            self._sync_seat(game, seat, scale)
        trick_state = (len(game.tricks), len(game.trick))
        if trick_state != self.trick_state:
            self.trick.fill(0.0)
            for index, play in enumerate(game.trick):
                row = self.trick[(game.leader + index) % 4]
                for card in play:
                    row[card] += scale
            self.voids[:] = game.voids
            self.trick_state = trick_state
        kitty_state = (game.phase, len(game.kitty))
        if kitty_state != self.kitty_state:
            self.kitty.fill(0.0)
            if game.phase is not Phase.BID:
                for card in game.kitty:
                    self.kitty[card] += scale
            self.kitty_state = kitty_state

    def _sync_seat(self, game: Game, seat: int, scale: float) -> None:
        hand = game.hands[seat]
        if len(hand) != self.hand_sizes[seat]:
            self.hands[seat] = np.bincount(hand, minlength=CARDS) * scale if hand else 0.0
            self.hand_sizes[seat] = len(hand)
            if game.revealed[seat] or self.revealed_sizes[seat]:
                self.revealed[seat] = 0.0
                for card in game.revealed[seat]:
                    self.revealed[seat, card] += scale
                self.revealed_sizes[seat] = len(game.revealed[seat])
        played = game.played[seat]
        row = self.played[seat]
        for card in played[self.played_sizes[seat] :]:
            row[card] += scale
        self.played_sizes[seat] = len(played)


class ObservationEncoder:
    """Builds observation vectors from counts kept in step with the game: each call
    costs a few array copies, not a pass over the history."""

    def __init__(self, config: RuleConfig) -> None:
        self.config = config
        self.scale = 1.0 / config.decks
        self._table = _Table()
        self._version: int | None = None
        self._ctx_key: tuple[int, int | None] | None = None
        self._card_tables = np.zeros(2 * CARDS, dtype=np.float32)

    def reset(self) -> None:
        """Forget the previous game (call at every episode start)."""
        self._table = _Table()
        self._version = None

    def _trump_tables(self, game: Game) -> None:
        trump = game.ctx.trump_suit if game.ctx else (game.bid.trump_suit if game.bid else None)
        key = (game.level, trump)
        if key == self._ctx_key:
            return
        ctx = game.ctx if game.ctx is not None else TrumpContext(self.config, game.level, trump)
        trump = [1.0 if ctx.suits[c] == 4 else 0.0 for c in range(CARDS)]
        order = [ctx.rank_keys[c] / max(1, ctx.key_count[ctx.suits[c]] - 1) for c in range(CARDS)]
        self._card_tables = np.array(trump + order, dtype=np.float32)
        self._ctx_key = key

    def encode(
        self, game: Game, seat: int, decision: Decision | None, version: int | None = None
    ) -> np.ndarray:
        """The observation of ``seat``. ``version``: a counter the caller bumps whenever the
        game changes; the same version skips re-reading the game."""
        table = self._table
        if version is None or version != self._version:
            table.sync(game, self.scale)
            self._trump_tables(game)
            self._version = version
        order = _RELATIVE[seat]
        vector = np.zeros(OBS_SIZE, dtype=np.float32)
        vector[OBS_LAYOUT["hand"]] = table.hands[seat]
        vector[_SEAT_BLOCKS] = table.seat_blocks[:, order].ravel()  # played, trick, revealed
        vector[OBS_LAYOUT["voids"]] = table.voids[order].ravel()
        if seat == game.dealer:
            vector[OBS_LAYOUT["kitty"]] = table.kitty
        vector[_CARD_TABLES] = self._card_tables
        if decision is not None and decision.seat == seat:
            start = OBS_LAYOUT["selection"].start
            for card in decision.selection:
                vector[start + card] += self.scale
            vector[_START["phase"] + _PHASES[decision.kind]] = 1.0
        self._encode_public(vector, game, seat)
        return vector

    def _encode_public(self, vector: np.ndarray, game: Game, seat: int) -> None:
        trump = game.ctx.trump_suit if game.ctx else (game.bid.trump_suit if game.bid else None)
        vector[_START["trump_suit"] + (NUM_SUITS if trump is None else trump)] = 1.0
        vector[_START["level"] + game.level] = 1.0
        vector[_START["team_levels"] + game.levels[seat % 2]] = 1.0
        vector[_START["team_levels"] + NUM_RANKS + game.levels[1 - seat % 2]] = 1.0
        vector[_START["bid_strength"] + (game.bid.strength if game.bid else 0)] = 1.0
        vector[_START["bidder"] + ((game.bid.seat - seat) % 4 if game.bid else 4)] = 1.0
        dealer = 4 if game.dealer is None else (game.dealer - seat) % 4
        vector[_START["dealer"] + dealer] = 1.0
        if game.phase is Phase.PLAY:
            vector[_START["leader"] + (game.leader - seat) % 4] = 1.0
        config = self.config
        total_cards = 4 * config.hand_size
        played = sum(self._table.played_sizes)
        progress = OBS_LAYOUT["progress"].start
        vector[progress] = game.dealt / total_cards
        vector[progress + 1] = played / total_cards
        vector[progress + 2] = min(1.0, game.attacker_trick_points / config.total_points)
        vector[progress + 3] = min(1.0, max(0.0, game.penalty_points / config.total_points))
        if game.dealer is not None and game.phase is not Phase.BID:
            vector[progress + 4] = 1.0 if seat % 2 != game.dealer % 2 else 0.0
