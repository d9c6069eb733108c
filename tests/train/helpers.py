"""A tiny training budget shared by the training tests."""

from pathlib import Path

import torch

from shengji_env.train.config import TrainConfig, load_config

TINY = [
    "total_steps=1500",
    "steps_per_update=500",
    "envs_per_worker=1",
    "hidden_sizes=[32]",
    "minibatch_size=128",
    "update_epochs=2",
    "eval_every=0",
    "checkpoint_every=1",
    "snapshot_every=1",
    "bc_steps=300",
    "bc_epochs=1",
]


def tiny(run_dir: Path, *more: str) -> TrainConfig:
    """The tiny config writing under ``run_dir``; later overrides win."""
    return load_config(None, [*TINY, f"run_dir={run_dir}", *more])


def same_weights(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
