"""The RLlib recipe trains, as docs/recipes.md runs it (in `make test-rllib`'s own venv: RLlib
2.60 pins an older gymnasium than the main venv's, where this test is skipped)."""

import re

import pytest

from .readme import run_readme_line

pytest.importorskip("ray.rllib", reason="RLlib runs in make test-rllib's venv (.venv-rllib)")


def test_the_readme_command_of_the_rllib_recipe_trains():
    iterations = re.findall(
        r"iteration (\d+): (\d+)\.?\d* env steps", run_readme_line("rllib_ppo.py")
    )
    assert [int(i) for i, _ in iterations] == [1, 2]
    assert int(iterations[-1][1]) >= 800
