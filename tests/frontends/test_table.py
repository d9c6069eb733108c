"""The web table's session and JSON API: the person's actions are checked and explained,
a match goes on hand by hand, and every finished hand is kept as a replay."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from shengji_env.frontends.table import TableError, TableSession
from shengji_env.replay import parse_replay, resimulate
from tests.frontends.player import play_decision


def play_hand(session: TableSession) -> None:
    tried: dict[str, bool] = {}
    while session.shown_result is None:
        play_decision(session, tried)


def test_a_match_goes_on_hand_by_hand_and_each_hand_replays():
    session = TableSession(["greedy", "heuristic", "random"], seat=1, decks=1, seed=7)
    assert session.names == ["greedy", "you", "heuristic", "random"]
    for number in range(3):
        play_hand(session)
        state = session.state()
        assert state["phase"] == "hand_over" and state["hands_played"] == number + 1
        with pytest.raises(TableError, match="not your turn"):
            session.select(0)
        session.next_hand()
    lines = [json.dumps(event) for hand in session.hands for event in hand]
    hands = parse_replay(lines)
    assert [resimulate(events).result for events in hands] == session.env.game.results[:3]
    assert hands[1][0]["levels"] == list(resimulate(hands[0]).levels), (
        "the next hand starts at the levels the last one left"
    )


def test_the_persons_mistakes_are_explained_and_change_nothing():
    session = TableSession(["heuristic"], seat=0, decks=2, seed=2)
    while session.state()["phase"] not in ("lead", "follow"):
        play_decision(session, {})
    state = session.state()
    illegal = next((c["id"] for c in state["hand"] if c["id"] not in state["legal"]), None)
    if illegal is not None:
        with pytest.raises(TableError) as error:
            session.select(illegal)
        assert str(error.value) and session.state() == state
    with pytest.raises(TableError, match="not selected"):
        session.unselect(state["legal"][0])
    with pytest.raises(TableError, match="hand is not over"):
        session.next_hand()
    session.select(state["legal"][0])
    session.unselect(state["legal"][0])
    assert session.state() == state


TOKENS: dict[str, str] = {}  # the owning tab's token, by server


def owner_headers(url: str) -> dict[str, str]:
    """The headers of the tab that plays the match on ``url``'s server (it joins first)."""
    base = url.split("/api/")[0]
    if base not in TOKENS:
        status, answer = post(base + "/api/join", b"", {})
        assert status == 200 and answer["owner"], answer
        TOKENS[base] = answer["token"]
    return {"X-Table-Token": TOKENS[base]}


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    """POST as the owning tab unless ``headers`` are given."""
    if headers is None:
        headers = owner_headers(url)
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize(
    "path,body,message",
    [
        ("/api/select", b"{", "Expecting"),
        ("/api/select", b"[1]", "JSON object"),
        ("/api/select", b'{"card": "AS"}', "field 'card'"),
        ("/api/select", b'{"card": 99}', "field 'card'"),
        ("/api/new", b'{"seed": -1}', "field 'seed'"),
        ("/api/next", b"", "hand is not over"),
        ("/api/select", b'{"card": \xff}', "not UTF-8"),
        ("/api/select", b"[" * 30_000 + b"]" * 30_000, "nested at most 32 levels"),
        ("/api/select", b'{"card": 1' + b"0" * 5_000 + b"}", "not JSON"),
        ("/api/new", b'{"seed": NaN}', "NaN is not a JSON number"),
    ],
)
def test_bad_requests_get_an_error_that_says_what_was_wrong(server, path, body, message):
    status, answer = post(server[0] + path, body)
    assert status == 400 and message in answer["error"]
    assert "hand" in answer  # the state comes back unchanged beside the error


def test_a_bad_replay_upload_names_the_line_and_field(server):
    status, answer = post(server[0] + "/api/replay/frames", b'{"event": "hand", "format": 1}\n')
    assert status == 400 and "line 1" in answer["error"]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "http://127.0.0.1:1"}, 403),  # another port is another site
        ({"Host": "evil.example"}, 403),
        ({"Host": "evil.example", "Origin": "http://evil.example"}, 403),
        (None, 200),
    ],
)
def test_only_the_tables_own_page_may_post(server, headers, status):
    url, session = server
    before = session.state()
    code, answer = post(url + "/api/clear", b"", headers)  # None: the owning tab
    assert code == status
    if status == 403:
        assert "answers" in answer["error"] and session.state() == before


def test_the_own_origin_and_the_loopback_names_are_accepted():
    from shengji_env.frontends.web import foreign_request

    for host in ("127.0.0.1:8780", "localhost:8780", "[::1]:8780"):
        assert foreign_request({"host": host, "origin": f"http://{host}"}) == ""
    assert foreign_request({"host": "127.0.0.1:8780"}) == ""  # no Origin: not a browser page
    assert "not ''" in foreign_request({})
    assert foreign_request({"host": "evil.example:8780"}, posting=False)


def raw_post(url: str, path: str, head: bytes) -> tuple[int, float]:
    """Send a POST's head only (its body never comes); the status and how long it took."""
    import socket
    import time
    from urllib.parse import urlsplit

    address = urlsplit(url)
    started = time.monotonic()
    with socket.create_connection((address.hostname, address.port), timeout=20) as connection:
        host = f"{address.hostname}:{address.port}".encode()
        connection.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: " + host + b"\r\n")
        connection.sendall(head + b"\r\n")
        status = int(connection.recv(1024).split(b" ")[1])
    return status, time.monotonic() - started


@pytest.mark.parametrize("path", ["/api/select", "/api/replay/frames"])
def test_a_body_announced_too_large_is_refused_before_it_is_read(server, path):
    status, seconds = raw_post(server[0], path, b"Content-Length: 400000000\r\n")
    assert status == 413 and seconds < 10  # answered at once: the body was never awaited


def test_a_body_too_large_without_a_length_is_cut_off(server):
    status, answer = post(server[0] + "/api/select", b" " * (64 * 1024 + 1))
    assert status == 413 and "too large" in answer["error"]


def test_the_viewer_shows_a_bounded_number_of_hands(server):
    from shengji_env.frontends.web import MAX_REPLAY_HANDS, replay_frames

    url, session = server
    status, answer = post(url + "/api/new", b'{"seed": 3, "confirm": true}')
    TOKENS[url] = answer["token"]
    play_hand(session)
    one_hand = "\n".join(json.dumps(event) for event in session.hands[0]) + "\n"
    assert len(replay_frames(one_hand)) == 1
    status, answer = post(url + "/api/replay/frames", (one_hand * (MAX_REPLAY_HANDS + 1)).encode())
    assert status == 400 and f"at most {MAX_REPLAY_HANDS} hands" in answer["error"]


def get_state(url: str, headers: dict[str, str]) -> dict:
    request = urllib.request.Request(url + "/api/state", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_a_second_tab_watches_and_its_clicks_change_nothing(server):
    url, session = server
    owner = owner_headers(url)
    status, second = post(url + "/api/join", b"", {})
    assert status == 200 and second["owner"] is False and "token" not in second
    before = session.state()
    for path, body in [("/api/select", b'{"card": 0}'), ("/api/clear", b""), ("/api/play", b"")]:
        for headers in ({}, {"X-Table-Token": "guessed"}, {"X-Table-Token": ""}):
            status, answer = post(url + path, body, headers)
            assert status == 403 and "another tab" in answer["error"] and not answer["owner"]
    assert session.state() == before
    assert get_state(url, owner)["owner"] and not get_state(url, {})["owner"]


def test_new_match_over_an_unfinished_one_needs_a_confirmation(server):
    url, session = server
    old = owner_headers(url)
    seed = session.seed
    for headers in (old, {}):  # the playing tab, then a watching one
        status, answer = post(url + "/api/new", b'{"seed": 5}', headers)
        assert status == 409 and answer["confirm"] and "under way" in answer["error"]
        assert session.seed == seed
    status, answer = post(url + "/api/new", b'{"seed": 5, "confirm": true}', {})
    assert status == 200 and answer["owner"] and session.seed == 5
    new = {"X-Table-Token": answer["token"]}
    TOKENS[url] = answer["token"]
    status, answer = post(url + "/api/clear", b"", old)
    assert status == 403 and "another tab" in answer["error"]
    assert post(url + "/api/clear", b"", new)[0] == 200


def test_a_body_that_never_ends_is_answered_408(server, monkeypatch):
    import socket
    from urllib.parse import urlsplit

    from shengji_env.frontends import web

    monkeypatch.setattr(web, "BODY_SECONDS", 1)
    address = urlsplit(server[0])
    with socket.create_connection((address.hostname, address.port), timeout=20) as connection:
        host = f"{address.hostname}:{address.port}".encode()
        connection.sendall(
            b"POST /api/replay/frames HTTP/1.1\r\nHost: " + host + b"\r\n"
            b"Content-Length: 5000\r\n\r\n{"
        )
        answer = b""
        while b"took more than" not in answer and (chunk := connection.recv(4096)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408") and b"took more than 1 s" in answer
