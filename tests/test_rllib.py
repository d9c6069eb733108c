"""The RLlib recipe trains, as the README runs it (in `make test-rllib`'s own venv: RLlib
2.60 pins an older gymnasium than the main venv's, where this test is skipped)."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib", reason="RLlib runs in make test-rllib's venv (.venv-rllib)")

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_command_of_the_rllib_recipe_trains():
    (command,) = re.findall(r"^python examples/rllib_ppo\.py.*$", README, flags=re.MULTILINE)
    done = subprocess.run(
        [sys.executable, *shlex.split(command)[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    iterations = re.findall(r"iteration (\d+): (\d+)\.?\d* env steps", done.stdout)
    assert [int(i) for i, _ in iterations] == [1, 2]
    assert int(iterations[-1][1]) >= 800
