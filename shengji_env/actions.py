"""The card-by-card action space and its exact prefix masks (docs/design.md, "Actions").

``Discrete(55)``: ids 0..53 select one copy of that card type, :data:`COMMIT` (54)
finishes the decision (and passes a bid when nothing is selected). A card is allowed
iff the selection plus that card is part of at least one legal complete decision;
``COMMIT`` iff the selection is itself a legal decision. The rules engine decides
what is legal; this module only answers prefix questions about it.
"""

from __future__ import annotations

import enum

import numpy as np

from .rules import Game, Phase
from .rules.cards import NUM_CARD_TYPES, format_card
from .rules.legal import cost_from_counts, lead_shape, suit_units

COMMIT = NUM_CARD_TYPES
NUM_ACTIONS = NUM_CARD_TYPES + 1
_COMMIT_ONLY = [0] * COMMIT + [1]
_COMMIT_ONLY_MASK = np.array(_COMMIT_ONLY, dtype=np.int8)


class DecisionKind(enum.Enum):
    BID = "bid"
    BURY = "bury"
    LEAD = "lead"
    FOLLOW = "follow"


def decision_kind(game: Game) -> DecisionKind:
    if game.phase is Phase.BID:
        return DecisionKind.BID
    if game.phase is Phase.BURY:
        return DecisionKind.BURY
    if game.phase is Phase.PLAY:
        return DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
    raise ValueError(f"no decision in phase {game.phase.value}")


def _counts(cards: list[int] | tuple[int, ...]) -> list[int]:
    counts = [0] * NUM_CARD_TYPES
    for card in cards:
        counts[card] += 1
    return counts


def _multiset(cards: list[int] | tuple[int, ...]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


class Decision:
    """One decision of the current player, built one card at a time.

    Attributes:
        seat: who decides.
        kind: bid, bury, lead or follow.
        selection: the cards selected so far, in order.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seat = game.current_player
        self.kind = decision_kind(game)
        self.selection: list[int] = []
        self.hand = game.hand(self.seat)
        self._remaining = _counts(self.hand)
        self._size = 0  # cards a complete decision has (0: any size)
        self._suit = -1  # lead: the suit the selection is in; follow: the led suit
        self._off_suit_room = 0  # follow short of the suit: how many other cards fit
        self._free_follow = True  # follow: any cards of the led suit are legal
        self._shape: tuple[tuple[int, int], ...] = ()  # follow: the lead's shape
        self._in_suit: dict[int, int] = {}  # follow: the hand's led-suit cards, counted
        self._candidates: list[dict[int, int]] = []  # bid: declarations that still fit
        self._setup()
        self._update_mask()

    def _setup(self) -> None:
        game = self.game
        if self.kind is DecisionKind.BID:
            self._candidates = [_multiset(bid) for bid in game.legal_bids(self.seat)]
        elif self.kind is DecisionKind.BURY:
            self._size = game.config.kitty_size
        elif self.kind is DecisionKind.FOLLOW:
            self._setup_follow()

    def _setup_follow(self) -> None:
        ctx = self.game.ctx
        assert ctx is not None
        lead = self.game.trick[0]
        self._size = len(lead)
        self._suit = ctx.suits[lead[0]]
        in_suit = [card for card in self.hand if ctx.suits[card] == self._suit]
        self._off_suit_room = max(0, len(lead) - len(in_suit))
        if len(in_suit) <= len(lead):
            return
        shape = lead_shape(lead, ctx)
        if any(m >= 2 for m, _ in shape) and suit_units(in_suit, self._suit, ctx):
            self._free_follow = False
            self._shape, self._in_suit = shape, _multiset(in_suit)

    def clone(self) -> Decision:
        """An independent copy (same game), for exploring selections without committing."""
        other = Decision.__new__(Decision)
        other.__dict__.update(self.__dict__)
        other.selection = list(self.selection)
        other._remaining = list(self._remaining)
        other._candidates = list(self._candidates)
        return other

    # --- queries -------------------------------------------------------------------------

    @property
    def mask(self) -> np.ndarray:
        """The exact action mask (``np.int8``, shape ``(55,)``); a fresh copy."""
        return self._mask.copy()

    def allows(self, action: int) -> bool:
        return 0 <= action < NUM_ACTIONS and self._allowed[action] == 1

    @property
    def only_commit(self) -> bool:
        """Nothing but ``COMMIT`` is allowed: the env commits by itself."""
        return self._only_commit

    def why_illegal(self, action: int) -> str:
        """The rule an action breaks (for ``IllegalMoveError``)."""
        if not 0 <= action < NUM_ACTIONS:
            return f"action {action} is outside Discrete({NUM_ACTIONS})"
        if action == COMMIT:
            return f"the selection is not a complete {self.kind.value} yet"
        name = format_card(action)
        if self._remaining[action] == 0:
            return f"no {name} left in the hand to select"
        return {
            DecisionKind.BID: f"no declaration stronger than the standing one holds {name} (§4)",
            DecisionKind.BURY: f"the bury already has {self._size} cards (§5)",
            DecisionKind.LEAD: f"{name} is not in the suit of the lead (§6.1)",
            DecisionKind.FOLLOW: f"{name} breaks the follow rules (§6.2: suit, then shape)",
        }[self.kind]

    # --- building ------------------------------------------------------------------------

    def add(self, card: int) -> None:
        """Select one more card; the caller has checked :meth:`allows`."""
        self.selection.append(card)
        self._remaining[card] -= 1
        if self.kind is DecisionKind.LEAD and self._suit < 0:
            ctx = self.game.ctx
            assert ctx is not None
            self._suit = ctx.suits[card]
        elif self.kind is DecisionKind.FOLLOW and self._off_suit_room:
            ctx = self.game.ctx
            assert ctx is not None
            if ctx.suits[card] != self._suit:
                self._off_suit_room -= 1
        if len(self.selection) == self._size:  # complete: only COMMIT is left
            self._allowed, self._mask, self._only_commit = _COMMIT_ONLY, _COMMIT_ONLY_MASK, True
            return
        if self._candidates:  # a bid
            chosen = self.selection.count(card)
            self._candidates = [c for c in self._candidates if c.get(card, 0) >= chosen]
        self._update_mask()

    def _update_mask(self) -> None:
        mask = [0] * NUM_ACTIONS
        self._fill_mask(mask)
        self._allowed = mask
        self._mask = np.array(mask, dtype=np.int8)
        self._only_commit = mask[COMMIT] == 1 and not any(mask[:COMMIT])

    def _fill_mask(self, mask: list[int]) -> None:
        remaining = self._remaining
        kind = self.kind
        if kind is DecisionKind.BID:
            chosen = self._mark_candidates(mask)
            complete = any(candidate == chosen for candidate in self._candidates)
            mask[COMMIT] = 1 if not self.selection or complete else 0
            return
        if kind is DecisionKind.LEAD:
            ctx = self.game.ctx
            assert ctx is not None
            for card in set(self.hand):
                if remaining[card] and (self._suit < 0 or ctx.suits[card] == self._suit):
                    mask[card] = 1
            mask[COMMIT] = 1 if self.selection else 0
            return
        if len(self.selection) == self._size:
            mask[COMMIT] = 1
            return
        if kind is DecisionKind.BURY:
            for card in set(self.hand):
                if remaining[card]:
                    mask[card] = 1
            return
        self._follow_mask(mask)

    def _follow_mask(self, mask: list[int]) -> None:
        ctx = self.game.ctx
        assert ctx is not None
        remaining = self._remaining
        if self._free_follow:
            for card in set(self.hand):
                if remaining[card] and (ctx.suits[card] == self._suit or self._off_suit_room):
                    mask[card] = 1
            return
        self._shaped_follow_mask(mask)

    def _shaped_follow_mask(self, mask: list[int]) -> None:
        """A follow that must keep the lead's shape (§6.2 rule 2), all in the led suit: a
        card is allowed iff the cheapest best-shaped follow through the selection plus it
        still fits (a feasibility check, no enumeration of plays). With room to spare any
        card of the suit fits; with none, only a card that some cheapest follow still
        needs, which a single card never is (cards alike in rank and count ask once)."""
        ctx = self.game.ctx
        assert ctx is not None
        room = self._size - len(self.selection)
        held, chosen = self._in_suit, _multiset(self.selection)
        needed = cost_from_counts(self._shape, held, chosen, ctx)
        cards = [card for card in held if self._remaining[card]]
        if needed < room:
            for card in cards:
                mask[card] = 1
            return
        answers: dict[tuple[int, int, int], bool] = {}
        for card in cards:
            if held[card] < 2:
                continue
            alike = (ctx.rank_keys[card], held[card], chosen.get(card, 0))
            if alike not in answers:
                grown = {**chosen, card: chosen.get(card, 0) + 1}
                answers[alike] = cost_from_counts(self._shape, held, grown, ctx) < needed
            if answers[alike]:
                mask[card] = 1

    def _mark_candidates(self, mask: list[int]) -> dict[int, int]:
        """Allow every card that some remaining candidate still needs."""
        chosen = _multiset(self.selection)
        for candidate in self._candidates:
            for card, count in candidate.items():
                if count > chosen.get(card, 0):
                    mask[card] = 1
        return chosen
