"""The JSON decision protocol end to end: stdin/stdout bot, HTTP server, bad input, fuzzing."""

import json
import random
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from shengji_env.agents import load_agent
from shengji_env.frontends.protocol import decide, request_for
from shengji_env.frontends.serving import answer, make_server
from shengji_env.rules import Game, Phase, RuleConfig, parse_cards

ROOT = Path(__file__).parents[2]


def play_hand_through(send, config: RuleConfig, seed: int) -> Game:
    """A table kept by the engine; every decision asked of the bot through the protocol."""
    game = Game(config, seed=seed)
    while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
        seat = game.current_player
        response = send(request_for(game, seat))
        assert "error" not in response, response
        game.step(parse_cards(response["cards"]))  # the engine rejects an illegal answer
    return game


def test_protocol_plays_whole_hands_in_process():
    agent = load_agent("heuristic")
    for decks in (1, 2, 3):
        config = RuleConfig(decks=decks)

        def send(request, config=config):
            return decide(json.loads(json.dumps(request)), agent, config)

        assert play_hand_through(send, config, 1).result is not None


def test_bot_over_stdin_stdout_plays_a_whole_hand():
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "shengji_env.frontends.cli",
            "bot",
            "--agent",
            "greedy",
            "--decks",
            "2",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )

    def send(request):
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    try:
        assert "malformed JSON" in send_raw(process, "{oops")["error"]
        game = play_hand_through(send, RuleConfig(decks=2), 4)
        assert game.result is not None
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0


def send_raw(process, text):
    process.stdin.write(text + "\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


@pytest.fixture
def server():
    config = RuleConfig(decks=2)
    http = make_server(load_agent("heuristic"), config, "127.0.0.1", 0, {"agent": "heuristic"})
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{http.port}"
    http.shutdown()
    http.close()


def post(url, body: bytes):
    request = urllib.request.Request(url + "/decide", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_http_server_plays_whole_hands_and_survives_bad_requests(server):
    with urllib.request.urlopen(server + "/health", timeout=10) as response:
        assert json.loads(response.read())["status"] == "ok"
    status, body = post(server, b"{not json")
    assert status == 400 and "malformed JSON" in body["error"]
    game = play_hand_through(lambda r: post(server, json.dumps(r).encode())[1], RuleConfig(), 2)
    assert game.result is not None
    status, body = post(server, json.dumps({"phase": "play"}).encode())
    assert status == 400 and "missing field 'seat'" in body["error"]
    assert post(server, json.dumps(request_for(Game(RuleConfig(), seed=9), 0)).encode())[0] in (
        200,
        400,
    )


def a_play_request(seed=3):
    game = Game(RuleConfig(), seed=seed)
    rng = random.Random(seed)
    from shengji_env.rules.sampling import random_action

    while game.phase is not Phase.PLAY or len(game.tricks) < 3 or not game.trick:
        game.step(random_action(game, rng))
    return game, request_for(game, game.current_player)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(hand=[*r["hand"], "11X"]), "malformed card '11X'"),
        (lambda r: r.update(hand=r["hand"][:-1]), "should hold"),
        (lambda r: r.update(seat=(r["seat"] + 1) % 4), "not seat"),
        (lambda r: r.update(phase="dance"), "phase must be one of"),
        (lambda r: r.update(rules={"decks": 3}), "this bot plays"),
        (lambda r: r.update(rules={"deck": 2}), "unknown rule option"),
        (lambda r: r["tricks"][0]["plays"].pop(), "four plays"),
        (lambda r: r.update(level="1"), "level"),
        (lambda r: r.update(dealer=None), "dealer must be known"),
        (lambda r: r.update(trump="X"), "disagrees with the declarations"),
    ],
)
def test_inconsistent_requests_get_clear_errors(mutate, message):
    _, request = a_play_request()
    mutate(request)
    response = decide(request, load_agent("heuristic"), RuleConfig())
    assert message in response.get("error", ""), response


def test_a_card_played_more_often_than_the_decks_hold():
    _, request = a_play_request()
    played = request["tricks"][0]["plays"][0][0]
    request["hand"] = [played, played, *request["hand"][2:]]
    request["tricks"][1]["plays"][0] = [played]
    response = decide(request, load_agent("heuristic"), RuleConfig())
    assert "error" in response


def test_fuzzing_never_breaks_the_server_answer():
    rng = random.Random(0)
    agent = load_agent("greedy")
    config = RuleConfig()
    _, base = a_play_request()
    texts = json.dumps(base)
    for index in range(2000):
        if index % 3 == 0:
            text = "".join(
                rng.choice('{}[]":,0123456789abcdeSHDCJQKA ') for _ in range(rng.randint(0, 80))
            )
        else:
            request = json.loads(texts)
            key = rng.choice(list(request))
            request[key] = rng.choice(
                [None, 0, -1, 7, "x", [], {}, ["AS"], [["AS"]], {"leader": 9}, True]
            )
            text = json.dumps(request)
        response = answer(text, agent, config)
        assert set(response) == {"id", "error"} or set(response) == {"id", "cards"}
