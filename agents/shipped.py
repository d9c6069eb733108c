"""The policies shipped with the package, by name.

``models/`` in the repository installs as ``shengji_env.models``. A wheel carries the
default bot, :data:`DEFAULT_MODEL`; a clone carries every folder of ``models/`` (the
default, the strongest, the reference). An agent spec names one as ``default`` or
``ppo:NAME`` (``ppo:standalone-v7``); a path that exists wins over a name.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEFAULT_MODEL = "standalone-v8"
"""The default bot of ``shengji play``, ``web``, ``botzone`` and the ``default`` spec."""


def models_folder() -> Path:
    """The folder the shipped models are installed in (``models/`` in a clone)."""
    return Path(str(resources.files("shengji_env.models")))


def shipped_models() -> list[str]:
    """The names of the models installed here, each a folder holding ``policy.pt``."""
    return sorted(path.name for path in models_folder().iterdir() if (path / "policy.pt").is_file())


def shipped_model_path(name: str) -> Path:
    """The folder of the shipped model ``name``.

    Raises:
        ValueError: no model of that name is installed; the message lists those that are.
    """
    folder = models_folder() / name
    if not (folder / "policy.pt").is_file():
        installed = ", ".join(shipped_models()) or "none"
        raise ValueError(f"no shipped model {name!r}; installed: {installed}")
    return folder
