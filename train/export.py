"""Export a trained policy to ONNX with a JSON manifest, for front ends without PyTorch.

The folder holds ``policy.onnx`` (inputs ``observation`` float32 (batch, OBS_SIZE) and
``action_mask`` int8 (batch, 55), and for an advised policy ``advice`` int64 (batch,): the
action HeuristicAgent would take next, -1 for none; outputs masked ``logits`` (batch, 55)
and ``value`` (batch,)) and ``manifest.json``: the action space, the observation layout
(block names and slices), the rule configuration, the inputs, the model's version and
SHA-256, and golden input/output vectors recorded from real positions.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

from shengji_env.actions import COMMIT, NUM_ACTIONS
from shengji_env.agents.advice import NO_ADVICE, HeuristicAdvice
from shengji_env.agents.network import network_from_checkpoint
from shengji_env.agents.policy_file import load_checkpoint
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE
from shengji_env.env import raw_env
from shengji_env.rules import RuleConfig, format_card

MANIFEST_FORMAT = "shengji-policy"
MANIFEST_VERSION = 1


def rule_config_of(config: dict[str, Any]) -> dict[str, Any]:
    """The RuleConfig a training config plays (``start_level`` "random" kept as is)."""
    rules = dict(config.get("rules", {}))
    start_level = rules.pop("start_level", "2")
    full = RuleConfig(decks=config.get("decks", 2), **rules).to_dict()
    full["start_level"] = start_level
    return full


def golden_positions(
    config: dict[str, Any], count: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations, masks and, for an advised policy's ``config``, the heuristic's advice
    (else -1) of real decisions from seeded random play."""
    env = raw_env(decks=config.get("decks", 2), **config.get("rules", {}))
    source = HeuristicAdvice() if config.get("advice", False) else None
    rng = np.random.default_rng(seed)
    observations, masks, advice = [], [], []
    env.reset(seed=seed)
    while len(observations) < count:
        if not env.agents or all(env.terminations.values()):
            env.reset()
            continue
        observed = env.observe(env.agent_selection)
        if rng.random() < 0.05:
            observations.append(observed["observation"])
            masks.append(observed["action_mask"])
            info = env.infos[env.agent_selection]
            advice.append(NO_ADVICE if source is None else source.next_action(observed, info))
        env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
    return np.array(observations), np.array(masks), np.array(advice, dtype=np.int64)


def export_policy(checkpoint: Path, out_dir: Path, golden: int = 4) -> Path:
    """Write ``policy.onnx`` and ``manifest.json`` to ``out_dir``; returns the manifest path."""
    data = load_checkpoint(checkpoint)
    config = data["config"]
    net = network_from_checkpoint(data, checkpoint)
    net.eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    model_path = out_dir / "policy.onnx"
    batch = torch.export.Dim("batch")
    example: tuple[torch.Tensor, ...] = (
        torch.zeros(2, OBS_SIZE),
        torch.ones(2, NUM_ACTIONS, dtype=torch.int8),
    )
    input_names = ["observation", "action_mask"]
    if net.advised:
        example += (torch.zeros(2, dtype=torch.int64),)
        input_names.append("advice")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            example,
            str(model_path),
            dynamo=True,
            verbose=False,
            input_names=input_names,
            output_names=["logits", "value"],
            dynamic_shapes=tuple({0: batch} for _ in example),
            external_data=False,
        )
    observations, masks, advice = golden_positions(config, golden)
    with torch.no_grad():
        logits, values = net(
            torch.from_numpy(observations), torch.from_numpy(masks), torch.from_numpy(advice)
        )
    inputs = {"observation": ["batch", OBS_SIZE], "action_mask": ["batch", NUM_ACTIONS]}
    if net.advised:
        inputs["advice"] = ["batch"]
    manifest = {
        "format": MANIFEST_FORMAT,
        "version": MANIFEST_VERSION,
        "action_space": {
            "type": "Discrete",
            "n": NUM_ACTIONS,
            "commit": COMMIT,
            "cards": [format_card(card) for card in range(COMMIT)],
        },
        "observation": {
            "size": OBS_SIZE,
            "dtype": "float32",
            "blocks": {name: [block.start, block.stop] for name, block in OBS_LAYOUT.items()},
        },
        "inputs": inputs,
        "outputs": {"logits": ["batch", NUM_ACTIONS], "value": ["batch"]},
        "rule_config": rule_config_of(config),
        "model": {
            "file": model_path.name,
            "version": f"{Path(checkpoint).parent.name}@{data.get('global_step', 0)}",
            "sha256": hashlib.sha256(model_path.read_bytes()).hexdigest(),
            "hidden_sizes": config.get("hidden_sizes"),
            "global_step": data.get("global_step", 0),
            "update": data.get("update", 0),
            "source": Path(checkpoint).name,
        },
        "golden": [
            {
                "observation": observations[i].tolist(),
                "action_mask": masks[i].tolist(),
                **({"advice": int(advice[i])} if net.advised else {}),
                "logits": logits[i].tolist(),
                "value": float(values[i]),
            }
            for i in range(len(observations))
        ],
    }
    manifest_path = out_dir / "manifest.json"
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    return manifest_path
