"""What an agent is: anything with ``act(observation, info) -> int`` (and optional ``reset()``)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Chooses one action id (0..54) from an observation dict and the ``info`` of ``last()``."""

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int: ...
