"""The Botzone Tractor bot (docs/botzone.md): card ids, recorded requests written from
the protocol's description, long-running mode, bad input, and whole hands with our
engine as the judge."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from shengji_env.agents import load_agent
from shengji_env.frontends.botzone import KEEP_RUNNING, botzone_id, card_of, respond, serve_botzone
from shengji_env.frontends.botzone_judge import judge_hand
from shengji_env.rules import format_card, make_deck, parse_card
from shengji_env.rules.cards import rank_of

ROOT = Path(__file__).parents[2]
RECORDED = sorted((ROOT / "tests" / "golden" / "botzone").glob("*.json"))
LEVEL = 0  # the recorded requests play at level 2


def test_card_ids_map_both_ways_and_each_card_has_two_copies():
    cards = [card_of(bz) for bz in range(108)]
    assert Counter(cards) == Counter(make_deck(2))
    for bz in range(108):
        assert botzone_id(card_of(bz), bz // 54) == bz
    named = {
        0: "AS",
        5: "2H",
        39: "10D",
        46: "QC",
        48: "KS",
        52: "SJ",
        53: "BJ",
        59: "2H",
        107: "BJ",
    }
    for bz, name in named.items():
        assert format_card(card_of(bz)) == name == format_card(parse_card(name))


def held(requests, responses):
    cards = Counter()
    for index, request in enumerate(requests):
        if request["stage"] in ("deal", "cover"):
            cards.update(request["deliver"])
        if request["stage"] == "cover" and index < len(responses):
            cards.subtract(responses[index])
    return +cards


def botzone_legal(requests, responses, response):
    """Botzone's rules for the answer to the last request, as the protocol states them."""
    request = requests[-1]
    hand = held(requests, responses)
    assert isinstance(response, list) and not Counter(response) - hand, "cards not held"
    banking = request["global"]["banking"]
    seat = requests[0]["playerpos"]
    if request["stage"] == "deal":
        if not response:
            return
        cards = [card_of(bz) for bz in response]
        assert all(c < 52 and rank_of(c) == LEVEL for c in cards), "a declaration shows level cards"
        if banking["called"] == -1:
            assert len(cards) == 1
        else:
            assert banking["snatched"] == -1 and banking["called"] != seat
            assert len(cards) == 2 and cards[0] == cards[1]
    elif request["stage"] == "cover":
        assert len(response) == 8
    else:
        assert response, "a play holds cards"


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_every_recorded_request_gets_a_legal_response(path):
    data = json.loads(path.read_text())
    for spec in ("heuristic", "greedy", "random"):
        reply = respond(data, load_agent(spec, seed=1))
        assert "debug" not in reply, reply
        botzone_legal(data["requests"], data["responses"], reply["response"])
        if path.stem == "play_follow_pair":  # the only spade pair must follow the pair lead
            assert sorted(reply["response"]) == [48, 102]
        if path.stem == "deal_own_call":  # no snatching one's own call
            assert reply["response"] == []
        if path.stem == "play_lead_after_cover":  # the buried cards are gone
            assert not set(reply["response"]) & {0, 1, 4, 8, 12, 17, 21, 25}


@pytest.mark.parametrize(
    "data,field",
    [
        ({}, "requests"),
        ({"requests": []}, "requests is empty"),
        ({"requests": [{"stage": "bid", "deliver": [1]}]}, "requests[0].stage"),
        (
            {"requests": [{"stage": "deal", "deliver": [200], "playerpos": 1}]},
            "requests[0].deliver",
        ),
        (
            {"requests": [{"stage": "deal", "deliver": [1], "playerpos": 7}]},
            "requests[0].playerpos",
        ),
        ({"requests": [{"stage": "play", "history": [[], []]}]}, "requests[0].history"),
        (
            {"requests": [{"stage": "deal", "deliver": [1], "global": {"level": "Z"}}]},
            "global.level",
        ),
        ("[1, 2]", "not a JSON object"),
    ],
)
def test_bad_requests_are_answered_with_an_error_naming_the_field(data, field):
    reply = respond(data, load_agent("heuristic"))
    assert reply["response"] == [] and field in reply["debug"]


def test_long_running_mode_keeps_the_history_and_survives_a_bad_line():
    data = json.loads((ROOT / "tests/golden/botzone/deal_snatch.json").read_text())
    first = {"requests": data["requests"][:1], "responses": []}
    lines = [json.dumps(first), "not json", *(json.dumps(r) for r in data["requests"][1:])]
    out = io.StringIO()
    serve_botzone(load_agent("heuristic"), io.StringIO("\n".join(lines) + "\n"), out)
    written = out.getvalue().splitlines()
    assert written[1::2] == [KEEP_RUNNING] * 4
    replies = [json.loads(line) for line in written[0::2]]
    assert "not JSON" in replies[1]["debug"]
    assert all("debug" not in reply for i, reply in enumerate(replies) if i != 1)
    botzone_legal(data["requests"], data["responses"], replies[-1]["response"])


def test_the_botzone_command_answers_once():
    data = (ROOT / "tests/golden/botzone/play_follow_pair.json").read_text()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "shengji_env.frontends.cli",
            "botzone",
            "--agent",
            "heuristic",
            "--once",
        ],
        input=data,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert sorted(json.loads(done.stdout.splitlines()[0])["response"]) == [48, 102]


MIXES = [("heuristic",) * 4, ("heuristic", "random", "greedy", "random")]


@pytest.mark.parametrize("mix", MIXES)
def test_whole_hands_through_the_adapter_with_our_engine_as_judge(mix):
    for seed in range(6):
        report = judge_hand([load_agent(name, seed=seed) for name in mix], seed, level=seed % 13)
        assert report.result is not None and report.requests > 100


@pytest.mark.slow
def test_two_hundred_judged_hands_have_no_illegal_response():
    requests = 0
    for seed in range(200):
        mix = MIXES[seed % 2]
        report = judge_hand([load_agent(n, seed=seed) for n in mix], 1000 + seed, level=seed % 13)
        requests += report.requests
    assert requests > 200 * 150


def mutated(value, rng):
    """``value`` with one leaf somewhere replaced by something out of place."""
    if isinstance(value, dict) and value and rng.random() < 0.6:
        key = rng.choice(list(value))
        return {**value, key: mutated(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.6:
        index = rng.randrange(len(value))
        return [*value[:index], mutated(value[index], rng), *value[index + 1 :]]
    return rng.choice([None, -1, 3.5, "x", [], {}, [200], True, 10**20, "s", [[1]], 107])


def test_mutated_inputs_never_crash_the_bot(record_property):
    import random

    agent = load_agent("heuristic")
    rng = random.Random(0)
    tried = 0
    for path in RECORDED:
        data = json.loads(path.read_text())
        for _ in range(300):
            reply = respond(mutated(data, rng), agent)
            assert isinstance(reply["response"], list)
            json.dumps(reply, allow_nan=False)
            tried += 1
    record_property("fuzz_botzone_inputs", tried)


def judged_history(seed: int, seat: int = 0, at: int = 12) -> dict:
    """Seat ``seat``'s Botzone history of a judged hand, cut at its ``at``-th play request
    (a finished trick in it), with its responses before that request."""
    from shengji_env.frontends.botzone_judge import _Hand

    hand = _Hand([load_agent("heuristic") for _ in range(4)], seed, 0)
    hand.play()
    record = hand.seats[seat]
    plays = [i for i, r in enumerate(record.requests) if r["stage"] == "play" and r["history"][0]]
    cut = plays[min(at, len(plays) - 1)]
    return {"requests": record.requests[: cut + 1], "responses": record.responses[:cut]}


def _seat_plays(data):
    """(request index, play index) of each of this seat's plays in a finished trick."""
    seat = data["requests"][0]["playerpos"]
    found = []
    for index, request in enumerate(data["requests"]):
        if request.get("stage") != "play" or not request["history"][0]:
            continue
        leader = request["history"][2]
        found.append((index, (seat - leader) % 4))
    return found


def test_a_judged_history_is_answered_and_its_tampered_copy_refused():
    data = judged_history(3)
    assert "debug" not in respond(data, load_agent("heuristic"))
    dealt = {bz for r in data["requests"] for bz in r.get("deliver", [])}
    index, play = _seat_plays(data)[-1]
    stranger = next(bz for bz in range(108) if bz not in dealt)
    cards = data["requests"][index]["history"][0][play]
    data["requests"][index]["history"][0][play] = [stranger] * len(cards)
    reply = respond(data, load_agent("heuristic"))
    assert reply["response"] == [] and "did not hold" in reply["debug"]


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda d: d["requests"][1].update(deliver=d["requests"][0]["deliver"]), "twice"),
        (lambda d: d["requests"][0]["deliver"].extend(range(60, 90)), "a hand holds 25"),
    ],
)
def test_a_history_that_deals_impossibly_is_refused(tamper, message):
    data = json.loads((ROOT / "tests/golden/botzone/play_follow_pair.json").read_text())
    tamper(data)
    reply = respond(data, load_agent("heuristic"))
    assert reply["response"] == [] and message in reply["debug"]


def test_tampered_histories_are_refused_never_answered_with_cards_not_held(record_property):
    """This seat's past plays changed to random card ids, in histories of judged hands: a
    history where the seat played a card it did not hold is refused; any other is answered
    with cards still in its hand."""
    import random

    agent, rng = load_agent("heuristic"), random.Random(1)
    refused = answered = 0
    for seed in range(4):
        original = judged_history(seed, seat=seed % 4)
        plays = _seat_plays(original)
        for _ in range(50):
            data = json.loads(json.dumps(original))
            index, play = rng.choice(plays)
            cards = data["requests"][index]["history"][0][play]
            cards[rng.randrange(len(cards))] = rng.randrange(108)
            left, possible = held(data["requests"], data["responses"]), True
            seat = data["requests"][0]["playerpos"]
            for request in data["requests"]:
                if request["stage"] == "play" and request["history"][0]:
                    own = Counter(request["history"][0][(seat - request["history"][2]) % 4])
                    possible = possible and own <= left
                    left -= own
            reply = respond(data, agent)
            if not possible:
                assert reply["response"] == [] and "did not hold" in reply["debug"]
                refused += 1
            elif "debug" not in reply:
                assert Counter(reply["response"]) <= left
                answered += 1
    record_property("tampered", f"{refused} refused, {answered} answered")
    assert refused > 100
