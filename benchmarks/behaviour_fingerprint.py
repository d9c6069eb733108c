"""Fingerprints of the project's behaviour, to show a refactor changed nothing.

Prints one JSON object: the golden trace's SHA-256; per shipped model, its duplicate-deal
results against HeuristicAgent on fixed seeds; the weights after resuming the committed
checkpoint for one small update; the weights of a tiny run from scratch (cloning, PPO,
evaluation). Run it before and after a change on the same machine and compare.

    .venv/bin/python benchmarks/behaviour_fingerprint.py --deals 20 > before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import torch

from shengji_env.agents.arena import run_arena
from shengji_env.demo import hand_trace
from shengji_env.rules import RuleConfig
from shengji_env.train.config import load_config
from shengji_env.train.ppo import train

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("quick-v2", "full-v2", "full-v3", "full-v4")
RESUME_OVERRIDES = {
    "steps_per_update": 512,
    "num_workers": 0,
    "envs_per_worker": 4,
    "eval_every": 0,
    "checkpoint_every": 1,
    "torch_threads": 1,
}
TINY_RUN = [
    "total_steps=1500",
    "steps_per_update=500",
    "envs_per_worker=2",
    "hidden_sizes=[32]",
    "minibatch_size=128",
    "update_epochs=2",
    "eval_every=3",
    "eval_deals=2",
    "checkpoint_every=1",
    "snapshot_every=1",
    "bc_steps=300",
    "bc_epochs=1",
    "num_workers=0",
    "duplicate_baseline=true",
    "opponents={self: 0.4, snapshot: 0.2, heuristic: 0.4}",
]


def weights_digest(path: Path) -> str:
    state = torch.load(path, map_location="cpu", weights_only=True)["model"]
    digest = hashlib.sha256()
    for name in sorted(state):
        digest.update(name.encode())
        digest.update(state[name].numpy().tobytes())
    return digest.hexdigest()


def arena_outcomes(model: str, deals: int) -> list[list[float]]:
    result = run_arena([f"ppo:{ROOT / 'models' / model}", "heuristic"], deals, seed=2026)
    return [[h.a_reward for h in record.hands] for record in result.records]


def resumed_digest() -> str:
    with tempfile.TemporaryDirectory() as folder:
        checkpoint = Path(folder) / "checkpoint.pt"
        shutil.copy(ROOT / "checkpoints" / "full" / "checkpoint.pt", checkpoint)
        sidecar = ROOT / "checkpoints" / "full" / "checkpoint.pt.sha256"
        if sidecar.exists():  # the SHA-256 of a format-1 file
            shutil.copy(sidecar, folder)
        state = torch.load(checkpoint, map_location="cpu", weights_only=True)
        overrides = {**RESUME_OVERRIDES, "total_steps": state["global_step"] + 1}
        run = train(resume=checkpoint, max_updates=1, overrides=overrides)
        return weights_digest(run / "checkpoint.pt")


def tiny_run_digest() -> str:
    with tempfile.TemporaryDirectory() as folder:
        run = train(load_config(None, [*TINY_RUN, f"run_dir={folder}", "run_name=tiny"]))
        return weights_digest(run / "checkpoint.pt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="duplicate deals per model")
    args = parser.parse_args()
    torch.set_num_threads(1)
    fingerprint = {
        "golden_trace": hashlib.sha256(
            "\n".join(hand_trace(RuleConfig(decks=2), 7)).encode()
        ).hexdigest(),
        "arena": {model: arena_outcomes(model, args.deals) for model in MODELS},
        "resumed_checkpoint": resumed_digest(),
        "tiny_run": tiny_run_digest(),
    }
    print(json.dumps(fingerprint, indent=1))


if __name__ == "__main__":
    main()
