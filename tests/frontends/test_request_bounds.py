"""A request holds no more than a real game can, checked before any card is read: the work
and the memory one request costs are bounded whatever it holds (the server's other clients
are not starved, and rejected requests leave nothing behind in the caches)."""

from __future__ import annotations

import gc
import re
import time
import tracemalloc

import pytest

from shengji_env.agents import load_agent
from shengji_env.frontends.protocol import decide
from shengji_env.rules import RuleConfig

from .test_protocol import a_play_request

CARDS = ["AS", "KH", "3C", "SJ", "10D"]


def many(count: int, offset: int = 0) -> list[str]:
    return [CARDS[(i + offset) % len(CARDS)] for i in range(count)]


TOO_MUCH = [  # (a change, what the refusal says)
    (lambda r: r.update(hand=many(1_000_000 // 4)), "hand holds at most 33 items"),
    (lambda r: r.update(kitty=many(9)), "kitty holds at most 8 items"),
    (
        lambda r: r.update(bids=[{"seat": 0, "cards": ["2H"]}] * 30_000),
        "bids holds at most 32 items",
    ),
    (
        lambda r: r.update(tricks=[{"leader": 0, "plays": [[c] for c in many(4)]}] * 11_000),
        "tricks holds at most 25 items",
    ),
    (
        lambda r: r.update(tricks=[{"leader": 0, "plays": [many(12)] * 4}] * 25),
        r"the tricks hold 120\d cards; 2 deck\(s\) hold 108",
    ),
    (lambda r: r["trick"].update(plays=[["AS"]] * 5), "trick plays holds at most 4 items"),
    (lambda r: r["trick"].update(plays=[many(26)]), "trick play holds at most 25 items"),
    (lambda r: r.update(revealed=[many(26), [], [], []]), "revealed holds at most 25 items"),
    (lambda r: r["tricks"][0].update(attempt=many(26)), "attempt holds at most 25 items"),
    (lambda r: r.update(hand="AS"), "field 'hand' has the wrong type"),
]


@pytest.mark.parametrize(("change", "message"), TOO_MUCH)
def test_a_request_holding_more_than_a_game_can_is_refused_quickly(change, message):
    _, request = a_play_request()
    change(request)
    started = time.process_time()
    response = decide(request, load_agent("heuristic"), RuleConfig())
    spent = time.process_time() - started
    assert re.search(message, response.get("error", "")), response
    assert spent < 1.0  # a hang guard: the refusal reads no card (milliseconds here)


def test_rejected_requests_leave_the_caches_as_they_were():
    agent, config = load_agent("heuristic"), RuleConfig()
    _, request = a_play_request()
    decide(dict(request), agent, config)  # warm the caches with one real request
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(1_000):  # distinct near-limit requests, each refused
            hostile = dict(request)
            hostile["hand"] = many(2_000 + number)  # valid cards, far too many copies
            assert "error" in decide(hostile, agent, config)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000, f"{grown:,} bytes kept after 1,000 refused requests"


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_benchmarks_requests_at_the_bounds_are_read_or_refused(decks):
    from tests.benchmark_scripts import load_script

    script = load_script("protocol_bounds")
    for name, request in script.worst_allowed(decks).items():
        median, _ = script.cold_cost(request, RuleConfig(decks=decks), repeats=3)
        assert median < 250, name  # a hang guard; benchmarks/protocol_bounds.py measures
