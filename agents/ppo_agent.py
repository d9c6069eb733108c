"""A trained policy as an agent: ``ppo:PATH`` (a checkpoint file, or a model folder with
``policy.pt``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


class PPOAgent:
    """Plays the policy's most likely legal action (or samples with ``sample=1``)."""

    def __init__(self, path: str, sample: int = 0, seed: int | None = None) -> None:
        import torch

        from train.checkpoint import load_checkpoint
        from train.network import make_network

        file = Path(path)
        if file.is_dir():
            file = file / "policy.pt"
        data = load_checkpoint(file)
        self.net = make_network(data.get("config", {}))
        self.net.load_state_dict(data["model"])
        self.net.eval()
        self.sample = bool(sample)
        self.generator = torch.Generator().manual_seed(seed or 0)
        self._torch = torch

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        torch = self._torch
        with torch.no_grad():
            obs = torch.from_numpy(observation["observation"])[None]
            mask = torch.from_numpy(observation["action_mask"])[None]
            logits, _ = self.net(obs, mask)
            if self.sample:
                return int(
                    torch.multinomial(torch.softmax(logits, -1), 1, generator=self.generator)
                )
            return int(logits.argmax())
