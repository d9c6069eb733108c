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
from shengji_env.rules.cards import NUM_SUITS, POINTS
from shengji_env.rules.trump import TRUMP

from .canonical import CARD_ORDER_CHUNK, NUM_GROUPS, TRICK_CHUNKS

PLAY_PER_SLOT = 7  # led suit, winner holds the suit, above the winner, points, suit length,
# partner void, opponent ruff threat
PLAY_CONTEXT = 5  # trick points, the lead's size and most copies, winner trump, cards over it
POINT_SCALE = 10.0  # a ten or king is 1.0
PARTNER, OPPONENTS = 2, (1, 3)  # relative seats


def _void_columns() -> torch.Tensor:
    """(5, 5): for each trump index (the suits, then none), the ``voids`` column of each
    effective suit in slot order (the plain suits but the trump one, then trump)."""
    rows = []
    for trump in range(NUM_SUITS + 1):
        plain = [suit for suit in range(NUM_SUITS) if suit != trump]
        plain += [trump] * (NUM_SUITS - len(plain))  # an unused group where there is a trump
        rows.append([*plain, TRUMP])
    return torch.tensor(rows)


class PlayFeatures(nn.Module):
    """(card chunks in slot order, each slot's effective suit one-hot (batch, 54, 5),
    observation, each card's slot, outstanding cards beating each slot, copies in hand by
    effective suit — the last two from :class:`~agents.canonical.CardFeatures`) -> per-slot
    features (batch, PLAY_PER_SLOT, 54), laid out as the card chunks are, and context
    (batch, PLAY_CONTEXT).

    Written for a small exported graph (each ONNX node costs about a microsecond at batch
    one): values by suit are gathered into one (batch, k, 5) stack and spread to the slots
    by one product with the suits, and reductions keep their dimension."""

    def __init__(self) -> None:
        super().__init__()
        points = torch.tensor(POINTS, dtype=torch.float32) / POINT_SCALE
        self.register_buffer("points", points, persistent=False)
        self.register_buffer("void_columns", _void_columns(), persistent=False)
        seats = [*_columns("leader"), *_columns("trick_winner")]
        self.register_buffer("seat_columns", torch.tensor(seats), persistent=False)
        self.voids = OBS_LAYOUT["voids"]
        self.trump = OBS_LAYOUT["trump_suit"]

    def forward(
        self,
        cards: torch.Tensor,
        suits: torch.Tensor,
        obs: torch.Tensor,
        slot_of_card: torch.Tensor,
        higher_out: torch.Tensor,
        hand_by_suit: torch.Tensor,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        trick = cards[:, TRICK_CHUNKS]  # (batch, 4 seats, 54)
        seats = obs[:, self.seat_columns].reshape(-1, 2, 4)  # the leader, the winner
        led_winning = seats @ trick  # (batch, 2, 54): the lead and the winning play
        led, winning = led_winning[:, :1], led_winning[:, 1:]
        shown = ((led_winning > 0).float() @ suits).clamp(max=1.0)  # (batch, 2, 5)
        order = cards[:, CARD_ORDER_CHUNK : CARD_ORDER_CHUNK + 1] + 1.0  # 0: no card below
        top_by_suit = ((order * (winning > 0).float()).transpose(1, 2) * suits).amax(1)
        by_suit = torch.cat([shown, top_by_suit[:, None], hand_by_suit[:, None]], dim=1)
        by_suit = torch.cat([by_suit, self._voids(obs)], dim=1)  # (batch, 6, 5)
        by_slot = by_suit @ suits.transpose(1, 2)  # (batch, 6, 54): each slot's suit's value
        winner_holds_suit = by_slot[:, 1:2]
        above = (order > by_slot[:, 2:3]) & (winner_holds_suit > 0.5)
        points = torch.zeros_like(higher_out).scatter(  # (batch, 54) by slot
            1, slot_of_card, self.points.expand_as(higher_out)
        )[:, None]
        per_slot = torch.cat([by_slot[:, :2], above.float(), points, by_slot[:, 3:]], dim=1)
        over_winner = torch.where(winning[:, 0] > 0, higher_out, 1e3)
        context = [
            (trick.sum(1, keepdim=True) * points).sum(2),
            led.sum(2),
            led.amax(2),
            shown[:, 1, -1:],  # the winning play holds trump
            over_winner.amin(1, keepdim=True) * (winning.sum(2) > 0).float(),
        ]
        return per_slot, torch.cat(context, dim=1)

    def _voids(self, obs: torch.Tensor) -> torch.Tensor:
        """(batch, 2, 5) by effective suit in slot order: the partner void there; an
        opponent void there and not in trump."""
        voids = obs[:, self.voids].reshape(-1, 4, NUM_GROUPS)  # relative seat x column
        columns = self.void_columns[obs[:, self.trump].argmax(1)]  # (batch, 5)
        by_suit = voids.gather(2, columns[:, None, :].expand(-1, 4, -1))
        opponents = by_suit[:, list(OPPONENTS)] * (1.0 - voids[:, list(OPPONENTS), TRUMP:])
        return torch.cat([by_suit[:, PARTNER : PARTNER + 1], opponents.amax(1, keepdim=True)], 1)


def _columns(block: str) -> range:
    """The observation columns of a block."""
    return range(OBS_LAYOUT[block].start, OBS_LAYOUT[block].stop)
