"""What a training checkpoint holds beyond the weights: the random states that make a
resumed run continue exactly. The file format is :mod:`shengji_env.agents.policy_file`'s."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import torch

from shengji_env.agents.network import make_network
from shengji_env.card_reading import DECK_COUNTS


def rng_state(numpy_rng: np.random.Generator) -> dict[str, Any]:
    return {
        "python": random.getstate(),
        "numpy": numpy_rng.bit_generator.state,
        "torch": torch.get_rng_state(),
    }


def restore_rng(state: dict[str, Any], numpy_rng: np.random.Generator) -> None:
    version, internal, gauss = state["python"]
    random.setstate((version, tuple(internal), gauss))
    numpy_rng.bit_generator.state = state["numpy"]
    torch.set_rng_state(state["torch"])


RESUME_PARTS = {
    "optimizer": dict,
    "config": dict,
    "update": int,
    "global_step": int,
    "league": list,
    "rng": dict,
}


def check_resumable(data: dict[str, Any], path: Path) -> None:
    """``data`` (a loaded checkpoint) holds what resuming a run needs.

    Raises:
        ValueError: it is a policy file (weights and config only: a model folder's
            ``policy.pt``), or a part is missing or of the wrong kind — before anything
            is written.
    """
    if "optimizer" not in data and "rng" not in data:
        raise ValueError(
            f"{path} is a policy (weights and config only), not a training checkpoint: it "
            "plays (ppo:) but cannot resume; resume the run's checkpoint.pt instead"
        )
    for name, kind in RESUME_PARTS.items():
        if not isinstance(data.get(name), kind):
            raise ValueError(f"{path}: '{name}' is missing or not a {kind.__name__}")
    if not {"python", "numpy", "torch"} <= set(data["rng"]):
        raise ValueError(f"{path}: 'rng' lacks the python, numpy or torch state")


CONTEXT_WEIGHT = "context.0.weight"


def add_deck_context(state: dict[str, Any]) -> None:
    """Turn on ``card_deck_context`` in a loaded checkpoint of a card network, in place.

    The context layer gains the deck count's input columns with zero weights, in the
    policy, its league snapshots and Adam's moments, so the grown network computes exactly
    what the old one did until training moves the new weights.

    Raises:
        ValueError: the checkpoint is not of a card network, or already reads the deck count.
    """
    config = state["config"]
    if config.get("network") != "cards" or config.get("card_deck_context", False):
        raise ValueError(
            "adding the deck context needs a checkpoint of network: cards without "
            f"card_deck_context (got network {config.get('network')!r}, card_deck_context "
            f"{config.get('card_deck_context', False)})"
        )
    names = [name for name, _ in make_network(config).named_parameters()]  # Adam's keys
    for weights in [state["model"], *state["league"]]:
        weights[CONTEXT_WEIGHT] = _pad_columns(weights[CONTEXT_WEIGHT])
    moments = state["optimizer"]["state"].get(names.index(CONTEXT_WEIGHT), {})
    for key in ("exp_avg", "exp_avg_sq"):
        if key in moments:
            moments[key] = _pad_columns(moments[key])
    config["card_deck_context"] = True


def _pad_columns(matrix: torch.Tensor) -> torch.Tensor:
    return torch.cat([matrix, matrix.new_zeros(matrix.shape[0], DECK_COUNTS)], dim=1)
