"""benchmarks/label_agreement.py: a student's agreement with its labels, by group."""

import numpy as np
import pytest

from shengji_env.env import raw_env

from .benchmark_scripts import load_script


def test_agreement_and_probability_are_split_by_deck_count_and_kind():
    targets = np.array([[0.9, 0.1], [0.2, 0.8], [1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    chosen = np.array([0, 0, 0, 0])
    decks = np.array([2, 2, 3, 3])
    kinds = ["follow", "follow", "lead", "lead"]
    table = load_script("label_agreement").agreement_by_group(chosen, targets, decks, kinds)
    assert table[(2, "follow")] == (2, 0.5, pytest.approx(0.55))
    assert table[(3, "lead")] == (2, 0.5, pytest.approx(0.5))


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_each_state_is_read_as_its_deck_count_and_decision(decks):
    env = raw_env(decks=decks)
    env.reset(seed=decks)
    observed = env.observe(env.agent_selection)
    found, kinds = load_script("label_agreement").deck_counts_and_kinds(
        observed["observation"][None]
    )
    assert found.tolist() == [decks]
    assert kinds == [env.infos[env.agent_selection]["view"].kind.value]
