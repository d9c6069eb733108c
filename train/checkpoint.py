"""What a training checkpoint holds beyond the weights: the random states that make a
resumed run continue exactly. The file format is :mod:`agents.policy_file`'s."""

from __future__ import annotations

import random
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
