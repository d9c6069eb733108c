"""Agent specs: names, options and clear errors."""

import pytest

from shengji_env.agents import GreedyAgent, HeuristicAgent, RandomAgent, SearchAgent, load_agent
from shengji_env.agents.registry import parse_spec


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("random", RandomAgent),
        ("greedy", GreedyAgent),
        ("heuristic", HeuristicAgent),
        ("search", SearchAgent),
        ("search:rollouts=8,seed=3", SearchAgent),
        (" search:budget=0.5 ", SearchAgent),
    ],
)
def test_specs(spec, kind):
    assert isinstance(load_agent(spec), kind)


def test_options_are_converted():
    agent = load_agent("search:rollouts=8,budget=0.25,seed=3")
    assert (agent.rollouts, agent.budget, agent.seed) == (8, 0.25, 3)
    assert parse_spec("search:rollouts=8") == ("search", {"rollouts": "8"})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "alphazero",
            r"unknown agent 'alphazero'.*choices: cmd, default, greedy, heuristic, http, onnx, "
            r"ppo, random, search",
        ),
        ("search:rollouts", r"malformed agent spec.*key=value"),
        ("search:depth=3", r"unknown option\(s\) depth for agent 'search'; allowed: rollouts"),
        ("search:rollouts=many", r"rollouts='many' of agent 'search' is not a number"),
        ("search:rollouts=0", r"rollouts >= 1"),
        ("default:path=x", r"unknown option\(s\) path for agent 'default'"),
        ("ppo:standalone-v0", r"no policy at 'standalone-v0', and no shipped model.*v8"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError, match=message):
        load_agent(spec)


def test_default_is_the_shipped_default_policy_and_shipped_models_go_by_name():
    from shengji_env.agents.registry import is_rule_based
    from shengji_env.agents.shipped import DEFAULT_MODEL, shipped_model_path, shipped_models

    default = load_agent("default")
    named = load_agent(f"ppo:{DEFAULT_MODEL}")
    assert default.net is named.net  # the same file, loaded once
    assert DEFAULT_MODEL in shipped_models()
    assert (shipped_model_path(DEFAULT_MODEL) / "policy.pt").is_file()
    assert not is_rule_based("default")
    with pytest.raises(ValueError, match=r"no shipped model 'nope'; installed: .*standalone-v8"):
        shipped_model_path("nope")


def test_a_policy_decides_on_one_thread_and_leaves_the_process_setting_alone(monkeypatch):
    import torch

    from shengji_env.env import raw_env

    env = raw_env(decks=2)
    env.reset(seed=1)
    observation, _, _, _, info = env.last()
    seen: list[int] = []
    for spec, inside in (("default", 1), ("default:threads=2", 2)):
        agent = load_agent(spec)
        forward = agent.net.forward

        def spy(*args, forward=forward):
            seen.append(torch.get_num_threads())
            return forward(*args)

        monkeypatch.setattr(agent.net, "forward", spy)
        before = torch.get_num_threads()
        torch.set_num_threads(3)
        try:
            agent.act(observation, info)
            assert torch.get_num_threads() == 3  # restored after the decision
        finally:
            torch.set_num_threads(before)
        assert seen[-1] == inside
    with pytest.raises(ValueError, match="threads must be >= 1"):
        load_agent("default:threads=0")
