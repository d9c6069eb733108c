"""Retired experiments: their keys load at the old defaults and are refused otherwise."""

import pytest
import torch

from train.config import RETIRED_KEYS, TrainConfig, config_from_dict, load_config


@pytest.mark.parametrize("key", sorted(RETIRED_KEYS))
def test_a_retired_key_at_its_old_default_is_dropped(key):
    config = config_from_dict({key: RETIRED_KEYS[key], "total_steps": 7})
    assert config.total_steps == 7 and key not in config.to_dict()


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("heuristic_coef=1.0", r"heuristic_coef was retired.*old default 0\.0.*got 1\.0"),
        ("bc_departure_weight=4", r"bc_departure_weight was retired.*got 4"),
        ("bc_values=runs/values", r"bc_values was retired.*got 'runs/values'"),
        ("bc_value_parts=3", r"bc_value_parts was retired"),
        ("bc_value_points=1.0", r"bc_value_points was retired"),
        ("bc_value_temperature=1.0", r"bc_value_temperature was retired"),
        ("bc_value_coef=0.5", r"bc_value_coef was retired"),
        ("network=canonical", r"network: 'canonical' was retired.*use counting"),
    ],
)
def test_a_retired_experiment_is_refused_by_name(setting, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, [setting])


def test_the_config_has_only_live_fields():
    live = set(TrainConfig.__dataclass_fields__)
    assert not live & set(RETIRED_KEYS)
    assert len(live) <= 45


def test_the_old_full_v2_config_is_refused_for_training_but_its_policy_plays():
    from pathlib import Path

    from agents import load_agent

    policy = Path(__file__).parents[2] / "models/full-v2/policy.pt"
    config = torch.load(policy, weights_only=True)["config"]
    assert config["heuristic_coef"] == 1.0  # trained with the retired guidance
    with pytest.raises(ValueError, match="heuristic_coef was retired"):
        config_from_dict(config)
    load_agent(f"ppo:{policy.parent}")
