"""The ``shengji`` command line. Subcommands grow with the project."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from . import demo


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="shengji", description="Shengji (升级 / Tractor) tools")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="play a seeded hand with random legal moves and print it")
    args, rest = parser.parse_known_args(argv)
    if args.command == "demo":
        demo.main(rest)
