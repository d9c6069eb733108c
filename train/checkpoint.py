"""What a training checkpoint holds beyond the weights: the random states that make a
resumed run continue exactly. The file format is :mod:`agents.policy_file`'s."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import torch


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
