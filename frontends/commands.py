"""The ``web``, ``replay`` and ``botzone`` commands of ``shengji`` (parsed in
:mod:`.cli`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from shengji_env.agents.base import Agent

ROOT = Path(__file__).resolve().parent.parent
# The default bot of `shengji play`, `web` and `botzone`: the stand-alone policy of the
# 8-CPU-hour recipe, which beats the heuristic in hands as they come inside matches.
DEFAULT_POLICY = ROOT / "models" / "standalone-v8"


def default_agent_spec() -> str:
    """The default bot (models/standalone-v8) where this checkout has it, else the rule bot."""
    return f"ppo:{DEFAULT_POLICY}" if (DEFAULT_POLICY / "policy.pt").is_file() else "heuristic"


def web_command(args: argparse.Namespace) -> int:
    from .table import TableSession
    from .web import make_app

    console = Console(stderr=True)
    opponents = args.opponents or [default_agent_spec()]
    try:
        import uvicorn

        session = TableSession(opponents, seat=args.seat, decks=args.decks, seed=args.seed)
    except ImportError:
        console.print(
            "[red]error:[/red] the web table needs the serve extra: pip install -e '.[serve]'"
        )
        return 2
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    console.print(
        f"the table: http://127.0.0.1:{args.port}/ (you are seat {args.seat}; bots: "
        f"{', '.join(opponents)})"
    )
    uvicorn.run(make_app(session), host="127.0.0.1", port=args.port, log_level="warning")
    return 0


def replay_command(args: argparse.Namespace) -> int:
    from shengji_env.render import render_replay
    from shengji_env.replay import ReplayError, read_replay, resimulate

    console = Console()
    try:
        hands = read_replay(args.file)
        for events in hands:
            game = resimulate(events)
            console.print(render_replay(events), markup=False, highlight=False)
            same = "the same" if game.result is not None else "no"
            console.print(f"(re-simulated on the rules engine: {same} result)\n", style="dim")
    except ReplayError as error:
        console.print(f"[red]error:[/red] {args.file}: {error}")
        return 2
    return 0


def botzone_command(args: argparse.Namespace) -> int:
    from .botzone import serve_botzone

    console = Console(stderr=True)
    try:
        agent = _botzone_agent(args)
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    serve_botzone(agent, sys.stdin, sys.stdout, keep_running=not args.once)
    return 0


def _botzone_agent(args: argparse.Namespace) -> Agent:
    from shengji_env.agents import load_agent

    if args.model is not None and args.agent is not None:
        raise ValueError("give at most one of --model DIR or --agent SPEC")
    if args.model is not None:
        from shengji_env.agents.onnx_agent import OnnxAgent

        return OnnxAgent(str(args.model))
    return load_agent(args.agent or default_agent_spec())
