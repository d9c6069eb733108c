"""The ladder: arena runs add their deals to one append-only file, each deal once however
often a run is resumed or repeated, and OpenSkill rates every bot on it; a bot against
itself on duplicate deals comes out exactly level."""

from __future__ import annotations

import json
import threading

import pytest

from shengji_env.agents.arena import run_arena
from shengji_env.agents.ladder import (
    LadderError,
    add_to_ladder,
    markdown,
    rate,
    read_ladder,
)

OPTIONS = {"decks": 1}


def arena(agents: list[str], seed: int, deals: int = 2):
    return run_arena(agents, deals=deals, options=OPTIONS, seed=seed)


def test_a_null_run_rates_the_two_copies_exactly_level(tmp_path):
    result = arena(["greedy", "greedy:"], seed=4, deals=6)
    assert all(record.a_gain == 0 for record in result.records)
    ladder = tmp_path / "ladder.jsonl"
    add_to_ladder(ladder, result.records, OPTIONS)
    standings = {s.name: s for s in rate(read_ladder(ladder), anchor="greedy")}
    assert standings["greedy:"].rating == 0.0 and standings["greedy"].rating == 0.0


def test_three_runs_of_five_bots_make_one_table_and_page(tmp_path):
    ladder = tmp_path / "ladder.jsonl"
    runs = [
        ["random", "greedy", "heuristic"],
        ["greedy", "heuristic", "random:seed=5"],
        ["heuristic", "greedy:", "random"],
    ]
    for seed, agents in enumerate(runs):
        result = arena(agents, seed)
        assert add_to_ladder(ladder, result.records, OPTIONS) == len(result.records)
    standings = rate(read_ladder(ladder))
    by_name = {s.name: s for s in standings}
    assert len(by_name) == 5 and by_name["random"].rating == 0.0
    assert by_name["heuristic"].rating > 0 and by_name["heuristic"].deals == 12
    page = markdown(standings, "random")
    assert page.count("\n| `") == 5 and "## decks=1" in page


def test_a_resumed_or_concurrent_run_never_counts_a_deal_twice(tmp_path):
    ladder = tmp_path / "ladder.jsonl"
    records = arena(["random", "greedy"], seed=2, deals=3).records
    assert add_to_ladder(ladder, records[:2], OPTIONS) == 2
    assert add_to_ladder(ladder, records, OPTIONS) == 1  # resumed: only the new deal
    assert add_to_ladder(ladder, records, OPTIONS) == 0
    other = tmp_path / "other.jsonl"
    added: list[int] = []
    writers = [
        threading.Thread(target=lambda: added.append(add_to_ladder(other, records, OPTIONS)))
        for _ in range(8)
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert sorted(added) == [0] * 7 + [3]
    assert len(other.read_text().splitlines()) == 3


GOOD = {"rules": "decks=1", "seed": 1, "a": "x", "b": "y", "deal": 0, "a_gain": 0.5}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"{", "not a JSON line"),
        (b"[1]", "a line is a JSON object"),
        (json.dumps({**GOOD, "a_gain": "1"}).encode(), "field 'a_gain'"),
        (json.dumps({**GOOD, "deal": True}).encode(), "field 'deal'"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "b"}).encode(), "field 'b'"),
        (json.dumps({**GOOD, "a_gain": 1e9}).encode(), "not a level gain"),
        (b" " * 70_000, "a line over"),
    ],
)
def test_a_damaged_ladder_names_the_line_and_field(tmp_path, line, message):
    ladder = tmp_path / "ladder.jsonl"
    ladder.write_bytes(json.dumps(GOOD).encode() + b"\n" + line + b"\n")
    with pytest.raises(LadderError, match=message) as error:
        read_ladder(ladder)
    assert ":2:" in str(error.value)
