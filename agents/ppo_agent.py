"""A trained policy as an agent: ``ppo:PATH`` (a checkpoint file, or a model folder with
``policy.pt``), or a network in memory (:meth:`PPOAgent.of`, for in-run evaluation).

One decision is a batch of one: more threads only cost. A policy loaded from a file decides
on one thread (``threads``, an option of the spec: ``ppo:PATH,threads=2``), whatever torch's
default for the process; the process's own setting is restored after each decision. A
network in memory keeps its process's setting (the learner's)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .advice import HeuristicAdvice
from .network import PolicyNet, network_from_checkpoint
from .policy_file import load_checkpoint, policy_path


@functools.lru_cache(maxsize=4)
def _load_network(file: Path, mtime_ns: int) -> PolicyNet:
    """The policy network of a checkpoint, loaded once per process (an arena builds an
    agent per seat and hand; a full training checkpoint with its league is large)."""
    del mtime_ns  # part of the cache key only: a rewritten file is loaded again
    net = network_from_checkpoint(load_checkpoint(file), file)
    net.eval()
    return net


class PPOAgent:
    """Plays the policy's most likely legal action (or samples with ``sample=1``). An advised
    policy gets HeuristicAgent's advice computed alongside."""

    def __init__(
        self, path: str, sample: int = 0, seed: int | None = None, threads: int = 1
    ) -> None:
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        file = policy_path(path)
        mtime = file.stat().st_mtime_ns if file.exists() else 0
        self._setup(_load_network(file.resolve(), mtime), sample, seed)
        self.threads: int | None = threads

    @classmethod
    def of(cls, net: PolicyNet, sample: int = 0, seed: int | None = None) -> PPOAgent:
        """An agent playing ``net`` as it is now (no file)."""
        agent = cls.__new__(cls)
        agent._setup(net, sample, seed)
        agent.threads = None
        return agent

    def _setup(self, net: PolicyNet, sample: int, seed: int | None) -> None:
        self.net = net
        self.sample = bool(sample)
        self.advice = HeuristicAdvice() if net.advised else None
        self.generator = torch.Generator().manual_seed(seed or 0)

    def reset(self) -> None:
        pass

    @torch.no_grad()
    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        obs = torch.from_numpy(observation["observation"])[None]
        mask = torch.from_numpy(observation["action_mask"])[None]
        advice = None
        if self.advice is not None:
            advice = torch.tensor([self.advice.next_action(observation, info)])
        with _torch_threads(self.threads):
            logits, _ = self.net(obs, mask, advice)
        if self.sample:
            return int(torch.multinomial(torch.softmax(logits, -1), 1, generator=self.generator))
        return int(logits.argmax())


@contextlib.contextmanager
def _torch_threads(count: int | None) -> Iterator[None]:
    """torch on ``count`` threads inside the block (``None``: as it is), then as before."""
    previous = torch.get_num_threads()
    if count is None or count == previous:
        yield
        return
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
