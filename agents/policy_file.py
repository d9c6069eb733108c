"""Policy and checkpoint files: dicts of state dicts written atomically and read with
``weights_only=True`` (no pickled code). Play (``ppo:``) and training share them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

CHECKPOINT_VERSION = 1


def save_checkpoint(path: Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically: a crash leaves the old file intact."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    torch.save({"version": CHECKPOINT_VERSION, **payload}, temporary)
    temporary.replace(path)


def load_checkpoint(path: Path) -> dict[str, Any]:
    """Read a checkpoint; a missing, corrupt or foreign file raises ``ValueError`` saying so."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several kinds for a damaged file
        raise ValueError(f"checkpoint {path} is corrupt or not a checkpoint: {error}") from None
    if (
        not isinstance(data, dict)
        or data.get("version") != CHECKPOINT_VERSION
        or "model" not in data
    ):
        raise ValueError(f"{path} is not a shengji checkpoint (version {CHECKPOINT_VERSION})")
    return data


def save_policy(checkpoint: Path, out_dir: Path) -> Path:
    """Keep only what playing needs (weights and config) in ``out_dir/policy.pt``: a small
    file that ``ppo:out_dir`` loads."""
    data = load_checkpoint(checkpoint)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "policy.pt"
    save_checkpoint(
        target,
        {
            "model": data["model"],
            "config": data["config"],
            "update": data.get("update", 0),
            "global_step": data.get("global_step", 0),
        },
    )
    return target


def policy_path(path: str | Path) -> Path:
    """The policy file of ``path``: a checkpoint file, or a model folder's ``policy.pt``."""
    file = Path(path)
    return file / "policy.pt" if file.is_dir() else file
