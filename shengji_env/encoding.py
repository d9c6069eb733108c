"""Observations: one flat float32 vector from named blocks, relative to the observer.

Seat blocks are relative: row 0 is the observer, row 1 the next player, 2 the partner,
3 the previous player. Every value lies in ``[0, 1]``; card counts are divided by the
number of decks. Nothing hidden from the observer is encoded: other hands appear only
through what they played, the voids they showed and cards a failed throw revealed; the
kitty only for the dealer. ``OBS_LAYOUT`` maps each block name to its slice. The same
information as a structured object, for rule-based bots, is :mod:`shengji_env.view`.
The last three blocks (:mod:`shengji_env.card_reading`: card counting and the reading of
the trick) are worked out from the blocks before them.
"""

from __future__ import annotations

import numpy as np

from .actions import Decision, DecisionKind
from .card_reading import (
    CONTEXT_SIZE,
    COUNTING_ROWS,
    DECK_COUNTS,
    PLAY_ROWS,
    write_card_reading,
)
from .rules import Game, Phase, RuleConfig
from .rules.cards import NUM_CARD_TYPES, NUM_RANKS, NUM_SUITS
from .rules.trick import trick_winner
from .rules.trump import NUM_EFFECTIVE_SUITS, trump_context

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
    ("trick_winner", 4),
    ("card_counting", COUNTING_ROWS * CARDS),
    ("play_reading", PLAY_ROWS * CARDS),
    ("card_context", CONTEXT_SIZE),
)
"""(name, size) of each block, in order; sizes are derived, never typed elsewhere."""

OBS_MEANING: dict[str, str] = {
    "hand": "own cards, count of each of the 54 card types / decks",
    "selection": "cards selected so far in this decision",
    "played": "cards each seat played this hand (4 relative seats x 54)",
    "trick": "the current trick, each seat's play (4 x 54)",
    "revealed": "cards failed throws showed that each seat still holds (4 x 54)",
    "kitty": "the kitty: picked up (bury) or buried (play), dealer only",
    "trump_cards": "1 for each card type that is trump this hand",
    "card_order": "each card's rank within its effective suit, scaled to [0, 1]",
    "voids": "effective suits (4 plain, trump) each seat has shown void in (4 x 5)",
    "trump_suit": "one-hot: ♠ ♥ ♦ ♣ or no trump",
    "level": "one-hot: the hand's level rank 2..A",
    "team_levels": "one-hot: own team's level, then the other team's (2 x 13)",
    "bid_strength": "one-hot: strength of the standing declaration (0: none)",
    "bidder": "one-hot: relative seat of the standing declaration, or none",
    "dealer": "one-hot: relative seat of the dealer, or not yet known",
    "leader": "one-hot: relative seat that led the current trick",
    "phase": "one-hot: the decision asked (bid, bury, lead, follow)",
    "progress": "shares dealt, played; attackers' points, penalties; I attack",
    "trick_winner": "one-hot: relative seat winning the current trick so far",
    "card_counting": "per card: copies out, unbeaten in hand, copies above",
    "play_reading": "per card: led, winner's suit, above it, points… (7 x 54)",
    "card_context": "copies by suit, the trick's reading, decks one-hot",
}
"""What each block holds (the env's documentation table is generated from it)."""


def _layout(blocks: tuple[tuple[str, int], ...]) -> dict[str, slice]:
    layout, start = {}, 0
    for name, size in blocks:
        layout[name] = slice(start, start + size)
        start += size
    return layout


OBS_LAYOUT: dict[str, slice] = _layout(OBS_BLOCKS)
OBS_SIZE = sum(size for _, size in OBS_BLOCKS)
RECORD_SIZE = OBS_LAYOUT["card_counting"].start
"""The columns before the derived blocks: the whole observation of ``shengji_v0``."""
PHASE_SLOTS = {
    DecisionKind.BID: 0,
    DecisionKind.BURY: 1,
    DecisionKind.LEAD: 2,
    DecisionKind.FOLLOW: 3,
}
"""Position of each decision kind in the ``phase`` block."""


def complete_records(records: np.ndarray, decks: int) -> np.ndarray:
    """``shengji_v0`` observations (``RECORD_SIZE`` columns, as label files made before v1
    hold them) with the derived blocks worked out and appended, in ``records``' dtype."""
    full = np.zeros((len(records), OBS_SIZE), dtype=np.float32)
    full[:, :RECORD_SIZE] = records
    for row in full:
        write_card_reading(row, OBS_LAYOUT, decks, _BURY_COLUMN)
    return full.astype(records.dtype)


def deck_counts(observations: np.ndarray) -> np.ndarray:
    """The deck count of each observation of a batch (read from ``card_context``)."""
    stop = OBS_LAYOUT["card_context"].stop
    return observations[:, stop - DECK_COUNTS : stop].argmax(1) + 1


def observation_table() -> str:
    """The observation blocks as a markdown table: name, columns, size, meaning."""
    rows = ["| block | columns | size | holds |", "|---|---|---:|---|"]
    for name, size in OBS_BLOCKS:
        block = OBS_LAYOUT[name]
        rows.append(f"| `{name}` | {block.start}–{block.stop - 1} | {size} | {OBS_MEANING[name]} |")
    return "\n".join(rows)


_START = {name: block.start for name, block in OBS_LAYOUT.items()}
_BURY_COLUMN = _START["phase"] + PHASE_SLOTS[DecisionKind.BURY]
_READING = slice(RECORD_SIZE, OBS_SIZE)
_CARD_TABLES = slice(OBS_LAYOUT["trump_cards"].start, OBS_LAYOUT["card_order"].stop)
_HAND = OBS_LAYOUT["hand"]
_KITTY = OBS_LAYOUT["kitty"]
_TRICK = OBS_LAYOUT["trick"]
_VOIDS = OBS_LAYOUT["voids"]


_RELATIVE = np.array([[(seat + rel) % 4 for rel in range(4)] for seat in range(4)])
"""_RELATIVE[seat] lists the absolute seats in the observer's relative order."""


def _row_offsets(block: str) -> tuple[tuple[int, ...], ...]:
    """_row_offsets(block)[observer][seat]: where ``seat``'s row of a seat block starts in
    ``observer``'s vector."""
    start = OBS_LAYOUT[block].start
    return tuple(
        tuple(start + (seat - observer) % 4 * CARDS for seat in range(4)) for observer in range(4)
    )


_PLAYED_ROWS = _row_offsets("played")
_TRICK_ROWS = _row_offsets("trick")
_WINNER = OBS_LAYOUT["trick_winner"]
_REVEALED_ROWS = _row_offsets("revealed")


class _Vectors:
    """The four observers' vectors, less the per-decision blocks, kept in step with a game
    by :meth:`sync`: each change (a card played, a trick closed, a kitty picked up) is
    written once into every vector it shows in, so an observation is a copy plus a few
    scalars rather than a pass over the tables."""

    def __init__(self, config: RuleConfig) -> None:
        self.config = config
        self.scale = 1.0 / config.decks
        self.vectors = np.zeros((4, OBS_SIZE), dtype=np.float32)
        self.hand_number = -1
        self.hand_sizes = [-1, -1, -1, -1]
        self.played_sizes = [0, 0, 0, 0]
        self.revealed_sizes = [0, 0, 0, 0]
        self.trick_state = (-1, 0)
        self.voids: list[list[bool]] = []
        self.kitty_state: tuple[Phase, int, int | None] | None = None
        self.ctx_key: tuple[int, int | None] | None = None

    def sync(self, game: Game) -> None:
        if game.hand_number != self.hand_number:
            self.__init__(self.config)  # type: ignore[misc]  # a new hand: start from zero
            self.hand_number = game.hand_number
        for seat in range(4):
            hand_size = len(game.hands[seat])
            if len(game.played[seat]) != self.played_sizes[seat]:
                played = self._sync_played(game, seat)
                if hand_size == self.hand_sizes[seat] - len(played):  # the hand played them
                    self._take_from_hand(game, seat, played)
            if hand_size != self.hand_sizes[seat]:
                self._sync_hand(game, seat)
        trick_state = (len(game.tricks), len(game.trick))
        if trick_state != self.trick_state:
            self._sync_trick(game, trick_state)
        if game.voids != self.voids:
            self.voids = [list(row) for row in game.voids]
            table = np.array(game.voids, dtype=np.float32)
            for observer in range(4):
                self.vectors[observer, _VOIDS] = table[_RELATIVE[observer]].ravel()
        kitty_state = (game.phase, len(game.kitty), game.dealer)
        if kitty_state != self.kitty_state:
            self.vectors[:, _KITTY] = 0.0
            if game.phase is not Phase.BID and game.dealer is not None:
                self.vectors[game.dealer, _KITTY] = self._counts(game.kitty)
            self.kitty_state = kitty_state
        self._sync_trump_tables(game)

    def _counts(self, cards: list[int]) -> np.ndarray | float:
        return np.bincount(cards, minlength=CARDS) * self.scale if cards else 0.0

    def _sync_hand(self, game: Game, seat: int) -> None:
        self.vectors[seat, _HAND] = self._counts(game.hands[seat])
        self.hand_sizes[seat] = len(game.hands[seat])
        if game.revealed[seat] or self.revealed_sizes[seat]:
            self._sync_revealed(game, seat)

    def _take_from_hand(self, game: Game, seat: int, cards: list[int]) -> None:
        vector, start, hand = self.vectors[seat], _HAND.start, game.hands[seat]
        for card in cards:  # exact counts: repeated float subtraction would drift below 0
            vector[start + card] = hand.count(card) * self.scale
        self.hand_sizes[seat] -= len(cards)
        if game.revealed[seat] or self.revealed_sizes[seat]:
            self._sync_revealed(game, seat)

    def _sync_revealed(self, game: Game, seat: int) -> None:
        revealed = game.revealed[seat]
        row = self._counts(revealed)
        for observer in range(4):
            start = _REVEALED_ROWS[observer][seat]
            self.vectors[observer, start : start + CARDS] = row
        self.revealed_sizes[seat] = len(revealed)

    def _sync_played(self, game: Game, seat: int) -> list[int]:
        """Adds the cards ``seat`` played since the last sync; returns them."""
        played = game.played[seat]
        new = played[self.played_sizes[seat] :]
        values = [(card, played.count(card) * self.scale) for card in new]
        for observer in range(4):
            vector, start = self.vectors[observer], _PLAYED_ROWS[observer][seat]
            for card, value in values:
                vector[start + card] = value
        self.played_sizes[seat] = len(played)
        return new

    def _sync_trick(self, game: Game, trick_state: tuple[int, int]) -> None:
        """The current trick's plays; a play added to the same trick is written alone."""
        first = 0
        if trick_state[0] == self.trick_state[0] and trick_state[1] > self.trick_state[1]:
            first = self.trick_state[1]
        else:
            self.vectors[:, _TRICK] = 0.0
        for index in range(first, len(game.trick)):
            seat, play = (game.leader + index) % 4, game.trick[index]
            values = [(card, play.count(card) * self.scale) for card in play]
            for observer in range(4):
                vector, start = self.vectors[observer], _TRICK_ROWS[observer][seat]
                for card, value in values:
                    vector[start + card] = value
        self.vectors[:, _WINNER] = 0.0
        if game.trick and game.ctx is not None:
            winner = (game.leader + trick_winner(game.trick, game.ctx)) % 4
            for observer in range(4):
                self.vectors[observer, _WINNER.start + (winner - observer) % 4] = 1.0
        self.trick_state = trick_state

    def _sync_trump_tables(self, game: Game) -> None:
        """Which cards are trump and each card's rank within its suit, for every observer."""
        trump = game.ctx.trump_suit if game.ctx else (game.bid.trump_suit if game.bid else None)
        key = (game.level, trump)
        if key == self.ctx_key:
            return
        ctx = game.ctx if game.ctx is not None else trump_context(self.config, game.level, trump)
        trump_cards = [1.0 if ctx.suits[c] == 4 else 0.0 for c in range(CARDS)]
        order = [ctx.rank_keys[c] / max(1, ctx.key_count[ctx.suits[c]] - 1) for c in range(CARDS)]
        self.vectors[:, _CARD_TABLES] = np.array(trump_cards + order, dtype=np.float32)
        self.ctx_key = key


class ObservationEncoder:
    """Builds observation vectors from per-observer vectors kept in step with the game:
    each call costs one copy and a few scalars, not a pass over the history."""

    def __init__(self, config: RuleConfig) -> None:
        self.config = config
        self.scale = 1.0 / config.decks
        self._vectors = _Vectors(config)
        self._version: int | None = None
        self._public: dict[tuple, np.ndarray] = {}
        self._reading_key: tuple | None = None
        self._reading = np.zeros(OBS_SIZE - RECORD_SIZE, dtype=np.float32)

    def reset(self) -> None:
        """Forget the previous game (call at every episode start)."""
        self._vectors = _Vectors(self.config)
        self._version = None
        self._reading_key = None

    def encode(
        self, game: Game, seat: int, decision: Decision | None, version: int | None = None
    ) -> np.ndarray:
        """The observation of ``seat``. ``version``: a counter the caller bumps whenever the
        game changes; the same version skips re-reading the game."""
        if version is None or version != self._version:
            self._vectors.sync(game)
            self._version = version
        vector = self._vectors.vectors[seat].copy()
        if decision is not None and decision.seat == seat:
            start = _START["selection"]
            for card in decision.selection:
                vector[start + card] += self.scale
            vector[_START["phase"] + PHASE_SLOTS[decision.kind]] = 1.0
        self._encode_public(vector, game, seat)
        self._write_reading(vector, seat, version)
        return vector

    def _write_reading(self, vector: np.ndarray, seat: int, version: int | None) -> None:
        """The derived blocks; the last ones again while the game and seat are the same (a
        decision's card steps change only the selection, which they do not read)."""
        key = (version, seat, bool(vector[_BURY_COLUMN]))
        if version is not None and key == self._reading_key:
            vector[_READING] = self._reading
            return
        write_card_reading(vector, OBS_LAYOUT, self.config.decks, _BURY_COLUMN)
        self._reading_key, self._reading = key, vector[_READING].copy()

    def _encode_public(self, vector: np.ndarray, game: Game, seat: int) -> None:
        bid = game.bid
        key = (
            seat,
            game.ctx.trump_suit if game.ctx else (bid.trump_suit if bid else None),
            game.level,
            game.levels[0],
            game.levels[1],
            bid.strength if bid else 0,
            bid.seat if bid else None,
            game.dealer,
            game.leader if game.phase is Phase.PLAY else None,
        )
        flags = self._public.get(key)
        if flags is None:
            if len(self._public) > PUBLIC_CACHE_SIZE:
                self._public.clear()
            flags = self._public[key] = _public_flags(*key)
        vector[_PUBLIC_FLAGS] = flags
        config = self.config
        total_cards = 4 * config.hand_size
        progress = _START["progress"]
        vector[progress] = game.dealt / total_cards
        vector[progress + 1] = sum(self._vectors.played_sizes) / total_cards
        if game.attacker_trick_points:
            vector[progress + 2] = min(1.0, game.attacker_trick_points / config.total_points)
        if game.penalty_points > 0:
            vector[progress + 3] = min(1.0, game.penalty_points / config.total_points)
        dealer = game.dealer
        if dealer is not None and game.phase is not Phase.BID and seat % 2 != dealer % 2:
            vector[progress + 4] = 1.0


PUBLIC_CACHE_SIZE = 4096
_PUBLIC_FLAGS = slice(OBS_LAYOUT["trump_suit"].start, OBS_LAYOUT["leader"].stop)


def _public_flags(
    seat: int,
    trump: int | None,
    level: int,
    level_0: int,
    level_1: int,
    bid_strength: int,
    bidder: int | None,
    dealer: int | None,
    leader: int | None,
) -> np.ndarray:
    """The one-hot public blocks from ``trump_suit`` to ``leader`` for one observer."""
    team_levels = (level_0, level_1) if seat % 2 == 0 else (level_1, level_0)
    hot = [
        _START["trump_suit"] + (NUM_SUITS if trump is None else trump),
        _START["level"] + level,
        _START["team_levels"] + team_levels[0],
        _START["team_levels"] + NUM_RANKS + team_levels[1],
        _START["bid_strength"] + bid_strength,
        _START["bidder"] + (4 if bidder is None else (bidder - seat) % 4),
        _START["dealer"] + (4 if dealer is None else (dealer - seat) % 4),
    ]
    if leader is not None:
        hot.append(_START["leader"] + (leader - seat) % 4)
    flags = np.zeros(_PUBLIC_FLAGS.stop - _PUBLIC_FLAGS.start, dtype=np.float32)
    flags[np.array(hot) - _PUBLIC_FLAGS.start] = 1.0
    return flags
