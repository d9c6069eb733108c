"""A person at the table: typed decisions are checked against the mask before play."""

import subprocess
import sys
from pathlib import Path

import pytest

from shengji_env.actions import COMMIT
from shengji_env.agents import load_agent
from shengji_env.agents.human import play_game, typed_actions
from shengji_env.env import raw_env
from shengji_env.rules import format_cards

ROOT = Path(__file__).parents[2]


def test_a_typed_hand_is_played_and_bad_input_is_explained():
    env = raw_env(decks=1, render_mode="ansi")
    env.reset(seed=5)
    coach = load_agent("heuristic")
    said, asked = [], []

    def ask(prompt):
        asked.append(prompt)
        if len(asked) == 1:
            return "11X"  # malformed: explained, asked again
        if len(asked) == 2:
            return "pass" if env.decision.kind.value != "bid" else "AS AS AS"
        plan = coach.decide(env.infos[env.agent_selection]["view"])
        return format_cards(plan) or "pass"

    bots = {f"player_{s}": load_agent("greedy") for s in (1, 2, 3)}
    result = play_game(env, "player_0", bots, ask, said.append)
    assert result is not None
    assert any("not possible: malformed card '11X'" in line for line in said)
    assert sum(line.startswith("not possible") for line in said) == 2
    assert any("Your hand (seat 0)" in line for line in said)
    assert not any("seat 1: " in line.split("\n")[1] for line in said if "Your hand" in line)


def test_a_hand_played_at_the_terminal_is_recorded_as_a_replay():
    from shengji_env.replay import HandRecorder, resimulate

    env = raw_env(decks=1)
    env.reset(seed=8)
    recorder = HandRecorder(env.game, ["human", "greedy", "greedy", "greedy"])
    coach = load_agent("heuristic")

    def ask(prompt):
        return format_cards(coach.decide(env.infos[env.agent_selection]["view"])) or "pass"

    bots = {f"player_{s}": load_agent("greedy") for s in (1, 2, 3)}
    result = play_game(env, "player_0", bots, ask, lambda text: None, recorder.step)
    assert recorder.finished and resimulate(recorder.events).result == result


def test_typed_actions_commit_only_when_needed():
    env = raw_env(decks=2)
    env.reset(seed=1)
    while env.decision.kind.value != "lead":
        env.step(load_agent("greedy").act(*env.last()[::4]))
    decision = env.decision
    card = decision.hand[0]
    assert typed_actions(format_cards([card]), decision) == [card, COMMIT]
    with pytest.raises(ValueError, match="only a declaration can be passed"):
        typed_actions("pass", decision)


def test_play_command_reads_stdin_and_leaves_cleanly_at_eof():
    result = subprocess.run(
        [sys.executable, "-m", "shengji_env.frontends.cli", "play", "--decks", "1", "--seed", "3"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode in (0, 130)
    assert "seat" in result.stdout


def test_play_command_seats_the_best_shipped_policy_unless_told_otherwise(monkeypatch):
    from shengji_env.frontends import cli
    from shengji_env.frontends.commands import default_agent_spec

    loaded: list[str] = []

    def refuse(spec: str) -> None:
        loaded.append(spec)
        raise ValueError("stop here")

    monkeypatch.setattr(cli, "load_agent", refuse)
    assert cli.main(["play", "--seed", "1"]) == 2
    assert loaded == [default_agent_spec()]
    assert default_agent_spec() == "default"
    loaded.clear()
    assert cli.main(["play", "--opponents", "greedy", "--seed", "1"]) == 2  # seat 1 first
    assert loaded == ["greedy"]
