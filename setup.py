"""Builds the compiled core, ``shengji_env._core``, from ``csrc/``, and maps the
repository's folders onto the one import root (everything else is in ``pyproject.toml``).

The folders ``agents/``, ``train/`` and ``frontends/`` install as ``shengji_env.agents``,
``shengji_env.train`` and ``shengji_env.frontends``: a wheel adds the one top-level name
``shengji_env``. The extension is optional: where no C++17 compiler is found (or with
``SHENGJI_PURE=1``) the package installs without it and runs on the pure-Python engine."""

import os
from pathlib import Path

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

ParallelCompile("SHENGJI_BUILD_JOBS", default=2).install()

# Each folder of the repository and the package it installs as.
FOLDERS = {
    "shengji_env": "shengji_env",
    "shengji_env.agents": "agents",
    "shengji_env.train": "train",
    "shengji_env.frontends": "frontends",
    "shengji_env.models": "models",
}


def packages_under(package: str, folder: str) -> list[str]:
    """``package`` and every folder below it that Python could import: code packages and
    data folders (``schemas``, ``static``) alike. A model folder's name (``standalone-v8``)
    is no Python name; its files are package data of ``shengji_env.models``."""
    root = Path(folder)
    folders = [root, *(path for path in sorted(root.rglob("*")) if path.is_dir())]
    return [
        ".".join([package, *path.relative_to(root).parts])
        for path in folders
        if all(part.isidentifier() for part in path.relative_to(root).parts)
        and "__pycache__" not in path.parts
    ]


SOURCES = sorted(str(path) for path in Path("csrc").glob("*.cpp"))
CORE = Pybind11Extension(
    "shengji_env._core",
    SOURCES,
    depends=sorted(str(path) for path in Path("csrc").glob("*.hpp")),
    cxx_std=17,
    extra_compile_args=["-O2", "-Wall", "-Wextra"],
    optional=True,
)

setup(
    packages=[
        name for package, folder in FOLDERS.items() for name in packages_under(package, folder)
    ],
    package_dir=FOLDERS,
    ext_modules=[] if os.environ.get("SHENGJI_PURE") == "1" else [CORE],
    cmdclass={"build_ext": build_ext},
)
