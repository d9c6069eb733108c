"""The ``shengji`` command line: ``demo``, ``arena``, ``train``, ``export``, ``bot``,
``serve``, ``play``, ``web``, ``botzone``, ``replay`` and ``bench``; ``shengji COMMAND
--help`` lists each one's options."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from shengji_env import __version__, demo
from shengji_env.agents import load_agent
from shengji_env.agents.arena import ArenaResult, Interval, run_arena
from shengji_env.agents.shipped import DEFAULT_MODEL
from shengji_env.rules import RuleConfig

DEFAULT_BOT = f"default, the shipped policy {DEFAULT_MODEL}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="shengji",
        description="Shengji (升级 / Tractor) tools",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    defaults = {"formatter_class": argparse.ArgumentDefaultsHelpFormatter}
    sub.add_parser(
        "demo",
        **defaults,
        help="play a seeded hand with random legal moves and print it (--next-steps: what "
        "to run after make demo)",
        add_help=False,
    )
    arena = sub.add_parser(
        "arena", **defaults, help="benchmark agents against each other on duplicate deals"
    )
    arena.add_argument(
        "--agents", nargs="+", required=True, help="agent specs, e.g. heuristic greedy random"
    )
    arena.add_argument(
        "--deals", type=count(1), default=100, help="duplicate deals per pair of agents"
    )
    arena.add_argument("--jobs", type=count(1), default=1, help="worker processes")
    arena.add_argument("--decks", type=int, default=2, choices=(1, 2, 3))
    arena.add_argument(
        "--episode",
        choices=("hand", "match"),
        default="hand",
        help="a duplicate deal is one hand, or a whole match (the same deck sequence twice)",
    )
    arena.add_argument(
        "--start",
        choices=("match", "mid_match"),
        default="match",
        help="first hands (the first declarer deals) or hands as inside a match",
    )
    arena.add_argument(
        "--seed", type=count(0), default=0, help="seeds the deals (the same for every pair)"
    )
    arena.add_argument("--out", type=Path, default=Path("arena.json"), help="results (JSON)")
    arena.add_argument(
        "--resume", action="store_true", help="keep finished deals from OUT's .jsonl"
    )
    arena.add_argument("--plot", type=Path, help="also draw the level gains to this image")
    arena.add_argument(
        "--backend", choices=("local", "ray"), default="local", help="where deals run"
    )
    arena.add_argument(
        "--replays", type=Path, help="write every hand played here (replay JSON lines)"
    )
    arena.add_argument("--ray-address", default="", help="Ray cluster to join (default: local Ray)")
    arena.add_argument(
        "--ladder", type=Path, help="add the finished deals to this ladder (shengji ladder)"
    )
    bench = sub.add_parser(
        "bench", **defaults, help="run the speed benchmarks (engine, environment, batch)"
    )
    bench.add_argument("--hands", type=count(1), default=200, help="hands per measurement")
    export = sub.add_parser(
        "export", **defaults, help="export a checkpoint to ONNX with a manifest"
    )
    export.add_argument("checkpoint", type=Path, help="checkpoint.pt or a model folder")
    export.add_argument("--out", type=Path, required=True, help="folder for policy.onnx + manifest")
    for name, text in (
        ("bot", "answer JSON-line requests on stdin"),
        ("serve", "answer requests over HTTP"),
    ):
        command = sub.add_parser(name, **defaults, help=text)
        command.add_argument(
            "--model", type=Path, help="an exported policy folder (shengji export)"
        )
        command.add_argument("--agent", help="any agent spec instead of --model, e.g. heuristic")
        command.add_argument("--decks", type=int, default=2, choices=(1, 2, 3), help="with --agent")
        if name == "serve":
            command.add_argument("--host", default="127.0.0.1", help="bind address (localhost)")
            command.add_argument("--port", type=count(0, 65535), default=8765)
    play = sub.add_parser(
        "play", **defaults, help="play a hand in the terminal against bots or a policy"
    )
    play.add_argument("--seat", type=int, default=0, choices=range(4), help="your seat")
    play.add_argument("--partner", help=f"agent spec of your partner (default: {DEFAULT_BOT})")
    play.add_argument("--opponents", help=f"agent spec of both opponents (default: {DEFAULT_BOT})")
    play.add_argument("--decks", type=int, default=2, choices=(1, 2, 3))
    play.add_argument("--seed", type=count(0), help="the deal (random if omitted)")
    play.add_argument("--replay", type=Path, help="write the hand here (replay JSON lines)")
    web = sub.add_parser("web", **defaults, help="play in the browser with three bots (127.0.0.1)")
    web.add_argument(
        "--opponents",
        nargs="+",
        help=f"one agent spec for all bots, or three (default: {DEFAULT_BOT})",
    )
    web.add_argument("--port", type=count(1, 65535), default=8780)
    web.add_argument("--seat", type=int, default=0, choices=range(4), help="your seat")
    web.add_argument("--decks", type=int, default=2, choices=(1, 2, 3))
    web.add_argument("--seed", type=count(0), help="the match's deals (random if omitted)")
    ladder = sub.add_parser("ladder", **defaults, help="rate every bot on a ladder file")
    ladder.add_argument("file", type=Path, help="a ladder (arena --ladder)")
    ladder.add_argument("--anchor", default="random", help="the bot rated 0")
    ladder.add_argument("--markdown", type=Path, help="also write the table as a Markdown page")
    ladder.add_argument("--plot", type=Path, help="also draw the ratings to this image")
    replay = sub.add_parser("replay", **defaults, help="show a replay file trick by trick")
    replay.add_argument(
        "file", type=Path, help="replay JSON lines (arena --replays, play --replay)"
    )
    botzone = sub.add_parser(
        "botzone", **defaults, help="answer Botzone Tractor (双升) requests on stdin"
    )
    botzone.add_argument("--model", type=Path, help="an exported policy folder (shengji export)")
    botzone.add_argument("--agent", help=f"any agent spec (default: {DEFAULT_BOT})")
    botzone.add_argument(
        "--once", action="store_true", help="answer one request and exit (no long-running mode)"
    )
    training = sub.add_parser("train", **defaults, help="self-play PPO from a YAML config")
    training.add_argument("--config", type=Path, help="YAML config (configs/quick.yaml, …)")
    training.add_argument(
        "--resume",
        type=Path,
        help="continue from this checkpoint.pt, under its own config "
        "(a --config file or key=value settings change only the keys they name)",
    )
    training.add_argument(
        "--max-minutes",
        type=minutes,
        help="stop (after a checkpoint) by then, inside a distillation fit too",
    )
    training.add_argument(
        "--max-rounds",
        type=count(1),
        help="stop (after a checkpoint) when this call has done this many distillation rounds",
    )
    training.add_argument(
        "--until-update",
        type=count(1),
        help="stop (after a checkpoint) when the run reaches this PPO update, over all its calls",
    )
    training.add_argument(
        "--force",
        action="store_true",
        help="start a new run in a run folder that already holds one, replacing it",
    )
    training.add_argument("overrides", nargs="*", help="key=value settings over the config")
    args, rest = parser.parse_known_args(argv)
    if args.command == "demo":
        if rest == ["--next-steps"]:
            from shengji_env.frontends.commands import print_next_steps

            print_next_steps()
            return 0
        demo.main(rest)
        return 0
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "train":
        return train_command(args)
    if args.command == "bench":
        return bench_command(args)
    if args.command == "export":
        return export_command(args)
    if args.command in ("bot", "serve"):
        return serving_command(args)
    if args.command == "play":
        return play_command(args)
    if args.command in FRONT_ENDS:
        from shengji_env.frontends import commands

        return getattr(commands, FRONT_ENDS[args.command])(args)
    return arena_command(args)


FRONT_ENDS = {
    "web": "web_command",
    "replay": "replay_command",
    "botzone": "botzone_command",
    "ladder": "ladder_command",
}


def count(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low or (high is not None and value > high):
            bound = f"{low}..{high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"{value} is not {bound}")
        return value

    return parse


def minutes(text: str) -> float:
    """An argparse type: a positive number of minutes."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of minutes")
    return value


def bench_command(args: argparse.Namespace) -> int:
    """Run the engine, environment and (with the core built) batch speed benchmarks, from a
    source checkout."""
    import runpy

    from shengji_env.core import load_core

    folder = Path(__file__).resolve().parent.parent / "benchmarks"
    names = ["engine_speed.py", "env_speed.py"] + (["batch_speed.py"] if load_core() else [])
    scripts = [folder / name for name in names]
    if not all(script.is_file() for script in scripts):
        Console().print(f"[red]error:[/red] no benchmarks in {folder} (they ship with the source)")
        return 2
    for script in scripts:
        sys.argv = [str(script), "--hands", str(args.hands)]
        runpy.run_path(str(script), run_name="__main__")
    return 0


def export_command(args: argparse.Namespace) -> int:
    from shengji_env.train.export import export_policy

    source = args.checkpoint / "policy.pt" if args.checkpoint.is_dir() else args.checkpoint
    try:
        manifest = export_policy(source, args.out)
    except ValueError as error:
        Console().print(f"[red]error:[/red] {error}")
        return 2
    Console().print(f"exported: {manifest.parent / 'policy.onnx'} and {manifest}")
    return 0


def serving_agent(args: argparse.Namespace) -> tuple[Any, RuleConfig, dict[str, Any]]:
    """The agent a ``bot``/``serve`` command answers with, its rules and a description."""
    if (args.model is None) == (args.agent is None):
        raise ValueError("give exactly one of --model DIR or --agent SPEC")
    if args.model is not None:
        from shengji_env.agents.onnx_agent import OnnxAgent

        agent = OnnxAgent(str(args.model))
        rules = dict(agent.manifest["rule_config"])
        if rules.get("start_level") == "random":
            rules["start_level"] = "2"
        return agent, RuleConfig.from_dict(rules), {"model": agent.manifest["model"]}
    return load_agent(args.agent), RuleConfig(decks=args.decks), {"agent": args.agent}


def serving_command(args: argparse.Namespace) -> int:
    from shengji_env.frontends.serving import make_server, serve_lines, text_stdin

    console = Console(stderr=True)
    try:
        agent, config, info = serving_agent(args)
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    if args.command == "bot":
        serve_lines(agent, config, text_stdin(), sys.stdout)
        return 0
    try:
        server = make_server(agent, config, args.host, args.port, info)
    except OSError as error:
        console.print(f"[red]error:[/red] cannot listen on {args.host}:{args.port}: {error}")
        return 2
    except ValueError as error:  # the serve extra is not installed
        console.print(f"[red]error:[/red] {error}")
        return 2
    console.print(f"serving on http://{args.host}:{server.port} (POST /decide, GET /health)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def play_command(args: argparse.Namespace) -> int:
    from shengji_env.agents.human import play_game
    from shengji_env.env import raw_env
    from shengji_env.frontends.commands import default_agent_spec
    from shengji_env.replay import HandRecorder, write_replay

    console = Console()
    default = default_agent_spec()
    partner, opponents = args.partner or default, args.opponents or default
    try:
        env = raw_env(decks=args.decks, render_mode="ansi")
        specs = {seat: partner if seat % 2 == args.seat % 2 else opponents for seat in range(4)}
        bots = {
            f"player_{seat}": load_agent(spec) for seat, spec in specs.items() if seat != args.seat
        }
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    env.reset(seed=args.seed)
    names = [specs[seat] if seat != args.seat else "human" for seat in range(4)]
    recorder = HandRecorder(env.game, names) if args.replay else None
    try:
        result = play_game(
            env,
            f"player_{args.seat}",
            bots,
            input,
            print,
            None if recorder is None else recorder.step,
        )
    except (EOFError, KeyboardInterrupt):
        console.print("\nleft the table")
        return 130
    if recorder is not None:
        write_replay(args.replay, [recorder.events])
        console.print(f"replay: {args.replay}")
    mine = "dealer" if result.dealer % 2 == args.seat % 2 else "attackers"
    verdict = "you win" if result.winner == mine else "you lose"
    console.print(
        f"{verdict}: {result.winner} +{result.levels_gained}, attackers {result.attacker_points}"
    )
    return 0


def train_command(args: argparse.Namespace) -> int:
    from shengji_env.agents.policy_file import load_checkpoint
    from shengji_env.train.config import config_from_dict, config_overrides, load_config
    from shengji_env.train.ppo import train

    console = Console()
    try:
        seconds = None if args.max_minutes is None else 60 * args.max_minutes
        if args.resume is None:
            config = load_config(args.config, args.overrides)
            overrides = None
        else:  # the checkpoint's config, and only what the command line says over it
            overrides = config_overrides(args.config, args.overrides)
            config = config_from_dict({**load_checkpoint(args.resume)["config"], **overrides})
        run_dir = train(
            None if args.resume else config,
            resume=args.resume,
            max_seconds=seconds,
            max_rounds=args.max_rounds,
            until_update=args.until_update,
            on_update=report(console, config.ppo.total_steps),
            on_phase=lambda text: console.print(f"[bold]{text}[/bold]"),
            overrides=overrides,
            force=args.force,
        )
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    console.print(f"run folder: {run_dir} (checkpoint.pt, config.yaml, TensorBoard logs)")
    return 0


def report(console: Console, total: int) -> Callable[[int, int, dict[str, float]], None]:
    """A progress line per update: steps, speed, reward, any evaluation, and the time left
    at this call's pace."""
    started: list[tuple[float, int]] = []

    def show(update: int, step: int, stats: dict[str, float]) -> None:
        now = time.monotonic()
        if not started:
            started.append((now - update_seconds(stats), step - int(stats["charts/steps"])))
        since, first_step = started[0]
        pace = (step - first_step) / max(1e-9, now - since)
        left = max(0.0, total - step) / pace if pace > 0 else math.inf
        evals = "  ".join(f"{k[5:]} {v:+.2f}" for k, v in stats.items() if k.startswith("eval/"))
        console.print(
            f"update {update:4d}  step {step:>9,}/{total:,} ({step / total:4.0%})  "
            f"{stats['charts/SPS']:6.0f} steps/s  ETA {duration(left)}  "
            f"reward {stats['charts/mean_hand_reward']:+.2f}  "
            f"entropy {stats['losses/entropy']:.2f}  {evals}"
        )

    return show


def update_seconds(stats: dict[str, float]) -> float:
    """Seconds the update just reported took."""
    return stats["charts/steps"] / max(1e-9, stats["charts/SPS"])


def duration(seconds: float) -> str:
    if math.isinf(seconds):
        return "?"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def arena_command(args: argparse.Namespace) -> int:
    console = Console()
    pairs = len(args.agents) * (len(args.agents) - 1) // 2
    records_path = args.out.with_suffix(".jsonl")
    columns = (
        *Progress.get_default_columns()[:1],
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("duplicate deals", total=args.deals * pairs)
            result = run_arena(
                args.agents,
                args.deals,
                options={
                    "decks": args.decks,
                    **({"start": args.start} if args.start != "match" else {}),
                    **({"episode": args.episode} if args.episode != "hand" else {}),
                },
                seed=args.seed,
                jobs=args.jobs,
                records_path=records_path,
                resume=args.resume,
                on_record=lambda _: progress.advance(task),
                backend=args.backend,
                ray_address=args.ray_address,
                replay_path=args.replays,
            )
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    console.print(results_table(result))
    console.print(behaviour_table(result))
    for name, kinds in result.faults().items():
        counted = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        console.print(f"faults of {name} (each answered by the substitute play): {counted}")
    args.out.write_text(json.dumps(result.to_json(), indent=1), encoding="utf-8")
    console.print(f"results: {args.out} (deals as they finished: {records_path})")
    if args.ladder:
        from shengji_env.agents.ladder import add_to_ladder

        added = add_to_ladder(args.ladder, result.records, result.options)
        console.print(f"ladder: {args.ladder} (+{added} deals; shengji ladder {args.ladder})")
    if args.plot:
        plot_result(result, args.plot)
        console.print(f"plot: {args.plot}")
    if result.interrupted:
        console.print(
            f"[yellow]interrupted[/yellow]: {len(result.records)} deals kept; --resume continues"
        )
        return 130
    return 0


def results_table(result: ArenaResult) -> Table:
    unit = "matches (gain: ±1 a match)" if result.options.get("episode") == "match" else "deals"
    table = Table(title=f"Arena: {len(result.records)} duplicate {unit}, seed {result.seed}")
    for column in (
        "A",
        "B",
        "deals",
        "A level gain / hand",
        "A hand wins",
        "A paired wins",
        "A att. pts",
        "B att. pts",
    ):
        table.add_column(column)
    for pair in result.pairs():
        table.add_row(
            pair.a,
            pair.b,
            str(pair.deals),
            str(pair.level_gain),
            percent(pair.hand_win_rate),
            "-" if math.isnan(pair.paired_win_share) else f"{pair.paired_win_share:.1%}",
            f"{pair.a_attack_points.mean:.1f}",
            f"{pair.b_attack_points.mean:.1f}",
        )
    ratings = sorted(result.elo().items(), key=lambda item: -item[1].mean)
    table.caption = "Elo: " + "  ".join(elo_text(name, rating) for name, rating in ratings)
    return table


def behaviour_table(result: ArenaResult) -> Table:
    """What each agent did besides scoring: an exploit shows here at a glance."""
    table = Table(title="Behaviour per agent (all its hands)")
    for column in ("agent", "hands", "declared", "dealt", "bury pts", "throws/hand", "failed"):
        table.add_column(column)
    for name, seen in result.behaviour().items():
        table.add_row(
            name,
            str(seen.hands),
            share(seen.declaration_rate),
            share(seen.dealt_share),
            "-" if math.isnan(seen.bury_points) else f"{seen.bury_points:.1f}",
            "-" if math.isnan(seen.throws_per_hand) else f"{seen.throws_per_hand:.2f}",
            share(seen.failed_throw_share),
        )
    return table


def share(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0%}"


def elo_text(name: str, rating: Interval) -> str:
    """An Elo rating with its 95% interval; a degenerate one (every resample the same,
    as when one agent wins every paired deal) is said to be so rather than printed."""
    if rating.high - rating.low < 1:
        return f"{name} {rating.mean:.0f} (no interval: every resample gives it)"
    return f"{name} {rating.mean:.0f} [{rating.low:.0f}, {rating.high:.0f}]"


def percent(interval: Interval) -> str:
    if math.isnan(interval.mean):
        return "-"
    return f"{interval.mean:.1%} [{max(0.0, interval.low):.0%}, {min(1.0, interval.high):.0%}]"


def short_name(spec: str) -> str:
    """``ppo:runs/demo/checkpoint.pt`` -> ``ppo:demo``: labels that fit under a bar."""
    name, _, rest = spec.partition(":")
    if not rest or "=" in rest.split(",")[0]:
        return spec
    path = Path(rest.split(",")[0])
    return f"{name}:{path.parent.name if path.suffix else path.name}"


def plot_result(result: ArenaResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pairs = result.pairs()
    labels = [f"{short_name(p.a)}\nvs {short_name(p.b)}" for p in pairs]
    means = [p.level_gain.mean for p in pairs]
    errors = [p.level_gain.mean - p.level_gain.low for p in pairs]
    figure, axis = plt.subplots(figsize=(max(4, 1.6 * len(pairs)), 3.5))
    axis.bar(labels, means, yerr=errors, capsize=4, color="tab:blue")
    axis.axhline(0, color="black", linewidth=0.8)
    axis.set_ylabel("A's mean level gain per hand (95% CI)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


if __name__ == "__main__":
    raise SystemExit(main())
