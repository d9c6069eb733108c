"""Builds the compiled core, ``shengji_env._core``, from ``csrc/`` (everything else is in
``pyproject.toml``). The extension is optional: where no C++17 compiler is found (or with
``SHENGJI_PURE=1``) the package installs without it and runs on the pure-Python engine."""

import os
from pathlib import Path

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

ParallelCompile("SHENGJI_BUILD_JOBS", default=2).install()

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
    ext_modules=[] if os.environ.get("SHENGJI_PURE") == "1" else [CORE],
    cmdclass={"build_ext": build_ext},
)
