"""Every shell command in the README runs (in a short variant: fewer deals, steps or
minutes, outputs in a temporary folder) and prints what the README says it does. A README
command without an entry here fails the test, so the table keeps up with the README."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from shengji_env.frontends.commands import DEFAULT_POLICY, default_agent_spec

from .readme import README, ROOT

SHENGJI = [sys.executable, "-m", "shengji_env.frontends.cli"]
BOTZONE_KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def test_the_makefile_demo_holds_the_same_best_policy_as_the_front_ends():
    makefile = (ROOT / "Makefile").read_text()
    assert f"DEFAULT_POLICY := {DEFAULT_POLICY.relative_to(ROOT)}\n" in makefile


def readme_commands() -> list[str]:
    """The command lines of the README's shell blocks, comments stripped."""
    commands = []
    for language, body in re.findall(r"```(\w*)\n(.*?)```", README, flags=re.DOTALL):
        if language == "python":
            continue
        for line in body.splitlines():
            command = line.split("  #")[0].strip()
            if command and not line.startswith((" ", "#")):
                commands.append(command)
    return commands


@dataclass(frozen=True)
class Short:
    """How a README command runs here: ``run(tmp)`` returns the output to check."""

    run: Callable[[Path], str] | None
    expect: str = ""
    why_not: str = ""  # for a command that is not run here, where it is covered instead


def shengji(*args: str | Path, stdin: str | None = None, timeout: int = 600) -> str:
    done = subprocess.run(
        [*SHENGJI, *map(str, args)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done.stdout


def arena(*agents: str, extra: tuple[str, ...] = ()) -> Callable[[Path], str]:
    def run(tmp: Path) -> str:
        return shengji(
            "arena", "--agents", *agents, "--deals", "2", "--jobs", "1", *extra,
            "--out", tmp / "arena.json", "--plot", tmp / "arena.png",
        )  # fmt: skip

    return run


QUICK_SHORT = ("total_steps=1024", "steps_per_update=512", "bc_steps=256", "num_workers=0")


def train_quick(tmp: Path) -> str:
    return shengji(
        "train", "--config", "configs/quick.yaml", *QUICK_SHORT, f"run_dir={tmp}", "run_name=demo"
    )


def demo(tmp: Path) -> str:
    """make demo's three steps, short: the seeded hand, a quick run, its arena."""
    out = shengji("demo", "--seed", "7")
    train_quick(tmp)
    checkpoint = tmp / "demo" / "checkpoint.pt"
    agents = (f"ppo:{checkpoint}", default_agent_spec(), "heuristic", "greedy", "random")
    return out + arena(*agents)(tmp)


# the clone on 2 of its 80 label parts, then one PPO update of 2,048 steps (its 16,384 take
# minutes on a loaded 2-core machine, and the Ray run one worker: near the 600 s timeout)
FULL_SHORT = ("bc_label_parts=2", "bc_epochs=1", "steps_per_update=2048")


def train_full(tmp: Path, *extra: str) -> str:
    return shengji(
        "train", "--config", "configs/full.yaml", "--max-minutes", "0.01", *FULL_SHORT,
        f"run_dir={tmp}", *extra,
    )  # fmt: skip


def resume(tmp: Path, *extra: str) -> str:
    """The committed run, copied: a resume writes into its run folder."""
    shutil.copytree(ROOT / "checkpoints" / "full", tmp / "full")
    return shengji(
        "train", "--resume", tmp / "full" / "checkpoint.pt", "--max-minutes", "0.01", *extra
    )


def export(tmp: Path) -> str:
    return shengji("export", "models/full-v2", "--out", tmp / "full-v2")


def bot(tmp: Path) -> str:
    from shengji_env.frontends.protocol import request_for

    from shengji_env.rules import Game, RuleConfig

    export(tmp)
    game = Game(RuleConfig(), seed=1)
    request = json.dumps({**request_for(game, game.current_player), "id": 1})
    return shengji("bot", "--model", tmp / "full-v2", stdin=request + "\n")


@contextlib.contextmanager
def background(tmp: Path, *args: str | Path) -> Iterator[tuple[subprocess.Popen, Path]]:
    """A ``shengji`` command running in the background, its output in a log file."""
    log = tmp / f"{args[0]}.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [*SHENGJI, *map(str, args)],
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
        )
    try:
        yield server, log
    finally:
        server.terminate()
        server.wait(timeout=30)


def fetch_when_up(server: subprocess.Popen, log: Path, url: str) -> str:
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                return answer.read().decode()
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)


def serve(tmp: Path) -> str:
    export(tmp)
    with background(tmp, "serve", "--model", tmp / "full-v2", "--port", "0") as (server, log):
        deadline = time.monotonic() + 120
        while not (found := re.search(r"http://[\d.]+:(\d+)", log.read_text())):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        health = fetch_when_up(server, log, f"http://127.0.0.1:{found.group(1)}/health")
        return log.read_text() + health


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def web(*extra: str) -> Callable[[Path], str]:
    """Start ``shengji web`` on a free port, read the page and its state, stop it."""

    def run(tmp: Path) -> str:
        base = f"http://127.0.0.1:{(port := free_port())}"
        with background(tmp, "web", *extra, "--port", str(port), "--seed", "1") as (server, log):
            state = fetch_when_up(server, log, base + "/api/state")
            return log.read_text() + state + fetch_when_up(server, log, base + "/")

    return run


def node_golden(tmp: Path) -> str:
    export(tmp)
    done = subprocess.run(
        ["node", str(ROOT / "node" / "golden.mjs"), str(tmp / "full-v2")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def replays(tmp: Path) -> str:
    return shengji(
        "arena",
        "--agents",
        "heuristic",
        "greedy",
        "--deals",
        "2",
        "--replays",
        tmp / "hands.jsonl",
        "--out",
        tmp / "arena.json",
    )


def replay_show(tmp: Path) -> str:
    replays(tmp)
    return shengji("replay", tmp / "hands.jsonl")


def botzone(tmp: Path) -> str:
    export(tmp)
    data = (ROOT / "tests" / "golden" / "botzone" / "play_follow_pair.json").read_text()
    return shengji("botzone", "--model", tmp / "full-v2", stdin=data.replace("\n", "") + "\n")


COMMANDS: dict[str, Short] = {
    "make demo": Short(demo, "Elo:"),
    "make test": Short(None, why_not="this suite is what it runs"),
    ".venv/bin/shengji arena --agents heuristic greedy random --deals 500 --jobs 2 --plot arena.png": Short(  # noqa: E501 — the README line
        arena("heuristic", "greedy", "random"), "Elo:"
    ),
    ".venv/bin/shengji train --config configs/quick.yaml": Short(train_quick, "run folder:"),
    ".venv/bin/shengji train --config configs/full.yaml --max-minutes 60": Short(
        train_full, "run folder:"
    ),
    ".venv/bin/shengji train --resume checkpoints/full/checkpoint.pt --max-minutes 60": Short(
        resume, "PPO from update"
    ),
    ".venv/bin/shengji train --resume checkpoints/full/checkpoint.pt total_steps=60000000": Short(
        lambda tmp: resume(tmp, "total_steps=60000000"), "of 60,000,000"
    ),
    ".venv/bin/shengji arena --agents ppo:models/full-v4 heuristic --deals 4000 --jobs 2 --seed 2026": Short(  # noqa: E501 — the README line
        arena("ppo:models/full-v4", "heuristic", extra=("--seed", "2026")), "Elo:"
    ),
    "python examples/selfplay_ppo.py --total-steps 8000 --steps-per-update 4000 --tables 32": Short(
        None, why_not="tests/test_recipes.py runs it verbatim"
    ),
    "python examples/torchrl_pg.py --iterations 2 --decks 1 --steps 400": Short(
        None, why_not="tests/test_recipes.py runs it verbatim"
    ),
    "python examples/rllib_ppo.py --iterations 2 --decks 1 --batch 400": Short(
        None, why_not="tests/test_rllib.py runs it verbatim in make test-rllib's venv"
    ),
    "ray start --head --port=6379": Short(None, why_not="starts a cluster's head node"),
    "ray start --address=HEAD_IP:6379": Short(None, why_not="joins a cluster"),
    ".venv/bin/shengji train --config configs/full.yaml backend=ray ray_address=auto num_workers=32": Short(  # noqa: E501 — the README line
        lambda tmp: train_full(tmp, "backend=ray", "num_workers=1"), "run folder:"
    ),
    ".venv/bin/shengji arena --agents heuristic greedy --deals 2000 --backend ray --ray-address auto": Short(  # noqa: E501 — the README line
        arena("heuristic", "greedy", extra=("--backend", "ray")), "Elo:"
    ),
    ".venv/bin/shengji export models/full-v2 --out exports/full-v2": Short(export, "exported:"),
    ".venv/bin/shengji bot --model exports/full-v2": Short(bot, '"cards"'),
    ".venv/bin/shengji serve --model exports/full-v2 --port 8765": Short(serve, "serving on"),
    ".venv/bin/shengji play --opponents ppo:models/full-v2": Short(
        None, why_not="interactive: tests/agents/test_human.py plays it through its input"
    ),
    "node node/golden.mjs exports/full-v2": Short(node_golden, "golden: 4 of 4 within"),
    ".venv/bin/shengji web": Short(web(), '"phase"'),
    ".venv/bin/shengji web --opponents heuristic --seat 2 --port 8781": Short(
        web("--opponents", "heuristic", "--seat", "2"), '"seat":2'
    ),
    ".venv/bin/shengji arena --agents heuristic greedy --deals 100 --replays hands.jsonl": Short(
        replays, "results:"
    ),
    ".venv/bin/shengji replay hands.jsonl": Short(replay_show, "re-simulated"),
    ".venv/bin/shengji botzone --model exports/full-v2": Short(botzone, BOTZONE_KEEP),
}


def test_every_readme_command_has_an_entry():
    assert set(readme_commands()) == set(COMMANDS)


RUNNABLE = [command for command, short in COMMANDS.items() if short.run is not None]


@pytest.mark.slow
@pytest.mark.parametrize("command", RUNNABLE, ids=[f"cmd{i}" for i in range(len(RUNNABLE))])
def test_a_readme_command_runs_and_prints_what_it_says(command, tmp_path):
    short = COMMANDS[command]
    assert short.run is not None
    output = short.run(tmp_path)
    assert short.expect in output, output[-2000:]
