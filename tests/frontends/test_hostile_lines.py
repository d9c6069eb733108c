"""``shengji bot`` and ``shengji botzone`` answer every input line, whatever it holds and
whatever the locale's encoding rules (a strict UTF-8 decoder here): bytes that are not
UTF-8, nesting too deep, a number too long, a line too long — each gets an error answer, and
the next line is answered as usual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shengji_env.frontends.protocol import request_for
from shengji_env.rules import Game, RuleConfig

ROOT = Path(__file__).resolve().parents[2]
STRICT = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONUTF8": "0"}
HOSTILE = [  # (a line, what the error must say)
    (b"\xff\xfe{}", "not UTF-8"),
    (b'{"id": "\xc3\x28"}', "not UTF-8"),
    (b"[" * 50_000 + b"]" * 50_000, "nested"),
    (b'{"id": 1' + b"0" * 5_000 + b"}", ""),
    (b"{", ""),
]


def run(command: list[str], lines: list[bytes]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "shengji_env.frontends.cli", *command],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        cwd=ROOT,
        env=STRICT,
        timeout=300,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    return done.stdout.decode("utf-8").splitlines()


@pytest.mark.parametrize(("line", "message"), HOSTILE)
def test_the_bot_answers_a_hostile_line_and_goes_on(line, message):
    game = Game(RuleConfig(), seed=1)
    request = json.dumps({**request_for(game, game.current_player), "id": 9}).encode()
    first, second = run(["bot", "--agent", "heuristic"], [line, request])
    assert message in json.loads(first)["error"]
    assert json.loads(second)["id"] == 9 and "cards" in json.loads(second)


@pytest.mark.parametrize(("line", "message"), HOSTILE)
def test_botzone_answers_a_hostile_line_and_goes_on(line, message):
    answers = run(["botzone", "--agent", "heuristic"], [line, b'{"requests": []}'])
    first = json.loads(answers[0])
    assert first["response"] == [] and message in first["debug"] and "error" in first["debug"]
    assert answers[1] == ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<" and len(answers) == 4
