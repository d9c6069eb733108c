"""Trump-relative card order for the network: the same card role sits in the same slot
whatever the trump suit and level of the hand.

Slots: the three (or, with no trump, four) plain suits in printed order, each by rank with
the level rank skipped (12 slots a suit), then the trump suit's ordinary ranks, the off-suit
level cards, the trump-suit level card, SJ, BJ. So "trump ace" or "an off-suit level card"
is one input position for every hand, and what the net learns about it carries over.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch
from torch import nn

from shengji_env.actions import DecisionKind
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE, PHASE_SLOTS
from shengji_env.rules.cards import (
    BIG_JOKER,
    NUM_CARD_TYPES,
    NUM_RANKS,
    NUM_SUITS,
    SMALL_JOKER,
    make_card,
)

CARD_BLOCKS = (
    "hand",
    "selection",
    "played",
    "trick",
    "revealed",
    "kitty",
    "trump_cards",
    "card_order",
)


def canonical_slots(level: int, trump: int | None) -> list[int]:
    """The slot of each card type (a permutation of 0..53) for a level and trump suit."""
    order: list[int] = []
    suits = [s for s in range(NUM_SUITS) if s != trump] + ([] if trump is None else [trump])
    for suit in suits:
        order += [make_card(rank, suit) for rank in range(NUM_RANKS) if rank != level]
    order += [make_card(level, suit) for suit in range(NUM_SUITS) if suit != trump]
    if trump is not None:
        order.append(make_card(level, trump))
    order += [SMALL_JOKER, BIG_JOKER]
    slots = [0] * NUM_CARD_TYPES
    for slot, card in enumerate(order):
        slots[card] = slot
    return slots


def slot_tables() -> tuple[np.ndarray, np.ndarray]:
    """slot_of_card and card_of_slot for every (trump or none) x level, row = trump*13+level."""
    slot_of_card = np.zeros((5 * NUM_RANKS, NUM_CARD_TYPES), dtype=np.int64)
    card_of_slot = np.zeros_like(slot_of_card)
    for trump_index in range(5):
        for level in range(NUM_RANKS):
            slots = canonical_slots(level, None if trump_index == NUM_SUITS else trump_index)
            row = trump_index * NUM_RANKS + level
            slot_of_card[row] = slots
            card_of_slot[row, slots] = np.arange(NUM_CARD_TYPES)
    return slot_of_card, card_of_slot


def _card_columns() -> tuple[np.ndarray, slice]:
    """Observation columns of every 54-card chunk, and the columns that are not cards (the
    blocks after the card blocks)."""
    chunks = []
    for name in CARD_BLOCKS:
        block = OBS_LAYOUT[name]
        for start in range(block.start, block.stop, NUM_CARD_TYPES):
            chunks.append(np.arange(start, start + NUM_CARD_TYPES))
    card_columns = np.stack(chunks)
    rest = np.setdiff1d(np.arange(OBS_SIZE), card_columns.ravel())
    if not np.array_equal(rest, np.arange(rest[0], OBS_SIZE)):
        raise AssertionError("the card blocks must come first in the observation layout")
    return card_columns, slice(int(rest[0]), OBS_SIZE)


def _row_weights() -> torch.Tensor:
    """(OBS_SIZE,): the observation times these is the row of :func:`slot_tables` (trump index
    times 13 plus the level), both blocks being one-hot."""
    weights = torch.zeros(OBS_SIZE)
    trump, level = OBS_LAYOUT["trump_suit"], OBS_LAYOUT["level"]
    weights[trump] = torch.arange(trump.stop - trump.start, dtype=torch.float32) * NUM_RANKS
    weights[level] = torch.arange(level.stop - level.start, dtype=torch.float32)
    return weights


class Canonicalize(nn.Module):
    """Observation (batch, OBS_SIZE) -> the same features with every card chunk in slot order,
    then the :class:`CardFeatures`, and the per-sample ``slot_of_card`` index to map card
    logits back."""

    def __init__(self) -> None:
        super().__init__()
        self.card_features = CardFeatures()
        slot_of_card, card_of_slot = slot_tables()
        card_columns, rest = _card_columns()
        # per trump x level row: the observation column of each chunk's card in slot order
        column_of_slot = np.stack([card_columns[:, order].ravel() for order in card_of_slot])
        self.register_buffer("slot_of_card", torch.from_numpy(slot_of_card), persistent=False)
        self.register_buffer("column_of_slot", torch.from_numpy(column_of_slot), persistent=False)
        self.register_buffer("row_weights", _row_weights(), persistent=False)
        self.rest = rest
        self.chunks = card_columns.shape[0]

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        canonical, counting, slot_of_card = self.slots(obs)
        features = torch.cat([canonical.flatten(1), obs[:, self.rest], counting], dim=1)
        return features, slot_of_card

    def slots(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The card chunks in slot order (batch, chunks, 54), the :class:`CardFeatures`
        (batch, CARD_FEATURES) and each card's slot (batch, 54)."""
        parts = self.card_parts(obs)
        return parts.cards, parts.counts.flat(), parts.slot_of_card

    def card_parts(self, obs: torch.Tensor) -> CanonicalCards:
        """As :meth:`slots`, with the card counting as :class:`CardCounts` and the row."""
        row = (obs @ self.row_weights).long().clamp(0, len(self.slot_of_card) - 1)
        columns = self.column_of_slot.index_select(0, row)  # (batch, chunks * 54)
        cards = obs.gather(1, columns).reshape(-1, self.chunks, NUM_CARD_TYPES)
        chunks = CardChunks.of(cards)
        counts = self.card_features.parts(cards, chunks, obs[:, BURY_COLUMN : BURY_COLUMN + 1])
        slot_of_card = self.slot_of_card.index_select(0, row)
        return CanonicalCards(cards, chunks, counts, slot_of_card, row)


BURY_COLUMN = OBS_LAYOUT["phase"].start + PHASE_SLOTS[DecisionKind.BURY]
NUM_GROUPS = NUM_SUITS + 1  # the plain suits and trump


def _chunks(block: str) -> slice:
    """The 54-card chunks of a card block in :func:`_card_columns`' chunk order."""
    first = sum(
        OBS_LAYOUT[name].stop - OBS_LAYOUT[name].start
        for name in CARD_BLOCKS[: CARD_BLOCKS.index(block)]
    )
    size = OBS_LAYOUT[block].stop - OBS_LAYOUT[block].start
    return slice(first // NUM_CARD_TYPES, (first + size) // NUM_CARD_TYPES)


PLAIN_SUIT_SLOTS = NUM_RANKS - 1  # a plain suit's slots: its ranks less the level rank
CARD_FEATURES = 3 * NUM_CARD_TYPES + 2 * NUM_GROUPS
SUM_SCALE = float(PLAIN_SUIT_SLOTS)  # sums over a suit, brought near the inputs' [0, 1]


CHUNK_SIZES = [_chunks(name).stop - _chunks(name).start for name in CARD_BLOCKS]


class CardChunks(NamedTuple):
    """The card chunks in slot order by block, each (batch, n, 54): one split of the card
    tensor (one node in an exported graph, where slicing takes a node a block)."""

    hand: torch.Tensor
    selection: torch.Tensor
    played: torch.Tensor  # one chunk per seat
    trick: torch.Tensor  # one chunk per seat
    revealed: torch.Tensor
    kitty: torch.Tensor
    trump_cards: torch.Tensor
    card_order: torch.Tensor

    @classmethod
    def of(cls, cards: torch.Tensor) -> CardChunks:
        return cls(*cards.split(CHUNK_SIZES, dim=1))


class CardCounts(NamedTuple):
    """:class:`CardFeatures` as the card network reads them."""

    per_slot: torch.Tensor  # (batch, 3, 54): copies out, boss, outstanding cards beating it
    by_group: torch.Tensor  # (batch, 2, 5): copies out, then in hand, by effective suit
    one_hot: torch.Tensor  # (batch, 54, 5): each slot's effective suit, one-hot

    def flat(self) -> torch.Tensor:
        """(batch, CARD_FEATURES): the per-slot features, then the per-suit ones."""
        return torch.cat([self.per_slot.flatten(1), self.by_group.flatten(1)], dim=1)


class CanonicalCards(NamedTuple):
    """:meth:`Canonicalize.card_parts`: an observation's cards in slot order."""

    cards: torch.Tensor  # (batch, chunks, 54): every card chunk in slot order
    chunks: CardChunks  # the same by block
    counts: CardCounts
    slot_of_card: torch.Tensor  # (batch, 54): each card type's slot
    row: torch.Tensor  # (batch,): the trump x level row of the slot tables (trump * 13 + level)


def _counted_weights() -> tuple[torch.Tensor, torch.Tensor]:
    """(chunks,) weights that sum the copies a player has seen (the own hand, every
    seat's plays and the kitty) out of the card chunks, and the kitty's own weight (taken
    off while burying: the kitty is then still in the hand)."""
    counted = torch.zeros(sum(CHUNK_SIZES))
    for name in ("hand", "played", "kitty"):
        counted[_chunks(name)] = 1.0
    kitty = torch.zeros_like(counted)
    kitty[_chunks("kitty")] = 1.0
    return counted, kitty


class CardFeatures(nn.Module):
    """Card-counting features a player works out from the public record, per slot:
    how many copies of a card are still out (not played, not in the observer's hand or
    kitty), how many outstanding cards of its suit beat it, and which cards in hand no
    outstanding card beats; then per suit (trump as one) the cards out and in hand. Counts
    in decks (1.0 = every copy), sums over a suit divided by ``SUM_SCALE``. Works on
    :class:`Canonicalize`'s card chunks."""

    def __init__(self) -> None:
        super().__init__()
        suit_of_slot = (torch.arange(NUM_CARD_TYPES) // PLAIN_SUIT_SLOTS).clamp(max=NUM_SUITS - 1)
        plain = nn.functional.one_hot(suit_of_slot, NUM_GROUPS).float()  # (54, 5)
        self.register_buffer("plain_one_hot", plain, persistent=False)
        self.register_buffer("trump_one_hot", torch.eye(NUM_GROUPS)[NUM_SUITS], persistent=False)
        counted, kitty = _counted_weights()
        self.register_buffer("counted", counted, persistent=False)
        self.register_buffer("kitty", kitty, persistent=False)

    def effective_suits(self, chunks: CardChunks) -> torch.Tensor:
        """(batch, 54, 5): each slot's effective suit one-hot: its plain suit, or the
        fifth column where the card is trump."""
        trump = chunks.trump_cards.transpose(1, 2) > 0.5  # (batch, 54, 1)
        return torch.where(trump, self.trump_one_hot, self.plain_one_hot)

    def forward(self, cards: torch.Tensor, burying: torch.Tensor) -> torch.Tensor:
        """``cards``: (batch, chunks, 54) in slot order; ``burying``: (batch, 1) 1.0 where
        the dealer is choosing the kitty (still in the hand then) -> (batch, CARD_FEATURES)."""
        return self.parts(cards, CardChunks.of(cards), burying).flat()

    def parts(self, cards: torch.Tensor, chunks: CardChunks, burying: torch.Tensor) -> CardCounts:
        """:meth:`forward`'s features, unflattened. Slot values stay (batch, 1, 54)
        throughout: fewer nodes in an exported graph."""
        seen = (self.counted - burying[:, :, None] * self.kitty) @ cards  # (batch, 1, 54)
        out = (1.0 - seen).clamp(min=0.0)
        order = chunks.card_order
        one_hot = self.effective_suits(chunks)
        # beaten[j, i]: slot j is of slot i's suit and ranks above it
        beaten = (one_hot @ one_hot.transpose(1, 2)) * (order.transpose(1, 2) > order).float()
        higher_out = out @ beaten
        boss = ((chunks.hand > 0) & (higher_out < 1e-6)).float()
        by_group = torch.cat([out, chunks.hand], dim=1) @ one_hot / SUM_SCALE  # (batch, 2, 5)
        per_slot = torch.cat([out, boss, higher_out / SUM_SCALE], dim=1)
        return CardCounts(per_slot, by_group, one_hot)
