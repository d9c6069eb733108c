"""Replays (docs/replay.md): arena hands written as events re-simulate to the same
scores, and broken files are refused with the line and field that is wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from shengji_env.agents.arena import run_arena
from shengji_env.replay import ReplayError, parse_replay, read_replay, resimulate, schema

ROOT = Path(__file__).parents[2]


def arena_replays(tmp_path: Path, deals: int, decks: int = 2) -> tuple[Path, list]:
    path = tmp_path / "hands.jsonl"
    result = run_arena(
        ["greedy", "random"], deals, options={"decks": decks}, seed=5, replay_path=path
    )
    return path, result.records


def check_against_records(hands: list, records: list) -> None:
    """Hand 2i and 2i+1 of the file are deal i's two hands (the arena writes them with the
    deal's record); each re-simulates to the recorded attackers' points."""
    assert len(hands) == 2 * len(records)
    for index, events in enumerate(hands):
        outcome = records[index // 2].hands[index % 2]
        game = resimulate(events)
        assert game.result.attacker_points == outcome.attacker_points
        assert events[-1]["attacker_points"] == game.result.attacker_points
        assert events[0]["seats"][0] == ("greedy" if outcome.a_seats == 0 else "random")


@pytest.mark.slow
def test_a_thousand_arena_hands_resimulate_to_the_same_scores(tmp_path):
    path, records = arena_replays(tmp_path, 500)
    check_against_records(read_replay(path), records)


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_arena_replays_match_their_records(tmp_path, decks):
    path, records = arena_replays(tmp_path, 6, decks)
    check_against_records(read_replay(path), records)


def test_every_event_passes_the_schema_and_the_schema_is_valid(tmp_path):
    path, _ = arena_replays(tmp_path, 2)
    jsonschema.Draft202012Validator.check_schema(schema("replay"))
    kinds = {json.loads(line)["event"] for line in path.read_text().splitlines()}
    assert kinds == {"hand", "deal", "bid", "bury", "play", "trick", "score"} - (
        set() if "bid" in kinds else {"bid"}
    )


def hand_lines(tmp_path: Path) -> list[str]:
    path, _ = arena_replays(tmp_path, 1)
    lines = path.read_text().splitlines()
    second = [i for i, line in enumerate(lines) if json.loads(line)["event"] == "hand"][1]
    return lines[:second]


def edit(lines: list[str], event: str, change) -> list[str]:
    out, done = [], False
    for line in lines:
        data = json.loads(line)
        if data["event"] == event and not done:
            change(data)
            done = True
        out.append(json.dumps(data))
    return out


@pytest.mark.parametrize(
    "event,change,message",
    [
        ("deal", lambda e: e.pop("deck"), "'deck' is a required property"),
        ("play", lambda e: e.update(cards=["AS"]), "field 'cards.0'"),
        ("trick", lambda e: e.update(winner=7), "field 'winner'"),
        ("hand", lambda e: e.update(version=2), "field 'version'"),
        ("score", lambda e: e.update(extra=1), "'extra' was unexpected"),
        ("play", lambda e: e.update(event="move"), "field 'event'"),
    ],
)
def test_malformed_events_name_the_line_and_field(tmp_path, event, change, message):
    with pytest.raises(ReplayError, match="line") as error:
        parse_replay(edit(hand_lines(tmp_path), event, change))
    assert message in str(error.value)


def test_a_replay_the_rules_disagree_with_names_the_field(tmp_path):
    lines = hand_lines(tmp_path)
    wrong_winner = edit(lines, "trick", lambda e: e.update(winner=(e["winner"] + 1) % 4))
    with pytest.raises(ReplayError, match="field 'winner' says"):
        resimulate(parse_replay(wrong_winner)[0])
    wrong_points = edit(lines, "score", lambda e: e.update(attacker_points=-5))
    with pytest.raises(ReplayError, match="field 'attacker_points' says -5"):
        resimulate(parse_replay(wrong_points)[0])
    wrong_seat = edit(lines, "play", lambda e: e.update(seat=(e["seat"] + 1) % 4))
    with pytest.raises(ReplayError, match="field 'seat'"):
        resimulate(parse_replay(wrong_seat)[0])
    with pytest.raises(ReplayError, match="stops before the hand is over"):
        resimulate(parse_replay(lines[:-5])[0])
    with pytest.raises(ReplayError, match="not JSON"):
        parse_replay(["{"])
    with pytest.raises(ReplayError, match="starts with a 'hand' event"):
        parse_replay(lines[1:])


def replay_command(path: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "shengji_env.frontends.cli", "replay", str(path)]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_the_replay_command_shows_tricks_and_refuses_a_broken_file(tmp_path):
    path, _ = arena_replays(tmp_path, 1)
    shown = replay_command(path)
    assert shown.returncode == 0, shown.stderr
    assert "Trick 1:" in shown.stdout and "Result: attackers" in shown.stdout
    assert "re-simulated" in shown.stdout
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"event": "hand"}\n')
    refused = replay_command(broken)
    assert refused.returncode == 2 and "field" in refused.stdout
