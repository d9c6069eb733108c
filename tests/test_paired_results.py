"""benchmarks/paired_results.py: two arena results compared deal by deal."""

import gzip
import json

import pytest

from shengji_env.agents.arena import DealRecord, HandOutcome

from .benchmark_scripts import load_script


def _script():
    return load_script("paired_results")


def _result(agent: str, rewards_by_seed: dict[int, tuple[float, float]], seed: int = 11):
    records = [
        DealRecord(
            agent,
            "heuristic",
            deal,
            deal_seed,
            (HandOutcome(0, first, True, 80), HandOutcome(1, second, False, 40)),
        ).to_json()
        for deal, (deal_seed, (first, second)) in enumerate(rewards_by_seed.items())
    ]
    return {"seed": seed, "options": {"decks": 2}, "records": records}


def test_the_difference_is_taken_deal_by_deal_on_the_deals_both_finished():
    new = _result("new", {5: (2.0, 0.0), 6: (1.0, 1.0), 7: (3.0, 3.0)})
    old = _result("old", {6: (0.0, 0.0), 5: (0.0, 0.0)})  # another order, deal 7 missing
    deals, difference = _script().compare(new, old)
    assert deals == 2
    assert difference.mean == pytest.approx(1.0)  # (1 - 0) on seed 5 and (1 - 0) on seed 6


def test_results_on_other_deals_or_opponents_are_refused():
    script = _script()
    new = _result("new", {5: (1.0, 0.0)})
    with pytest.raises(ValueError, match="seed"):
        script.compare(new, _result("old", {5: (0.0, 0.0)}, seed=12))
    other = _result("old", {5: (0.0, 0.0)})
    other["records"][0]["b"] = "greedy"
    with pytest.raises(ValueError, match="opponents"):
        script.compare(new, other)


def test_a_gzipped_result_reads_as_the_plain_one(tmp_path):
    script = _script()
    result = _result("new", {5: (1.0, 0.0)})
    plain, packed = tmp_path / "a.json", tmp_path / "a.json.gz"
    plain.write_text(json.dumps(result), encoding="utf-8")
    with gzip.open(packed, "wt", encoding="utf-8") as file:
        json.dump(result, file)
    assert script.read_result(packed) == script.read_result(plain) == json.loads(json.dumps(result))


def test_whole_matches_are_reported_as_match_rewards():
    script = _script()
    hands = _result("new", {5: (1.0, 0.0)})
    matches = {**hands, "options": {"decks": 2, "episode": "match"}}
    assert script.unit_of(hands) == "levels a hand"
    assert script.unit_of(matches) == "a match (reward ±1)"
