"""What a player reads off the table, per card slot, for the card network
(``card_play_features: true``).

Per slot: whether it is in the led suit, whether the play winning the trick so far has
cards of its suit, whether it ranks above that play's highest card there, its points, the
copies of its suit in hand, whether the partner has shown void in its suit, and whether an
opponent has (while not void in trump: a ruff threat). As context: the points in the
trick, the lead's size and most copies of a card in it, whether the winning play is trump,
and how many outstanding cards beat the winning play's top card.

Everything here is public: the trick, its leader and winner, the voids and the hand are
blocks of the observation. A network could learn these from the raw blocks, but the card
network mixes tokens only with rank neighbours and suit means, and it fitted the
heuristic's follows worst (BENCHMARKS.md), so they are worked out for it.
"""

from __future__ import annotations

import torch
from torch import nn

from shengji_env.encoding import OBS_LAYOUT
from shengji_env.rules.cards import NUM_RANKS, NUM_SUITS, POINTS
from shengji_env.rules.trump import TRUMP

from .canonical import NUM_GROUPS, CanonicalCards, slot_tables

PLAY_PER_SLOT = 7  # led suit, winner holds the suit, above the winner, points, suit length,
# partner void, opponent ruff threat
PLAY_CONTEXT = 5  # trick points, the lead's size and most copies, winner trump, cards over it
POINT_SCALE = 10.0  # a ten or king is 1.0
PARTNER, OPPONENTS = 2, slice(1, 4, 2)  # relative seats: 2, and 1 and 3
NO_WINNER = 1e3  # above any count of cards: no winning play to beat


def _void_spread() -> torch.Tensor:
    """(65, 5, 5) by slot-table row (trump index x 13 + level): the 0/1 matrix that takes
    the ``voids`` columns (the four suits, then trump) to the effective suits in slot
    order (the plain suits but the trump one, then trump; where there is a trump suit,
    the unused fourth group reads that suit's column)."""
    spread = torch.zeros(NUM_SUITS + 1, NUM_GROUPS, NUM_GROUPS)
    for trump in range(NUM_SUITS + 1):
        plain = [suit for suit in range(NUM_SUITS) if suit != trump]
        plain += [trump] * (NUM_SUITS - len(plain))
        for group, column in enumerate([*plain, TRUMP]):
            spread[trump, column, group] = 1.0
    return spread.repeat_interleave(NUM_RANKS, dim=0)


def _points_by_slot() -> torch.Tensor:
    """(65, 1, 54) by slot-table row: each slot's card points over ``POINT_SCALE``."""
    _, card_of_slot = slot_tables()
    points = torch.tensor(POINTS, dtype=torch.float32) / POINT_SCALE
    return points[torch.from_numpy(card_of_slot)][:, None, :]


class PlayFeatures(nn.Module):
    """(the observation's cards in slot order, :class:`~agents.canonical.CanonicalCards`,
    and the observation) -> per-slot features (batch, PLAY_PER_SLOT, 54), laid out as the
    card chunks are, and context (batch, PLAY_CONTEXT).

    Written for a small exported graph (each ONNX node costs about half a microsecond at
    batch one): what depends on the trump and level comes from tables by the slot-table
    row, values by suit are gathered into one (batch, k, 5) stack and spread to the slots by
    one product with the suits, columns are picked with ``index_select`` (one node where
    advanced indexing exports three) and reductions keep their dimension."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("points_by_slot", _points_by_slot(), persistent=False)
        self.register_buffer("void_spread", _void_spread(), persistent=False)
        seats = [*_columns("leader"), *_columns("trick_winner")]
        self.register_buffer("seat_columns", torch.tensor(seats), persistent=False)
        self.voids = OBS_LAYOUT["voids"]

    def forward(
        self, parts: CanonicalCards, obs: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        counts, trick = parts.counts, parts.chunks.trick  # trick: (batch, 4 seats, 54)
        suits = counts.one_hot  # (batch, 54, 5)
        seats = obs.index_select(1, self.seat_columns).reshape(-1, 2, 4)  # leader, winner
        led_winning = seats @ trick  # (batch, 2, 54): the lead and the winning play
        present = led_winning > 0
        led, winning = led_winning[:, :1], present[:, 1:]  # winning: its cards, as booleans
        shown = (present.float() @ suits).clamp(max=1.0)  # (batch, 2, 5)
        order = parts.chunks.card_order + 1.0  # 0: no card below
        top = torch.where(winning, order, 0.0).transpose(1, 2)  # (batch, 54, 1)
        top_by_suit = (top * suits).amax(1, keepdim=True)
        hand_by_suit = counts.by_group[:, -1:]
        voids = self._voids(obs, parts.row)
        by_suit = torch.cat([shown, top_by_suit, hand_by_suit, voids], dim=1)  # (batch, 6, 5)
        by_slot = by_suit @ suits.transpose(1, 2)  # (batch, 6, 54): each slot's suit's value
        led_suit, holds, top_by_slot, rest = by_slot.split([1, 1, 1, 3], dim=1)
        above = (order > top_by_slot).float() * holds  # holds: the winner holds the suit
        points = self.points_by_slot.index_select(0, parts.row)  # (batch, 1, 54)
        per_slot = torch.cat([led_suit, holds, above, points, rest], dim=1)
        over_winner = torch.where(winning, counts.per_slot[:, -1:], NO_WINNER).amin(2)
        context = [
            (trick.sum(1, keepdim=True) * points).sum(2),
            led.sum(2),
            led.amax(2),
            shown[:, 1, -1:],  # the winning play holds trump
            torch.where(over_winner < NO_WINNER, over_winner, 0.0),
        ]
        return per_slot, torch.cat(context, dim=1)

    def _voids(self, obs: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
        """(batch, 2, 5) by effective suit in slot order: the partner void there; an
        opponent void there and not in trump."""
        voids = obs[:, self.voids].reshape(-1, 4, NUM_GROUPS)  # relative seat x column
        by_suit = voids @ self.void_spread.index_select(0, row)  # trump last
        opponents = by_suit[:, OPPONENTS]
        threat = (opponents * (1.0 - opponents[:, :, -1:])).amax(1, keepdim=True)
        return torch.cat([by_suit[:, PARTNER : PARTNER + 1], threat], dim=1)


def _columns(block: str) -> range:
    """The observation columns of a block."""
    return range(OBS_LAYOUT[block].start, OBS_LAYOUT[block].stop)
