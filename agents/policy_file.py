"""Policy and checkpoint files: dicts of state dicts written atomically and read with
``weights_only=True`` (no pickled code). Play (``ppo:``) and training share them.

Every file carries a SHA-256 of its contents (the tensors' bytes and every other value,
walked in a fixed order), checked at load: a damaged file is refused by name, never
played or trained on. Files of format 1 (written before the digest) are read only beside
a ``NAME.sha256`` file holding the SHA-256 of their bytes (the shipped ones have one).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import torch

from shengji_env.files import unique_temporary

CHECKPOINT_VERSION = 2
DIGESTLESS_VERSION = 1  # read only with a NAME.sha256 beside the file


def content_digest(value: Any) -> str:
    """SHA-256 of a checkpoint's contents, independent of how torch lays out the file."""
    digest = hashlib.sha256()
    _feed(digest, value)
    return digest.hexdigest()


def _feed(digest: Any, value: Any) -> None:
    if isinstance(value, torch.Tensor):
        tensor = value.detach().cpu().contiguous().reshape(-1)
        digest.update(f"T{tensor.dtype}{tuple(value.shape)}".encode())
        digest.update(tensor.view(torch.uint8).numpy().tobytes())
    elif isinstance(value, dict):
        digest.update(f"D{len(value)}".encode())
        for key in sorted(value, key=repr):
            _feed(digest, key)
            _feed(digest, value[key])
    elif isinstance(value, list | tuple):
        digest.update(f"L{len(value)}".encode())
        for item in value:
            _feed(digest, item)
    else:
        digest.update(f"S{type(value).__name__}:{value!r}".encode())


def save_checkpoint(path: Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically (a crash leaves the old file intact), with
    the SHA-256 of its contents."""
    path.parent.mkdir(parents=True, exist_ok=True)
    contents = {key: value for key, value in payload.items() if key not in ("version", "sha256")}
    temporary = unique_temporary(path)
    sealed = {"version": CHECKPOINT_VERSION, **contents, "sha256": content_digest(contents)}
    torch.save(sealed, temporary)
    temporary.replace(path)
    _sidecar(path).unlink(missing_ok=True)  # a format-1 file's digest no longer applies


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def load_checkpoint(path: Path) -> dict[str, Any]:
    """Read a checkpoint or policy file.

    Raises:
        ValueError: the file is missing, damaged (its SHA-256 does not match), foreign,
            or its parts are not what a checkpoint holds — naming the file.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several kinds for a damaged file
        raise ValueError(f"checkpoint {path} is corrupt or not a checkpoint: {error}") from None
    if not isinstance(data, dict) or data.get("version") not in (
        CHECKPOINT_VERSION,
        DIGESTLESS_VERSION,
    ):
        raise ValueError(f"{path} is not a shengji checkpoint (version {CHECKPOINT_VERSION})")
    if data["version"] == CHECKPOINT_VERSION:
        stored = data.pop("sha256", None)
        data.pop("version")
        if stored != content_digest(data):
            raise ValueError(f"{path} is damaged: its contents do not match their SHA-256")
        data["version"] = CHECKPOINT_VERSION
    else:
        _check_sidecar(path)
    _check_parts(data, path)
    return data


def _check_sidecar(path: Path) -> None:
    sidecar = _sidecar(path)
    if not sidecar.is_file():
        raise ValueError(
            f"{path} is a format-1 checkpoint without a SHA-256: put the file's SHA-256 in "
            f"{sidecar.name} beside it to vouch for it (sha256sum), or retrain"
        )
    expected = sidecar.read_text(encoding="utf-8").split()[0] if sidecar.stat().st_size else ""
    if hashlib.sha256(path.read_bytes()).hexdigest() != expected:
        raise ValueError(f"{path} is damaged: its bytes do not match {sidecar.name}")


def _check_parts(data: dict[str, Any], path: Path) -> None:
    model = data.get("model")
    if not isinstance(model, dict) or not all(
        isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in model.items()
    ):
        raise ValueError(f"{path}: 'model' is not a state dict of named tensors")
    for name, tensor in model.items():
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ValueError(
                f"{path}: weight {name!r} holds values that are not numbers (NaN or infinite)"
            )
    if not isinstance(data.get("config", {}), dict):
        raise ValueError(f"{path}: 'config' is not a mapping")


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
