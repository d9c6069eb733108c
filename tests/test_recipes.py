"""The single-file self-play recipe trains (seconds), as docs/recipes.md runs it."""

import math
import re
import sys

import pytest

from shengji_env.core import load_core

from .readme import ROOT, run_readme_line

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
    assert re.search(r"steps +\d+ +hands", run_readme_line("selfplay_ppo.py"))


def test_the_readme_command_of_the_torchrl_recipe_trains():
    pytest.importorskip("torchrl")
    losses = re.findall(
        r"iteration \d+: 400 env steps, \d+ hands ended, loss ([-+][0-9.]+)",
        run_readme_line("torchrl_pg.py"),
    )
    assert len(losses) == 2 and all(math.isfinite(float(loss)) for loss in losses)
