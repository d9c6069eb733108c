"""Every shell command in the README and the guides of docs/ runs (in a short variant:
fewer deals, steps or minutes, outputs in a temporary folder) and prints what the page says
it does. A command without an entry here fails the test, so the table keeps up with the
pages. ``make demo`` runs on its real defaults: its policy must beat greedy, resolved, in
under 10 CPU-minutes, and it must end on the next steps."""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .readme import ROOT

SHENGJI = [sys.executable, "-m", "shengji_env.frontends.cli"]
BOTZONE_KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
GUIDES = ("arena", "bots", "environment", "export", "frontends", "recipes", "training")
PAGES = ["README.md", *(f"docs/{name}.md" for name in GUIDES)]
RUNS = (".venv/bin/", "make ", "python examples/", "node ", "ray ")


def readme_commands() -> list[str]:
    """The command lines of the README's and the guides' shell blocks, comments stripped."""
    commands = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for language, body in re.findall(r"```(\w*)\n(.*?)```", text, flags=re.DOTALL):
            if language == "python":
                continue
            for line in body.splitlines():
                command = line.split("  #")[0].strip()
                if command.startswith(RUNS) and not line.startswith((" ", "#")):
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


def train_quick(tmp: Path, *extra: str) -> str:
    return shengji(
        "train", "--config", "configs/quick.yaml", *QUICK_SHORT, f"run_dir={tmp}", *extra
    )  # fmt: skip


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def demo(tmp: Path) -> str:
    """make demo's steps on their defaults, outputs in ``tmp``: the trained policy beats
    greedy with its interval above zero, all in under 10 CPU-minutes, then the next steps."""
    before = children_cpu_seconds()
    out = shengji("demo", "--seed", "7")
    shengji("train", "--config", "configs/quick.yaml", f"run_dir={tmp}", "run_name=demo")
    policy = f"ppo:{tmp / 'demo' / 'checkpoint.pt'}"
    out += shengji(
        "arena", "--agents", policy, "heuristic", "greedy", "random", "--deals", "400",
        "--jobs", "2",
        "--out", tmp / "demo.json",
    )  # fmt: skip
    out += arena("default", "heuristic", extra=("--start", "mid_match"))(tmp)
    out += shengji("demo", "--next-steps")
    cpu_minutes = (children_cpu_seconds() - before) / 60
    (versus_greedy,) = [
        pair["level_gain"]
        for pair in json.loads((tmp / "demo.json").read_text())["pairs"]
        if pair["a"] == policy and pair["b"] == "greedy"
    ]
    assert versus_greedy["low"] > 0, versus_greedy
    assert cpu_minutes < 10, f"{cpu_minutes:.1f} CPU-minutes"
    return out


def resume(tmp: Path, *extra: str) -> str:
    """A short run of the quick config, resumed (a resume writes into its run folder)."""
    train_quick(tmp, "run_name=quick")
    return shengji("train", "--resume", tmp / "quick" / "checkpoint.pt", *extra)


def budget3(tmp: Path) -> str:
    """The default bot's recipe in miniature (tests/train/test_dagger.py runs it further)."""
    return shengji(
        "train", "--config", "configs/standalone_budget3.yaml", "--max-rounds", "1",
        f"run_dir={tmp}", "card_width=8", "dagger_parts_per_round=1", "dagger_hands_per_part=1",
    )  # fmt: skip


def export(tmp: Path) -> str:
    return shengji("export", "models/standalone-v8", "--out", tmp / "standalone-v8")


def bot(tmp: Path) -> str:
    from shengji_env.frontends.protocol import request_for
    from shengji_env.rules import Game, RuleConfig

    export(tmp)
    game = Game(RuleConfig(), seed=1)
    request = json.dumps({**request_for(game, game.current_player), "id": 1})
    return shengji("bot", "--model", tmp / "standalone-v8", stdin=request + "\n")


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
    model = tmp / "standalone-v8"
    with background(tmp, "serve", "--model", model, "--port", "0") as (server, log):
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
        ["node", str(ROOT / "node" / "golden.mjs"), str(tmp / "standalone-v8")],
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


def ladder_run(tmp: Path) -> str:
    return shengji(
        "arena", "--agents", "heuristic", "greedy", "random", "--deals", "2", "--decks", "1",
        "--out", tmp / "arena.json", "--ladder", tmp / "ladder.jsonl",
    )  # fmt: skip


def ladder_show(tmp: Path) -> str:
    ladder_run(tmp)
    return shengji("ladder", tmp / "ladder.jsonl", "--markdown", tmp / "ladder.md",
                   "--plot", tmp / "ladder.png")  # fmt: skip


def botzone(tmp: Path) -> str:
    export(tmp)
    data = (ROOT / "tests" / "golden" / "botzone" / "play_follow_pair.json").read_text()
    model = tmp / "standalone-v8"
    return shengji("botzone", "--model", model, stdin=data.replace("\n", "") + "\n")


COMMANDS: dict[str, Short] = {
    "make demo": Short(demo, "Next:"),
    "make test": Short(None, why_not="this suite is what it runs"),
    ".venv/bin/shengji web": Short(web(), '"phase"'),
    ".venv/bin/shengji play --seed 3": Short(
        None, why_not="interactive: tests/agents/test_human.py plays it through its input"
    ),
    ".venv/bin/shengji train --config configs/quick.yaml": Short(train_quick, "run folder:"),
    ".venv/bin/shengji train --config configs/standalone_budget3.yaml": Short(
        budget3, "distillation round 1"
    ),
    ".venv/bin/shengji arena --agents default heuristic greedy --deals 500 --jobs 2": Short(
        arena("default", "heuristic", "greedy"), "Elo:"
    ),
    ".venv/bin/shengji arena --agents heuristic greedy random --deals 500 --jobs 2 --plot arena.png": Short(  # noqa: E501 — the page's line
        arena("heuristic", "greedy", "random"), "Elo:"
    ),
    ".venv/bin/shengji train --resume runs/quick/checkpoint.pt total_steps=2000000": Short(
        lambda tmp: resume(tmp, "total_steps=1600"), "PPO from update"
    ),
    ".venv/bin/shengji arena --agents ppo:runs/quick/checkpoint.pt greedy --deals 1000 --jobs 2": Short(  # noqa: E501 — the page's line
        lambda tmp: (
            train_quick(tmp, "run_name=quick")
            + arena(f"ppo:{tmp / 'quick' / 'checkpoint.pt'}", "greedy")(tmp)
        ),
        "Elo:",
    ),
    ".venv/bin/shengji train --resume runs/standalone_budget3/checkpoint.pt": Short(
        None, why_not="tests/train/test_shipped.py resumes the committed run of this recipe"
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
    ".venv/bin/shengji train --config configs/quick.yaml backend=ray ray_address=auto num_workers=32": Short(  # noqa: E501 — the page's line
        lambda tmp: train_quick(tmp, "backend=ray", "num_workers=1"), "run folder:"
    ),
    ".venv/bin/shengji arena --agents heuristic greedy --deals 2000 --backend ray --ray-address auto": Short(  # noqa: E501 — the page's line
        arena("heuristic", "greedy", extra=("--backend", "ray")), "Elo:"
    ),
    ".venv/bin/shengji export models/standalone-v8 --out exports/standalone-v8": Short(
        export, "exported:"
    ),
    ".venv/bin/shengji bot --model exports/standalone-v8": Short(bot, '"cards"'),
    ".venv/bin/shengji serve --model exports/standalone-v8 --port 8765": Short(serve, "serving on"),
    ".venv/bin/shengji play --opponents ppo:standalone-v7": Short(
        None, why_not="interactive: tests/agents/test_human.py plays it through its input"
    ),
    "node node/golden.mjs exports/standalone-v8": Short(node_golden, "golden: 4 of 4 within"),
    ".venv/bin/shengji web --opponents heuristic --seat 2 --port 8781": Short(
        web("--opponents", "heuristic", "--seat", "2"), '"seat":2'
    ),
    ".venv/bin/shengji arena --agents heuristic greedy --deals 100 --replays hands.jsonl": Short(
        replays, "results:"
    ),
    ".venv/bin/shengji replay hands.jsonl": Short(replay_show, "re-simulated"),
    ".venv/bin/shengji arena --agents heuristic greedy random --deals 200 --ladder ladder.jsonl": Short(  # noqa: E501 — the page's line
        ladder_run, "ladder:"
    ),
    ".venv/bin/shengji ladder ladder.jsonl --markdown ladder.md --plot ladder.png": Short(
        ladder_show, "random = 0"
    ),
    """.venv/bin/shengji arena --agents 'cmd:".venv/bin/shengji bot --agent heuristic"' heuristic --deals 20""": Short(  # noqa: E501 — the page's line
        arena(
            f'cmd:"{sys.executable} -m shengji_env.frontends.cli bot --agent heuristic"',
            "heuristic",
        ),
        "Elo:",
    ),
    ".venv/bin/shengji botzone --model exports/standalone-v8": Short(botzone, BOTZONE_KEEP),
}


def test_every_readme_command_has_an_entry():
    assert set(readme_commands()) == set(COMMANDS)


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_bytes()) <= 10_000


RUNNABLE = [command for command, short in COMMANDS.items() if short.run is not None]


@pytest.mark.slow
@pytest.mark.parametrize("command", RUNNABLE, ids=[f"cmd{i}" for i in range(len(RUNNABLE))])
def test_a_readme_command_runs_and_prints_what_it_says(command, tmp_path):
    short = COMMANDS[command]
    assert short.run is not None
    output = short.run(tmp_path)
    assert short.expect in output, output[-2000:]
