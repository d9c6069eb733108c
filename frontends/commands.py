"""The ``web``, ``replay`` and ``botzone`` commands of ``shengji`` (parsed in
:mod:`.cli`)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any

from rich.console import Console

from shengji_env.agents.base import Agent
from shengji_env.agents.shipped import DEFAULT_MODEL


def default_agent_spec() -> str:
    """``default`` (the shipped policy :data:`~shengji_env.agents.shipped.DEFAULT_MODEL`),
    or the heuristic with a notice on stderr where torch, which plays it, is not installed."""
    if importlib.util.find_spec("torch") is not None:
        return "default"
    Console(stderr=True).print(
        f"[yellow]note:[/yellow] the default bot ({DEFAULT_MODEL}) needs torch "
        "(pip install 'shengji-env[train]'); the heuristic plays instead"
    )
    return "heuristic"


NEXT_STEPS = """\
[bold]Next:[/bold]
  [cyan].venv/bin/shengji web[/cyan]
      play the default bot in your browser ([cyan]shengji play[/cyan]: in the terminal)
  [cyan].venv/bin/shengji arena --agents default YOUR_BOT --deals 1000 --jobs 2[/cyan]
      rate your own bot (any agent spec) against the default bot
  [cyan].venv/bin/shengji train --config configs/standalone_budget3.yaml[/cyan]
      train the default bot's recipe yourself (7.6 CPU-hours on 2 cores)
  [cyan].venv/bin/tensorboard --logdir runs[/cyan]
      the demo run's training curves
Docs: README.md, docs/ (browse them with .venv/bin/mkdocs serve)"""


def print_next_steps() -> None:
    """What ``make demo`` ends on: what the two arenas above it showed, and what to run next."""
    console = Console()
    console.print(
        "[bold green]Demo done.[/bold green] The first table rates the policy trained a "
        "minute ago (ppo:demo) against the rule bots. It is an advised policy: it reads the "
        "heuristic bot's next move and starts from it, so it beats greedy and random from "
        "the start; a minute of PPO does not yet move it off the heuristic's choices (level "
        "with the heuristic, +0.00: the same cards). The second table is the shipped default "
        "bot, "
        f"{DEFAULT_MODEL}, which reads the observation alone and was trained for 7.6 "
        "CPU-hours, against the heuristic. Level gain is levels a hand with its 95% "
        "interval over paired deals: an interval above zero is a resolved win."
    )
    console.print(NEXT_STEPS)


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
    from .serving import HEADER_SECONDS, KEEP_ALIVE_SECONDS, connection_cap, impatient_protocol

    uvicorn.run(  # silent, slow and too many connections are closed as `serve` closes them
        make_app(session),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=connection_cap(),
        http=impatient_protocol(HEADER_SECONDS),
    )
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


def ladder_command(args: argparse.Namespace) -> int:
    from rich.table import Table

    from shengji_env.agents.ladder import LadderError, markdown, rate, read_ladder

    console = Console()
    try:
        standings = rate(read_ladder(args.file), anchor=args.anchor)
    except LadderError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    for rules in sorted({s.rules for s in standings}):
        table = Table(title=f"Ladder: {rules} ({args.anchor} = 0, OpenSkill, 95% intervals)")
        for column in ("bot", "rating", "95% interval", "deals"):
            table.add_column(column, justify="left" if column == "bot" else "right")
        for s in (s for s in standings if s.rules == rules):
            interval = f"[{s.low:+.2f}, {s.high:+.2f}]"
            table.add_row(s.name, f"{s.rating:+.3f}", interval, str(s.deals))
        console.print(table)
    if args.markdown:
        args.markdown.write_text(markdown(standings, args.anchor), encoding="utf-8")
        console.print(f"page: {args.markdown}")
    if args.plot:
        plot_ladder(standings, args.plot)
        console.print(f"plot: {args.plot}")
    return 0


def plot_ladder(standings: Any, path: Any) -> None:
    """Each bot's rating with its interval, one panel a rules."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = sorted({s.rules for s in standings})
    figure, axes = plt.subplots(len(groups), 1, figsize=(7, 1 + 0.45 * len(standings)))
    for axis, rules in zip(figure.axes if len(groups) > 1 else [axes], groups, strict=True):
        rows = [s for s in standings if s.rules == rules][::-1]
        centre = [s.rating for s in rows]
        spread = [[s.rating - s.low for s in rows], [s.high - s.rating for s in rows]]
        axis.errorbar(centre, range(len(rows)), xerr=spread, fmt="o")
        axis.set_yticks(range(len(rows)), [s.name for s in rows])
        axis.axvline(0, color="grey", linewidth=0.5)
        axis.set_title(rules, fontsize=9)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def botzone_command(args: argparse.Namespace) -> int:
    from .botzone import serve_botzone
    from .serving import text_stdin

    console = Console(stderr=True)
    try:
        agent = _botzone_agent(args)
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    serve_botzone(agent, text_stdin(), sys.stdout, keep_running=not args.once)
    return 0


def _botzone_agent(args: argparse.Namespace) -> Agent:
    from shengji_env.agents import load_agent

    if args.model is not None and args.agent is not None:
        raise ValueError("give at most one of --model DIR or --agent SPEC")
    if args.model is not None:
        from shengji_env.agents.onnx_agent import OnnxAgent

        return OnnxAgent(str(args.model))
    return load_agent(args.agent or default_agent_spec())
