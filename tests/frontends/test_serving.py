"""Hostile and careless input to the bot and the HTTP server: each gets an error answer,
the process stays up and the next request is served. Fuzzed with hypothesis."""

import json
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji_env.agents import load_agent
from shengji_env.frontends.protocol import request_for
from shengji_env.frontends.serving import MAX_REQUEST_BYTES, answer, make_server
from shengji_env.rules import Game, RuleConfig

ROOT = Path(__file__).parents[2]
VALID = json.dumps(
    {**request_for(Game(RuleConfig(), seed=5), Game(RuleConfig(), seed=5).current_player), "id": 1}
)

HOSTILE = [  # (body, what the error says)
    ("[" * 1000, "nested at most"),
    ('{"id": ' + "9" * 4301 + "}", "more than 18 digits"),
    ('{"id": NaN, "seat": 0}', "NaN is not a JSON number"),
    ('{"id": Infinity}', "Infinity is not a JSON number"),
    ('{"a": ' * 40 + "1" + "}" * 40, "nested at most"),
    ("{not json", "malformed JSON"),
    ("", "malformed JSON"),
    ("[]", "a request is a JSON object"),
    ('"just a string"', "a request is a JSON object"),
    ('{"seat": 0, "phase": "play", "hand": "AS"}', "hand"),
    ('{"seat": 1e400}', "seat"),
]


@pytest.mark.parametrize(("body", "message"), HOSTILE)
def test_a_hostile_request_gets_an_error_answer(body, message):
    response = answer(body, load_agent("heuristic"), RuleConfig())
    assert set(response) == {"id", "error"} and message in response["error"], response
    json.dumps(response, allow_nan=False)  # what goes back is valid JSON


@pytest.mark.parametrize(
    ("ident", "echoed"), [(7, 7), ("abc", "abc"), (True, None), ([1], None), ("x" * 500, None)]
)
def test_only_plain_ids_are_echoed(ident, echoed):
    body = json.dumps({"id": ident, "seat": 0})
    assert answer(body, load_agent("heuristic"), RuleConfig())["id"] == echoed


def test_the_bot_answers_every_hostile_line_and_keeps_serving():
    process = subprocess.Popen(
        [sys.executable, "-m", "shengji_env.frontends.cli", "bot", "--agent", "heuristic"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    lines = [body for body, _ in HOSTILE if body] + ["x" * (MAX_REQUEST_BYTES + 10), VALID]
    out, _ = process.communicate("\n".join(lines) + "\n" + VALID, timeout=120)  # no last \n
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines) + 1 and process.returncode == 0
    assert all("error" in a for a in answers[: len(lines) - 1])
    assert "at most" in answers[len(lines) - 2]["error"]  # the over-long line
    assert "cards" in answers[-2] and "cards" in answers[-1]  # served after, EOF included


@pytest.fixture(scope="module")
def server():
    http = make_server(load_agent("heuristic"), RuleConfig(), "127.0.0.1", 0, {"agent": "h"})
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield http.port
    http.shutdown()
    http.close()


def raw_http(port: int, data: bytes) -> tuple[int, bytes]:
    """Send raw bytes, return the status code and the body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def post(port: int, body: bytes, headers: dict | None = None) -> tuple[int, dict, dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/decide", data=body, method="POST", headers=headers or {}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


@pytest.mark.parametrize(("body", "message"), HOSTILE)
def test_the_server_answers_a_hostile_body_with_400_and_serves_the_next(server, body, message):
    status, response, _ = post(server, body.encode())
    assert status == 400 and message in response["error"]
    assert post(server, VALID.encode())[0] == 200


def test_bad_lengths_get_the_right_status(server):
    request = b"POST /decide HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %s\r\n\r\n"
    status, body = raw_http(server, request % b"-1")
    assert status == 400
    status, body = raw_http(server, request % str(MAX_REQUEST_BYTES + 1).encode())
    assert status == 413 and b"at most" in body
    assert post(server, VALID.encode())[0] == 200


def test_browsers_on_other_origins_may_ask(server):
    status, _, headers = post(server, VALID.encode(), {"Origin": "http://example.org"})
    assert status == 200 and headers.get("access-control-allow-origin") == "*"
    preflight = (
        b"OPTIONS /decide HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Origin: http://example.org\r\nAccess-Control-Request-Method: POST\r\n\r\n"
    )
    assert raw_http(server, preflight)[0] == 200


def test_idle_connections_do_not_stop_others_being_served(server):
    idle = [socket.create_connection(("127.0.0.1", server), timeout=10) for _ in range(200)]
    try:
        assert threading.active_count() < 20  # no thread per connection
        assert post(server, VALID.encode())[0] == 200
    finally:
        for connection in idle:
            connection.close()


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def test_fuzzed_requests_never_break_an_answer(record_property):
    """A real request with one field replaced by any JSON value, random text, and cut
    requests: every answer is an error or cards, and valid JSON."""
    agent, tried = load_agent("greedy"), [0]

    @settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(sorted(json.loads(VALID))), JSON_VALUES, st.text(max_size=60))
    def check(field, value, noise):
        request = json.loads(VALID)
        request[field] = value
        for body in (json.dumps(request), noise, json.dumps(request)[: len(noise)]):
            tried[0] += 1
            response = answer(body, agent, RuleConfig())
            assert set(response) in ({"id", "error"}, {"id", "cards"})
            json.dumps(response, allow_nan=False)

    check()
    record_property("fuzz_protocol_inputs", tried[0])


def test_concurrent_requests_get_the_answers_of_one_at_a_time(server):
    """One stateful agent serves everyone: answers under load equal serial answers."""
    import random
    from concurrent.futures import ThreadPoolExecutor

    from shengji_env.frontends.protocol import decide
    from shengji_env.rules import Phase
    from shengji_env.rules.sampling import random_action

    rng, bodies = random.Random(3), []
    for seed in range(6):
        game = Game(RuleConfig(), seed=seed)
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
            bodies.append(json.dumps(request_for(game, game.current_player)))
            game.step(random_action(game, rng))
    bodies = bodies[::7][:120]
    agent = load_agent("heuristic")
    expected = [decide(json.loads(body), agent, RuleConfig()) for body in bodies]
    with ThreadPoolExecutor(24) as pool:
        answers = list(pool.map(lambda body: post(server, body.encode())[1], bodies))
    assert answers == expected


def test_fuzzed_http_bodies_never_break_the_server(server, record_property):
    """Random bytes (invalid UTF-8 included) and fuzzed requests over HTTP: every answer
    is JSON with a 200 or 400, and the server goes on serving."""
    tried = [0]

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.binary(max_size=200) | st.builds(lambda v: json.dumps({"seat": v}).encode(), SCALARS))
    def check(body):
        tried[0] += 1
        status, response, _ = post(server, body)
        assert status in (200, 400) and set(response) in ({"id", "error"}, {"id", "cards"})

    check()
    assert post(server, VALID.encode())[0] == 200
    record_property("fuzz_http_inputs", tried[0])


def nesting(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    return 0


JSON_VALUES = st.recursive(
    st.none() | st.integers() | st.text(alphabet='[]{}"\\aé '),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=3), inner, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_the_depth_check_counts_brackets_outside_strings_only(value, ascii_only):
    from shengji_env.frontends.serving import _nesting_depth

    assert _nesting_depth(json.dumps(value, ensure_ascii=ascii_only)) == nesting(value)


def test_silent_and_slow_connections_are_closed_while_others_are_served():
    http = make_server(
        load_agent("heuristic"), RuleConfig(), "127.0.0.1", 0, {"agent": "h"},
        idle_seconds=1.0, header_seconds=1.0, body_seconds=1.0,
    )  # fmt: skip
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        port = http.port
        silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(40)]
        slow = socket.create_connection(("127.0.0.1", port), timeout=10)
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        trickle = socket.create_connection(("127.0.0.1", port), timeout=10)
        trickle.sendall(b"POST /decide HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
        status, _ = raw_http(port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status == 200  # served while the others wait
        for connection in [*silent, slow]:
            assert connection.recv(1024) == b""  # closed by the server (within 10 s)
            connection.close()
        answer = b""  # a body that never ends: 408, then closed
        while chunk := trickle.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408") and b"took more than 1 s" in answer
        trickle.close()
        status, _ = raw_http(port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status == 200
    finally:
        http.shutdown()
        http.close()


def test_the_connection_cap_stays_below_the_file_limit(monkeypatch):
    import resource

    from shengji_env.frontends import serving

    monkeypatch.setattr(resource, "getrlimit", lambda _: (1024, 4096))
    assert serving.connection_cap() == 1024 - serving.FILES_KEPT
    monkeypatch.setattr(resource, "getrlimit", lambda _: (1 << 20, 1 << 20))
    assert serving.connection_cap() == serving.MAX_CONNECTIONS
