"""The stand-alone card network (``network: cards``): one token per card slot, not one
flat vector.

Each of the 54 trump-relative slots (:mod:`shengji_env.agents.canonical`: the same card role in the
same slot whatever the trump and level) becomes a token of what the game has shown about
that card: the copies in hand and selected, each seat's plays this hand and in the
current trick, what failed throws revealed, the kitty, whether it is trump and its order,
and the card counting (copies still out, outstanding cards that beat it, whether nothing
outstanding does), and with ``play_features`` the card's reading of the trick. The rest
of the observation (voids, levels, declaration, seats, phase, progress, by-suit sums, with
``deck_context`` the deck count) is a context vector added to every token. The counting
and the readings are observation blocks (:mod:`shengji_env.card_reading`): the network
gathers them into slot order with the card blocks in one step.

Blocks then mix each token with its neighbours in rank order within its suit (slot order
skips the level rank, so neighbours are the cards a tractor joins) and with the mean of
its effective suit (trump as one), with a residual and layer norm. Each card action's
logit comes from its slot's token; the commit action and the value come from the tokens
pooled with the context. No rule bot runs: the observation and the mask are the inputs.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import nn

from shengji_env.rules.cards import NUM_CARD_TYPES

from .canonical import Canonicalize, context_columns
from .masked_policy import MASKED_LOGIT, MaskedPolicy


def _linear(inputs: int, outputs: int, gain: float = 2**0.5) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class CardBlock(nn.Module):
    """A token reads itself, its rank neighbours in its suit and its suit's mean."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.mix = nn.Sequential(
            _linear(4 * width, width), nn.ReLU(), _linear(width, width, gain=0.5)
        )
        self.norm = nn.LayerNorm(width)

    def forward(self, tokens: torch.Tensor, suits: Suits) -> torch.Tensor:
        """``tokens`` (batch, 54, width) in slot order."""
        lower = nn.functional.pad(tokens, (0, 0, 1, -1)) * suits.lower_in_suit  # shifted down
        higher = nn.functional.pad(tokens, (0, 0, -1, 1)) * suits.higher_in_suit
        suit_mean = suits.one_hot @ (suits.means @ tokens)
        mixed = self.mix(torch.cat([tokens, lower, higher, suit_mean], dim=2))
        return self.norm(tokens + mixed)


class Suits(NamedTuple):
    """Where each slot's effective suit (trump as one) puts it, for :class:`CardBlock`."""

    one_hot: torch.Tensor  # (batch, 54, 5): 1 where the slot is in the suit
    means: torch.Tensor  # (batch, 5, 54): the transpose / the suit's size
    lower_in_suit: torch.Tensor  # (batch, 54, 1): slot i-1 is in slot i's suit
    higher_in_suit: torch.Tensor  # (batch, 54, 1): slot i+1 is in slot i's suit

    @classmethod
    def of(cls, one_hot: torch.Tensor) -> Suits:
        """From the slots' effective suits one-hot (batch, 54, 5). Negative pads shift
        by a slot in one exported node each (a slice and a pad otherwise)."""
        members = one_hot.transpose(1, 2)
        means = members / members.sum(2, keepdim=True).clamp(min=1.0)
        next_one = nn.functional.pad(one_hot, (0, 0, -1, 1))  # slot i+1's suit, none past the end
        higher = (next_one * one_hot).sum(2, keepdim=True)
        lower = nn.functional.pad(higher, (0, 0, 1, -1))
        return cls(one_hot, means, lower, higher)


class CardNet(MaskedPolicy):
    """Policy and value over card tokens (see the module text). ``advised`` is always
    False: the interface matches :class:`shengji_env.agents.network.PolicyNet`'s."""

    def __init__(
        self,
        width: int = 64,
        blocks: int = 2,
        head: int = 128,
        play_features: bool = False,
        deck_context: bool = False,
    ) -> None:
        super().__init__()
        self.canonical = Canonicalize(play=play_features)
        columns, gains = context_columns(play_features, deck_context)
        self.register_buffer("context_columns", torch.tensor(columns), persistent=False)
        self.register_buffer("context_gains", torch.tensor(gains), persistent=False)
        per_slot, context = self.canonical.chunks, len(columns)
        self.embed = _linear(per_slot, width)
        self.slot_embedding = nn.Parameter(torch.zeros(NUM_CARD_TYPES, width))
        self.context = nn.Sequential(_linear(context, width), nn.ReLU())
        self.blocks = nn.ModuleList(CardBlock(width) for _ in range(blocks))
        self.card_logit = _linear(width, 1, gain=0.01)
        self.summary = nn.Sequential(_linear(3 * width, head), nn.ReLU())
        self.commit_logit = _linear(head, 1, gain=0.01)
        self.value = _linear(head, 1, gain=1.0)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor, advice: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (batch, 55) by action id and values (batch,); ``advice`` is
        ignored (a stand-alone network)."""
        del advice
        parts = self.canonical(obs)
        slots = parts.cards.transpose(1, 2)  # (batch, 54, chunks)
        context = obs.index_select(1, self.context_columns) * self.context_gains
        mixed_context = self.context(context)
        slot_bias = self.slot_embedding + self.embed.bias  # one constant in an export
        tokens = nn.functional.linear(slots, self.embed.weight) + slot_bias
        tokens = tokens + mixed_context[:, None, :]
        suits = Suits.of(parts.one_hot)
        for block in self.blocks:
            tokens = block(tokens, suits)
        pooled = torch.cat([tokens.mean(1), tokens.amax(1), mixed_context], dim=1)
        summary = self.summary(pooled)
        by_slot = self.card_logit(tokens).squeeze(-1)  # (batch, 54) by slot
        by_card = by_slot.gather(1, parts.slot_of_card)
        logits = torch.cat([by_card, self.commit_logit(summary)], dim=1)
        logits = logits.masked_fill(mask == 0, MASKED_LOGIT)
        return logits, self.value(summary).squeeze(-1)
