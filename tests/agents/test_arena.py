"""The arena: duplicate deals, statistics, interruption and resume, the command line."""

import json

import numpy as np
import pytest

from shengji_env.agents.arena import (
    DealRecord,
    Interval,
    fit_elo,
    play_deal,
    read_records,
    run_arena,
)
from shengji_env.frontends.cli import main


def test_a_duplicate_deal_swaps_the_seats_on_the_same_cards():
    record = play_deal("greedy", "random", deal=0, seed=7, options={"decks": 1})
    assert [hand.a_seats for hand in record.hands] == [0, 1]
    assert record.seed == 7 and record.a == "greedy"
    assert DealRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


def test_same_agent_on_both_sides_is_even_on_a_duplicate_deal():
    # identical deterministic bots: the swapped hand is the mirror image
    record = play_deal("greedy", "heuristic", deal=0, seed=3, options={"decks": 1})
    mirror = play_deal("heuristic", "greedy", deal=0, seed=3, options={"decks": 1})
    assert record.a_gain == pytest.approx(-mirror.a_gain)


def test_round_robin_summaries(tmp_path):
    result = run_arena(
        ["greedy", "random", "heuristic"],
        4,
        options={"decks": 1},
        records_path=tmp_path / "r.jsonl",
    )
    assert len(result.records) == 12 and not result.interrupted
    pairs = result.pairs()
    assert [(p.a, p.b) for p in pairs] == [
        ("greedy", "random"),
        ("greedy", "heuristic"),
        ("random", "heuristic"),
    ]
    assert all(p.deals == 4 for p in pairs)
    assert pairs[0].level_gain.low <= pairs[0].level_gain.mean <= pairs[0].level_gain.high
    data = result.to_json()
    assert data["finished_deals"] == 12 and set(data["elo"]) == {"greedy", "random", "heuristic"}
    assert len(read_records(tmp_path / "r.jsonl")) == 12


def test_interrupted_run_keeps_finished_deals_and_resume_completes_it(tmp_path):
    path = tmp_path / "deals.jsonl"
    seen = []

    def stop_after_three(record):
        seen.append(record)
        if len(seen) == 3:
            raise KeyboardInterrupt

    partial = run_arena(
        ["greedy", "random"], 6, options={"decks": 1}, records_path=path, on_record=stop_after_three
    )
    assert partial.interrupted and len(partial.records) == 3
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"torn": ')  # a crash mid-write must not lose the rest
    assert len(read_records(path)) == 3
    finished = run_arena(
        ["greedy", "random"], 6, options={"decks": 1}, records_path=path, resume=True
    )
    assert sorted(r.deal for r in finished.records) == list(range(6))
    fresh = run_arena(["greedy", "random"], 6, options={"decks": 1})
    by_deal = {r.deal: r for r in fresh.records}
    assert all(by_deal[r.deal] == r for r in finished.records), "resume plays the same deals"


def test_parallel_jobs_give_the_same_records():
    serial = run_arena(["greedy", "random"], 3, options={"decks": 1}, jobs=1)
    parallel = run_arena(["greedy", "random"], 3, options={"decks": 1}, jobs=2)
    key = lambda r: r.deal  # noqa: E731
    assert sorted(serial.records, key=key) == sorted(parallel.records, key=key)


def test_bad_agents_fail_before_any_deal():
    with pytest.raises(ValueError, match="unknown agent 'grredy'"):
        run_arena(["grredy", "random"], 2)
    with pytest.raises(ValueError, match="at least two agents"):
        run_arena(["random"], 2)


def test_interval_and_elo():
    interval = Interval.of([1.0, 2.0, 3.0])
    assert interval.mean == 2.0 and interval.low < 2.0 < interval.high
    assert np.isnan(Interval.of([]).mean)
    ratings = fit_elo(
        {("a", "b"): (0.9, 100), ("b", "c"): (0.9, 100), ("a", "c"): (0.95, 100)}, "abc"
    )
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert np.mean(list(ratings.values())) == pytest.approx(1500, abs=1)


def test_cli_writes_results_and_reports_bad_specs(tmp_path, capsys):
    out = tmp_path / "arena.json"
    code = main(
        ["arena", "--agents", "greedy", "random", "--deals", "2", "--decks", "1", "--out", str(out)]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["finished_deals"] == 2 and data["pairs"][0]["a"] == "greedy"
    assert "Arena" in capsys.readouterr().out
    assert main(["arena", "--agents", "greedy", "nobody", "--out", str(out)]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().out


def test_plot_labels_are_short(tmp_path):
    from shengji_env.frontends.cli import plot_result, short_name

    assert short_name("ppo:runs/demo/checkpoint.pt") == "ppo:demo"
    assert short_name("ppo:models/standalone-v8") == "ppo:standalone-v8"
    assert short_name("search:rollouts=4") == "search:rollouts=4"
    result = run_arena(["greedy", "random"], 2, options={"decks": 1})
    plot_result(result, tmp_path / "arena.png")
    assert (tmp_path / "arena.png").stat().st_size > 1000


def test_cli_bench_runs_the_benchmarks(capsys):
    from shengji_env.core import load_core

    assert main(["bench", "--hands", "1"]) == 0
    out = capsys.readouterr().out
    assert "engine hands/s" in out and "raw_env" in out
    assert ("64 tables" in out) == (load_core() is not None)


def test_a_resume_with_other_options_or_seed_is_refused(tmp_path):
    records = tmp_path / "arena.jsonl"
    run_arena(["random", "greedy"], 2, options={"decks": 1}, seed=3, records_path=records)
    for options, seed in (({"decks": 2}, 3), ({"decks": 1}, 4)):
        with pytest.raises(ValueError, match=r"was played with .*'decks': 1.*asks for"):
            run_arena(
                ["random", "greedy"],
                3,
                options=options,
                seed=seed,
                records_path=records,
                resume=True,
            )
    resumed = run_arena(
        ["random", "greedy"], 3, options={"decks": 1}, seed=3, records_path=records, resume=True
    )
    assert sorted(r.deal for r in resumed.records) == [0, 1, 2]


def test_a_records_file_without_header_cannot_resume(tmp_path):
    records = tmp_path / "old.jsonl"
    records.write_text('{"a": "random"}\n')
    with pytest.raises(ValueError, match="no arena header"):
        run_arena(["random", "greedy"], 1, records_path=records, resume=True)


def test_two_runs_cannot_write_one_records_file(tmp_path):
    from shengji_env.agents.arena import locked

    records = tmp_path / "arena.jsonl"
    with locked(records), pytest.raises(ValueError, match="another arena run is writing"):
        run_arena(["random", "greedy"], 1, records_path=records)
    run_arena(["random", "greedy"], 1, records_path=records)  # free again


def test_a_deal_recorded_twice_counts_once(tmp_path):
    records = tmp_path / "arena.jsonl"
    run_arena(["random", "greedy"], 2, options={"decks": 1}, records_path=records)
    lines = records.read_text().splitlines()
    records.write_text("\n".join([*lines, lines[-1]]) + "\n")
    resumed = run_arena(
        ["random", "greedy"], 2, options={"decks": 1}, records_path=records, resume=True
    )
    assert len(resumed.records) == 2
