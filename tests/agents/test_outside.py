"""Outside bots (``cmd:"PROGRAM ARGS"``): a program in its own process, seated through the
JSON decision protocol, under limits. A well-behaved one plays exactly as the same agent
in process; a hostile one is recorded by kind, the arena finishes every deal, and the
other seat's results are the ones it gets against the substitute play all along."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from shengji_env.agents.arena import Player, play_deal, run_arena
from shengji_env.agents.outside import answer_cards, substitute
from shengji_env.agents.registry import load_agent, parse_spec

HOSTILE = Path(__file__).parent / "outside_bots" / "hostile.py"
OPTIONS = {"decks": 1}
DEALS = 2


def hostile_spec(mode: str, start: int = 1, **limits: object) -> str:
    program = shlex.join([sys.executable, str(HOSTILE), mode, str(start)])
    options = "".join(f",{key}={value}" for key, value in limits.items())
    return f'cmd:"{program}"{options}'


def our_bot(agent: str) -> str:
    program = shlex.join([sys.executable, "-m", "shengji_env.frontends.cli", "bot"])
    return f'cmd:"{program} --agent {agent}"'


class Substitute:
    """The substitute play all along, in process."""

    def act(self, observation, info) -> int:
        return substitute(observation["action_mask"])


SUBSTITUTE = Player("substitute", lambda seed: Substitute())


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ('cmd:"node bot.js"', {"command": "node bot.js"}),
        ('cmd:"a, b c",decision_seconds=2', {"command": "a, b c", "decision_seconds": "2"}),
        ("cmd:./bot --fast", {"command": "./bot --fast"}),
    ],
)
def test_a_cmd_spec_keeps_its_program_whole(spec, options):
    assert parse_spec(spec) == ("cmd", options)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cmd:", "needs a program"),
        ("http:ftp://x", r"needs an http\(s\) URL"),
        ('cmd:"node bot.js', "closing quote is missing"),
        ('cmd:"node bot.js" x=1', "after a comma"),
        ('cmd:"node bot.js",decision_seconds=0', "limits must be"),
        ('cmd:"node bot.js",colour=red', "unknown option"),
    ],
)
def test_a_bad_cmd_spec_says_what_is_wrong(spec, message):
    with pytest.raises(ValueError, match=message):
        load_agent(spec)


def test_our_own_bot_as_an_outside_program_plays_as_it_does_in_process():
    outside = play_deal(our_bot("heuristic"), "greedy", 0, 11, {"decks": 2})
    inside = play_deal("heuristic", "greedy", 0, 11, {"decks": 2})
    assert [h.a_reward for h in outside.hands] == [h.a_reward for h in inside.hands]
    assert [h.attacker_points for h in outside.hands] == [h.attacker_points for h in inside.hands]
    assert outside.faults == {}


@pytest.mark.parametrize(
    ("mode", "kind", "limits"),
    [
        ("sleep", "TLE", {"decision_seconds": 0.5}),
        ("exit", "RE", {}),
        ("garbage", "garbage", {}),
        ("foreign", "illegal", {}),
        ("flood", "OLE", {}),
        ("memory", "MLE", {"memory_mb": 256}),
        ("snoop", "garbage", {}),
    ],
)
def test_a_hostile_bot_is_recorded_and_the_deal_goes_on_as_against_the_substitute(
    mode, kind, limits
):
    spec = hostile_spec(mode, **limits)
    for deal in range(DEALS):
        record = play_deal(spec, "heuristic", deal, 100 + deal, OPTIONS)
        alone = play_deal(SUBSTITUTE, "heuristic", deal, 100 + deal, OPTIONS)
        assert [h.a_reward for h in record.hands] == [h.a_reward for h in alone.hands]
        assert set(record.faults[spec]) == {kind}, record.faults
        assert record.faults[spec][kind] >= 2  # every hand, both seats' first decisions


def test_a_bot_sees_no_environment_but_path_lang_and_home(monkeypatch):
    monkeypatch.setenv("SHENGJI_SECRET_HANDS", "AS AS KH")
    agent = load_agent(hostile_spec("snoop"))
    try:
        answer = agent.bot.ask({"phase": "bid", "hand": []})
    finally:
        agent.close()
    names = set(answer["error"].removeprefix("environment: ").split())
    assert names <= {"PATH", "LANG", "HOME", "LC_CTYPE"}, names


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"error": "no idea"}, "answered an error"),
        ({"cards": "AS"}, "a list of card strings"),
        ({"cards": ["AS", 7]}, "a list of card strings"),
        ({"cards": ["ZZ"]}, "cards:"),
        ({"cards": ["AS KS"]}, "is not one card"),
    ],
)
def test_answers_that_are_not_answers_are_garbage(answer, message):
    from shengji_env.agents.outside import Fault

    with pytest.raises(Fault, match=message) as fault:
        answer_cards(answer)
    assert fault.value.kind == "garbage"


def test_the_arena_reports_an_outside_bots_faults_and_finishes(tmp_path):
    spec = hostile_spec("garbage", start=5)
    result = run_arena([spec, "greedy"], deals=DEALS, jobs=2, options=OPTIONS, seed=3,
                       records_path=tmp_path / "arena.jsonl")  # fmt: skip
    assert len(result.records) == DEALS and result.faults()[spec]["garbage"] >= DEALS


def test_a_server_of_the_protocol_is_seated_as_http(tmp_path):
    import subprocess

    server = subprocess.Popen(
        [sys.executable, "-m", "shengji_env.frontends.cli", "serve", "--agent", "heuristic",
         "--port", "0"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = server.stderr.readline()
        port = int(line.split("serving on http://")[1].split()[0].rsplit(":", 1)[1])
        spec = f"http:http://127.0.0.1:{port}/decide"
        outside = play_deal(spec, "greedy", 0, 11, {"decks": 2})
        inside = play_deal("heuristic", "greedy", 0, 11, {"decks": 2})
        assert [h.a_reward for h in outside.hands] == [h.a_reward for h in inside.hands]
        assert outside.faults == {}
    finally:
        server.terminate()
        server.wait(timeout=10)
    gone = play_deal(spec, "greedy", 0, 11, {"decks": 2})  # the server has stopped
    assert set(gone.faults[spec]) == {"RE"}
