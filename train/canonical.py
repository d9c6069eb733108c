"""Trump-relative card order for the network: the same card role sits in the same slot
whatever the trump suit and level of the hand.

Slots: the three (or, with no trump, four) plain suits in printed order, each by rank with
the level rank skipped (12 slots a suit), then the trump suit's ordinary ranks, the off-suit
level cards, the trump-suit level card, SJ, BJ. So "trump ace" or "an off-suit level card"
is one input position for every hand, and what the net learns about it carries over.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE
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


def _tables() -> tuple[np.ndarray, np.ndarray]:
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


def _card_columns() -> tuple[np.ndarray, np.ndarray]:
    """Observation columns of every 54-card chunk, and the columns that are not cards."""
    chunks = []
    for name in CARD_BLOCKS:
        block = OBS_LAYOUT[name]
        for start in range(block.start, block.stop, NUM_CARD_TYPES):
            chunks.append(np.arange(start, start + NUM_CARD_TYPES))
    card_columns = np.stack(chunks)
    rest = np.setdiff1d(np.arange(OBS_SIZE), card_columns.ravel())
    return card_columns, rest


class Canonicalize(nn.Module):
    """Observation (batch, 1013) -> the same features with every card chunk in slot order,
    and the per-sample ``slot_of_card`` index to map card logits back."""

    def __init__(self) -> None:
        super().__init__()
        slot_of_card, card_of_slot = _tables()
        card_columns, rest = _card_columns()
        self.register_buffer("slot_of_card", torch.from_numpy(slot_of_card), persistent=False)
        self.register_buffer("card_of_slot", torch.from_numpy(card_of_slot), persistent=False)
        self.register_buffer("card_columns", torch.from_numpy(card_columns), persistent=False)
        self.register_buffer("rest", torch.from_numpy(rest), persistent=False)
        self.trump = OBS_LAYOUT["trump_suit"]
        self.level = OBS_LAYOUT["level"]
        self.chunks = card_columns.shape[0]

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        row = obs[:, self.trump].argmax(1) * NUM_RANKS + obs[:, self.level].argmax(1)
        cards = obs[:, self.card_columns]  # (batch, chunks, 54) by card id
        order = self.card_of_slot[row].unsqueeze(1).expand(-1, self.chunks, -1)
        canonical = cards.gather(2, order)  # (batch, chunks, 54) by slot
        features = torch.cat([canonical.flatten(1), obs[:, self.rest]], dim=1)
        return features, self.slot_of_card[row]
