"""Every shipped policy still loads and plays as it did, and the one committed checkpoint
still resumes (refactors must not break what users already have)."""

import json
import shutil
from pathlib import Path

import pytest

from shengji_env.agents.arena import run_arena
from shengji_env.agents.policy_file import load_checkpoint
from shengji_env.train.config import config_from_dict
from shengji_env.train.ppo import train

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests/golden/shipped_models_vs_heuristic.json").read_text())
MODELS = sorted(path.parent.name for path in (ROOT / "models").glob("*/policy.pt"))


def test_the_golden_results_cover_every_shipped_model():
    assert sorted(GOLDEN["deals"]) == MODELS


@pytest.mark.parametrize("model", MODELS)
def test_a_shipped_model_plays_its_recorded_deals_as_before(model):
    expected = GOLDEN["deals"][model]
    result = run_arena(
        [f"ppo:{ROOT / 'models' / model}", GOLDEN["opponent"]], len(expected), seed=GOLDEN["seed"]
    )
    assert [[hand.a_reward for hand in record.hands] for record in result.records] == expected


def test_the_committed_checkpoint_resumes(tmp_path):
    """The one run the repository carries (the default bot's, at its last update) resumes
    for one more update with its league."""
    checkpoint = tmp_path / "checkpoint.pt"
    shutil.copy(ROOT / "checkpoints/standalone_budget3/checkpoint.pt", checkpoint)
    before = load_checkpoint(checkpoint)
    config_from_dict(before["config"])
    small = {"steps_per_update": 256, "num_workers": 0, "envs_per_worker": 2, "eval_every": 0}
    overrides = {**small, "total_steps": before["global_step"] + 1, "run_dir": str(tmp_path)}
    train(resume=checkpoint, max_updates=1, overrides=overrides)
    after = load_checkpoint(checkpoint)
    assert after["update"] == before["update"] + 1
    assert after["global_step"] > before["global_step"]
    assert len(after["league"]) == len(before["league"])
    assert after["version"] == 2


def test_only_one_run_is_carried():
    assert [path.name for path in (ROOT / "checkpoints").iterdir()] == ["standalone_budget3"]
