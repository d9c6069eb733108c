"""The policy-value network: an MLP over the observation (optionally with trump-relative
card-counting features), a masked categorical over 55 actions. Shared by play and training."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from shengji_env.actions import NUM_ACTIONS
from shengji_env.encoding import OBS_SIZE, RECORD_SIZE
from shengji_env.rules.cards import NUM_CARD_TYPES

from .canonical import (
    BY_GROUP,
    COUNTED_CHUNKS,
    RECORD_CHUNKS,
    RECORD_CONTEXT,
    Canonicalize,
    context_columns,
)
from .card_net import CardNet
from .masked_policy import MASKED_LOGIT, MaskedPolicy

ADVICE_BONUS = 5.0  # an advised net starts by taking the advice (p ~ 0.9 among ~10 legal)


def _layer(inputs: int, outputs: int, gain: float = 2**0.5) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


class PolicyNet(MaskedPolicy):
    """Shared trunk, a policy head over the 55 card-by-card actions and a value head. It
    reads the observation's record (the blocks before the derived ones, ``RECORD_SIZE``).

    With ``counting`` the card features are first put in trump-relative slot order
    (:mod:`shengji_env.agents.canonical`), card-counting features are added to them, and the card
    logits are mapped back to card ids. With ``advised`` the net also reads the heuristic's
    advice (:mod:`shengji_env.agents.advice`: the action HeuristicAgent would take next, -1 where it
    has none) as a one-hot input and adds a learned bonus to that action's logit, so it can
    learn where to depart from the heuristic.
    """

    def __init__(
        self,
        hidden_sizes: Sequence[int] = (512, 256),
        obs_size: int = RECORD_SIZE,
        counting: bool = False,
        advised: bool = False,
    ) -> None:
        super().__init__()
        self.canonical = Canonicalize() if counting else None
        self.obs_size = obs_size
        if counting:
            columns, gains = context_columns(play=False, decks=False)
            self.register_buffer("context_columns", torch.tensor(columns), persistent=False)
            self.register_buffer("context_gains", torch.tensor(gains), persistent=False)
        layers: list[nn.Module] = []
        self.advised = advised
        self.advice_bonus = nn.Parameter(torch.tensor(ADVICE_BONUS)) if advised else None
        counted = COUNTED_CHUNKS * NUM_CARD_TYPES + BY_GROUP  # per slot, then by suit group
        width = obs_size + (counted if counting else 0) + (NUM_ACTIONS if advised else 0)
        for size in hidden_sizes:
            layers += [_layer(width, size), nn.ReLU()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy = _layer(width, NUM_ACTIONS, gain=0.01)
        self.value = _layer(width, 1, gain=1.0)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor, advice: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values for a batch (``advice``: (batch,) action ids, -1 for
        none; required by an advised net, ignored otherwise)."""
        if self.canonical is None:
            features, slot_of_card = obs[:, : self.obs_size], None
        else:
            features, slot_of_card = self._counting_features(obs)
        if self.advice_bonus is not None:
            if advice is None:
                raise ValueError("an advised policy needs the heuristic's advice as input")
            features = torch.cat([features, self._advice_input(advice, slot_of_card)], dim=1)
        hidden = self.trunk(features)
        logits = self.policy(hidden)
        if slot_of_card is not None:
            logits = torch.cat([logits[:, :-1].gather(1, slot_of_card), logits[:, -1:]], dim=1)
        if self.advice_bonus is not None:
            logits = logits + self.advice_bonus * _one_hot(advice)
        logits = logits.masked_fill(mask == 0, MASKED_LOGIT)
        return logits, self.value(hidden).squeeze(-1)

    def _counting_features(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The record's cards in slot order, its other blocks, then the card counting (in
        slot order, then by suit group); and each card's slot."""
        assert self.canonical is not None
        parts = self.canonical(obs)
        record, counted = parts.cards.split([RECORD_CHUNKS, COUNTED_CHUNKS], dim=1)
        context = obs.index_select(1, self.context_columns) * self.context_gains
        rest, by_group = context.split([len(RECORD_CONTEXT), BY_GROUP], dim=1)
        features = torch.cat([record.flatten(1), rest, counted.flatten(1), by_group], dim=1)
        return features, parts.slot_of_card

    @staticmethod
    def _advice_input(advice: torch.Tensor, slot_of_card: torch.Tensor | None) -> torch.Tensor:
        """The advice one-hot, its card in the same slot order as the card features."""
        if slot_of_card is None:
            return _one_hot(advice)
        card = advice.clamp(0, NUM_ACTIONS - 2)[:, None]
        slot = slot_of_card.gather(1, card).squeeze(1)
        is_card = (advice >= 0) & (advice < NUM_ACTIONS - 1)
        return _one_hot(torch.where(is_card, slot, advice))


def make_network(config: dict) -> MaskedPolicy:
    """The network a (training) config dict describes."""
    if config.get("network") == "cards":
        return CardNet(
            config.get("card_width", 64),
            config.get("card_blocks", 2),
            play_features=config.get("card_play_features", False),
            deck_context=config.get("card_deck_context", False),
        )
    return PolicyNet(
        config.get("hidden_sizes", [512, 256]),
        counting=config.get("network", "mlp") == "counting",
        advised=config.get("advice", False),
    )


def _one_hot(actions: torch.Tensor) -> torch.Tensor:
    """(batch,) action ids, -1 for none -> (batch, NUM_ACTIONS) floats (zeros for none)."""
    hot = nn.functional.one_hot(actions.long().clamp(min=0), NUM_ACTIONS).float()
    return hot * (actions >= 0).float()[:, None]


def network_from_checkpoint(data: dict, source: object = "checkpoint") -> MaskedPolicy:
    """The policy network of loaded checkpoint ``data``, its weights in place.

    Raises:
        ValueError: the weights do not fit the network this version builds from the
            checkpoint's config (another observation layout or network shape).
    """
    net = make_network(data.get("config", {}))
    expected = {k: tuple(v.shape) for k, v in net.state_dict().items()}
    found = {k: tuple(v.shape) for k, v in data["model"].items()}
    if found != expected:
        first = min(k for k in expected.keys() | found.keys() if expected.get(k) != found.get(k))
        raise ValueError(
            f"{source}: its weights do not fit this version's network ({first}: "
            f"{found.get(first, 'missing')} in the file, {expected.get(first, 'none')} here; "
            f"observation size now {OBS_SIZE}): it was trained with another observation "
            "layout or network; retrain it, or use the version it was made with"
        )
    net.load_state_dict(data["model"])
    return net
