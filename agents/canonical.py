"""Trump-relative card order for the network: the same card role sits in the same slot
whatever the trump suit and level of the hand.

Slots: the three (or, with no trump, four) plain suits in printed order, each by rank with
the level rank skipped (12 slots a suit), then the trump suit's ordinary ranks, the off-suit
level cards, the trump-suit level card, SJ, BJ. So "trump ace" or "an off-suit level card"
is one input position for every hand, and what the net learns about it carries over.

The networks read the card counting and the reading of the trick from the observation's
derived blocks (:mod:`shengji_env.card_reading`), put in slot order with the card blocks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import torch
from torch import nn

from shengji_env.card_reading import DECK_COUNTS, POINT_SCALE, SUIT_GROUPS, SUIT_SCALE
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE, RECORD_SIZE
from shengji_env.rules.cards import (
    BIG_JOKER,
    DECK_POINTS,
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


NUM_GROUPS = SUIT_GROUPS  # the plain suits and trump
PLAIN_SUIT_SLOTS = NUM_RANKS - 1  # a plain suit's slots: its ranks less the level rank
SUIT_GAIN = SUIT_SCALE / PLAIN_SUIT_SLOTS
"""The observation divides sums over a suit by 54 copies a deck (to stay in [0, 1]); the
networks read them per a plain suit's 12 slots, the scale they were designed with."""
COUNTING_GAINS = (1.0, 1.0, SUIT_GAIN)  # copies out, boss, outstanding copies above
PLAY_GAINS = (1.0, 1.0, 1.0, 1.0, SUIT_GAIN, 1.0, 1.0)  # the own copies of the suit: a sum
TRICK_GAINS = (DECK_POINTS / POINT_SCALE, SUIT_SCALE, 1.0, 1.0, SUIT_GAIN)
RECORD_CONTEXT = range(OBS_LAYOUT["voids"].start, RECORD_SIZE)
"""The observation's columns after the card blocks, up to the derived blocks."""
COUNTED_CHUNKS = len(COUNTING_GAINS)
BY_GROUP = 2 * NUM_GROUPS  # the copies out, then in hand, by suit group
TRICK_CONTEXT = len(TRICK_GAINS)


def _chunk_columns(blocks: tuple[str, ...]) -> np.ndarray:
    """(chunks, 54): the observation columns of every 54-card chunk of ``blocks``."""
    chunks = []
    for name in blocks:
        block = OBS_LAYOUT[name]
        for start in range(block.start, block.stop, NUM_CARD_TYPES):
            chunks.append(np.arange(start, start + NUM_CARD_TYPES))
    return np.stack(chunks)


def _row_weights() -> torch.Tensor:
    """(OBS_SIZE,): the observation times these is the row of :func:`slot_tables` (trump index
    times 13 plus the level), both blocks being one-hot."""
    weights = torch.zeros(OBS_SIZE)
    trump, level = OBS_LAYOUT["trump_suit"], OBS_LAYOUT["level"]
    weights[trump] = torch.arange(trump.stop - trump.start, dtype=torch.float32) * NUM_RANKS
    weights[level] = torch.arange(level.stop - level.start, dtype=torch.float32)
    return weights


def context_columns(play: bool, decks: bool) -> tuple[list[int], list[float]]:
    """The context a network reads: the record's blocks after the cards, the copies by suit
    group, with ``play`` the trick's reading, with ``decks`` the deck count; and the gain
    of each column."""
    start = OBS_LAYOUT["card_context"].start
    columns, gains = list(RECORD_CONTEXT), [1.0] * len(RECORD_CONTEXT)
    parts = [(0, [SUIT_GAIN] * BY_GROUP)]
    if play:
        parts.append((BY_GROUP, list(TRICK_GAINS)))
    if decks:
        parts.append((BY_GROUP + TRICK_CONTEXT, [1.0] * DECK_COUNTS))
    for offset, part_gains in parts:
        columns += range(start + offset, start + offset + len(part_gains))
        gains += part_gains
    return columns, gains


RECORD_CHUNKS = len(_chunk_columns(CARD_BLOCKS))
TRUMP_CHUNK = RECORD_CHUNKS - 2  # the trump_cards block, before card_order


class CanonicalCards(NamedTuple):
    """:class:`Canonicalize`'s reading of an observation."""

    cards: torch.Tensor  # (batch, chunks, 54): the card chunks in slot order
    one_hot: torch.Tensor  # (batch, 54, 5): each slot's effective suit group, one-hot
    slot_of_card: torch.Tensor  # (batch, 54): each card type's slot


class Canonicalize(nn.Module):
    """Observation (batch, OBS_SIZE) -> the record's card chunks, then the card counting
    (and with ``play`` the trick's reading), all in slot order: one gather of the
    observation. Also each slot's effective suit and each card's slot, to map card logits
    back."""

    def __init__(self, play: bool = False) -> None:
        super().__init__()
        blocks = CARD_BLOCKS + ("card_counting",) + (("play_reading",) if play else ())
        card_columns = _chunk_columns(blocks)
        slot_of_card, card_of_slot = slot_tables()
        # per trump x level row: the observation column of each chunk's card in slot order
        column_of_slot = np.stack([card_columns[:, order].ravel() for order in card_of_slot])
        gains = [1.0] * RECORD_CHUNKS + list(COUNTING_GAINS) + (list(PLAY_GAINS) if play else [])
        self.register_buffer("slot_of_card", torch.from_numpy(slot_of_card), persistent=False)
        self.register_buffer("column_of_slot", torch.from_numpy(column_of_slot), persistent=False)
        self.register_buffer("row_weights", _row_weights(), persistent=False)
        self.register_buffer("gains", torch.tensor(gains)[:, None], persistent=False)
        suit_of_slot = (torch.arange(NUM_CARD_TYPES) // PLAIN_SUIT_SLOTS).clamp(max=NUM_SUITS - 1)
        plain = nn.functional.one_hot(suit_of_slot, NUM_GROUPS).float()  # (54, 5)
        self.register_buffer("plain_one_hot", plain, persistent=False)
        self.register_buffer("trump_one_hot", torch.eye(NUM_GROUPS)[NUM_SUITS], persistent=False)
        self.chunks = len(gains)

    def forward(self, obs: torch.Tensor) -> CanonicalCards:
        row = (obs @ self.row_weights).long().clamp(0, len(self.slot_of_card) - 1)
        columns = self.column_of_slot.index_select(0, row)  # (batch, chunks * 54)
        cards = obs.gather(1, columns).reshape(-1, self.chunks, NUM_CARD_TYPES) * self.gains
        trump = cards[:, TRUMP_CHUNK : TRUMP_CHUNK + 1].transpose(1, 2) > 0.5  # (batch, 54, 1)
        one_hot = torch.where(trump, self.trump_one_hot, self.plain_one_hot)
        return CanonicalCards(cards, one_hot, self.slot_of_card.index_select(0, row))
