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
    """(card chunks in slot order, effective suit by slot, observation, each card's slot,
    outstanding cards beating each slot, copies in hand by effective suit — the last two
    from :class:`~agents.canonical.CardFeatures`) -> per-slot features (batch, 54,
    PLAY_PER_SLOT) and context (batch, PLAY_CONTEXT)."""

    def __init__(self) -> None:
        super().__init__()
        points = torch.tensor(POINTS, dtype=torch.float32) / POINT_SCALE
        self.register_buffer("points", points, persistent=False)
        self.register_buffer("void_columns", _void_columns(), persistent=False)
        self.winner = OBS_LAYOUT["trick_winner"]
        self.leader = OBS_LAYOUT["leader"]
        self.voids = OBS_LAYOUT["voids"]
        self.trump = OBS_LAYOUT["trump_suit"]

    def forward(
        self,
        cards: torch.Tensor,
        group: torch.Tensor,
        obs: torch.Tensor,
        slot_of_card: torch.Tensor,
        higher_out: torch.Tensor,
        hand_by_suit: torch.Tensor,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        suits = nn.functional.one_hot(group, NUM_GROUPS).float()  # (batch, 54, 5)
        trick = cards[:, TRICK_CHUNKS]  # (batch, 4 seats, 54)
        winning = (obs[:, self.winner, None] * trick).sum(1)  # (batch, 54)
        led = (obs[:, self.leader, None] * trick).sum(1)
        winner_holds_suit = _by_slot(_suits_of(winning, suits), suits)
        order = cards[:, CARD_ORDER_CHUNK] + 1.0  # 0 marks no card below
        top_by_suit = ((order * (winning > 0).float())[:, :, None] * suits).amax(1)
        above = (order > _by_slot(top_by_suit, suits)) & (winner_holds_suit > 0.5)
        points = torch.zeros_like(higher_out).scatter(  # (batch, 54) by slot
            1, slot_of_card, self.points.expand_as(higher_out)
        )
        partner_void, ruff_threat = self._voids(obs)
        per_slot = [
            _by_slot(_suits_of(led, suits), suits),
            winner_holds_suit,
            above.float(),
            points,
            _by_slot(hand_by_suit, suits),
            _by_slot(partner_void, suits),
            _by_slot(ruff_threat, suits),
        ]
        over_winner = torch.where(winning > 0, higher_out, torch.full_like(higher_out, 1e3))
        context = [
            (trick.sum(1) * points).sum(1),
            led.sum(1),
            led.amax(1),
            winner_holds_suit[:, -1],  # the trump slots close the slot order
            over_winner.amin(1) * (winning.sum(1) > 0).float(),
        ]
        return torch.stack(per_slot, dim=2), torch.stack(context, dim=1)

    def _voids(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(batch, 5) by effective suit in slot order: the partner void there; an opponent
        void there and not in trump."""
        voids = obs[:, self.voids].reshape(-1, 4, NUM_GROUPS)  # relative seat x column
        columns = self.void_columns[obs[:, self.trump].argmax(1)]  # (batch, 5)
        by_suit = voids.gather(2, columns[:, None, :].expand(-1, 4, -1))
        opponents = by_suit[:, list(OPPONENTS)] * (1.0 - voids[:, list(OPPONENTS), TRUMP:])
        return by_suit[:, PARTNER], opponents.amax(1)


def _suits_of(play: torch.Tensor, suits: torch.Tensor) -> torch.Tensor:
    """(batch, 5): 1.0 for each effective suit with a card in ``play`` (batch, 54)."""
    return ((play > 0).float()[:, None, :] @ suits).squeeze(1).clamp(max=1.0)


def _by_slot(by_suit: torch.Tensor, suits: torch.Tensor) -> torch.Tensor:
    """(batch, 5) values by effective suit -> (batch, 54) each slot's suit's value."""
    return (suits @ by_suit[:, :, None]).squeeze(-1)
