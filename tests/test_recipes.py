"""The single-file self-play recipe trains (seconds), as the README's command runs it."""

import math
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from shengji_env.core import load_core

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.skipif(load_core() is None, reason="the recipe runs on the core")


def test_the_recipe_trains_and_reports_finite_losses():
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import selfplay_ppo
    finally:
        sys.path.pop(0)
    stats = selfplay_ppo.main(
        ["--total-steps", "1500", "--steps-per-update", "1500", "--tables", "8", "--hidden", "32"]
    )
    assert stats["steps"] >= 1500 and stats["hands"] >= 1
    assert all(math.isfinite(stats[key]) for key in ("policy_loss", "value_loss", "entropy"))


@pytest.mark.slow
def test_the_readme_command_of_the_recipe_runs_verbatim():
    (command,) = re.findall(r"^python examples/selfplay_ppo\.py.*$", README, flags=re.MULTILINE)
    words = shlex.split(command)
    done = subprocess.run(
        [sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"steps +\d+ +hands", done.stdout)


def test_the_readme_command_of_the_torchrl_recipe_trains():
    pytest.importorskip("torchrl")
    (command,) = re.findall(r"^python examples/torchrl_pg\.py.*$", README, flags=re.MULTILINE)
    done = subprocess.run(
        [sys.executable, *shlex.split(command)[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    losses = re.findall(
        r"iteration \d+: 400 env steps, \d+ hands ended, loss ([-+][0-9.]+)", done.stdout
    )
    assert len(losses) == 2 and all(math.isfinite(float(loss)) for loss in losses)
