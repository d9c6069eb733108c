"""A trained policy as an agent: ``ppo:PATH`` (a checkpoint file, or a model folder with
``policy.pt``)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from .advice import HeuristicTeacher


@functools.lru_cache(maxsize=4)
def _load_network(file: Path, mtime_ns: int) -> Any:
    """The policy network of a checkpoint, loaded once per process (an arena builds an
    agent per seat and hand; a full training checkpoint with its league is large)."""
    from train.checkpoint import load_checkpoint
    from train.network import network_from_checkpoint

    del mtime_ns  # part of the cache key only: a rewritten file is loaded again
    net = network_from_checkpoint(load_checkpoint(file), file)
    net.eval()
    return net


class PPOAgent:
    """Plays the policy's most likely legal action (or samples with ``sample=1``). An advised
    policy gets HeuristicAgent's advice computed alongside."""

    def __init__(self, path: str, sample: int = 0, seed: int | None = None) -> None:
        import torch

        file = Path(path)
        if file.is_dir():
            file = file / "policy.pt"
        self.net = _load_network(file.resolve(), file.stat().st_mtime_ns if file.exists() else 0)
        self.sample = bool(sample)
        self.advisor = HeuristicTeacher() if self.net.advised else None
        self.generator = torch.Generator().manual_seed(seed or 0)
        self._torch = torch

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        torch = self._torch
        with torch.no_grad():
            obs = torch.from_numpy(observation["observation"])[None]
            mask = torch.from_numpy(observation["action_mask"])[None]
            advice = None
            if self.advisor is not None:
                advice = torch.tensor([self.advisor.label(observation, info)])
            logits, _ = self.net(obs, mask, advice)
            if self.sample:
                return int(
                    torch.multinomial(torch.softmax(logits, -1), 1, generator=self.generator)
                )
            return int(logits.argmax())
