"""A ladder that lasts: every arena run can add its deals to one file, and the ladder rates
every bot that ever played on it.

The file is JSON lines, append-only: one line a duplicate deal,
``{"rules": ..., "seed": ..., "a": ..., "b": ..., "deal": ..., "a_gain": ...}``. A deal is
known by its rules, seed, pair and number: a resumed run, or the same run twice, adds
nothing new, and a lock makes concurrent runs take turns (so no deal counts twice).

Ratings come from OpenSkill (the Plackett-Luce model, a well-kept library for rating
players of many-player and team games): each deal is a game between the two bots, won by
the one with the higher level gain over the duplicate pair, drawn when they are level. The
deals are rated in one fixed order (by rules, seed, pair, deal), so the same file gives the
same table. Ratings are shown relative to an anchor bot (``random`` = 0 by default), with
a 95% interval (±1.96σ), per rules (bots are rated only against bots that played the same
rules). A bot against itself on duplicate deals draws every deal, so a null run leaves the
two at exactly the same rating.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shengji_env.files import exclusive

from .arena import DealRecord

FIELDS = {"rules": str, "seed": int, "a": str, "b": str, "deal": int, "a_gain": (int, float)}
MAX_LINE = 64 * 1024


class LadderError(ValueError):
    """A ladder file that cannot be read; the message names the line and the field."""


@dataclass(frozen=True)
class Standing:
    """A bot's place on the ladder for one set of rules."""

    name: str
    rating: float
    low: float
    high: float
    deals: int
    rules: str


def rules_key(options: dict[str, Any]) -> str:
    """The arena options that change the game, as one stable string (``decks=2,...``)."""
    return ",".join(f"{key}={options[key]}" for key in sorted(options))


def deal_key(line: dict[str, Any]) -> tuple:
    return (line["rules"], line["seed"], line["a"], line["b"], line["deal"])


def ladder_lines(records: Iterable[DealRecord], options: dict[str, Any]) -> list[dict[str, Any]]:
    rules = rules_key(options)
    return [
        {"rules": rules, "seed": r.seed, "a": r.a, "b": r.b, "deal": r.deal, "a_gain": r.a_gain}
        for r in records
    ]


def add_to_ladder(path: Path, records: Sequence[DealRecord], options: dict[str, Any]) -> int:
    """Append the deals the ladder does not hold yet; returns how many were added."""
    path = Path(path)
    with exclusive(path.with_name(path.name + ".lock"), "", wait=True):
        known = {deal_key(line) for line in read_ladder(path)} if path.exists() else set()
        new = [line for line in ladder_lines(records, options) if deal_key(line) not in known]
        unique = {deal_key(line): line for line in new}
        with path.open("a", encoding="utf-8") as out:
            for line in unique.values():
                out.write(json.dumps(line) + "\n")
    return len(unique)


def read_ladder(path: Path) -> list[dict[str, Any]]:
    """The ladder's deals, each line checked (a line a program wrote is hostile until
    checked); a deal that is on it twice counts once.

    Raises:
        LadderError: the line and field that are wrong.
    """
    lines: dict[tuple, dict[str, Any]] = {}
    try:
        with Path(path).open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if len(raw) > MAX_LINE:
                    raise LadderError(f"{path}:{number}: a line over {MAX_LINE} bytes")
                if raw.strip():
                    line = _checked_line(raw, f"{path}:{number}")
                    lines.setdefault(deal_key(line), line)
    except OSError as error:
        raise LadderError(f"cannot read the ladder {path}: {error.strerror}") from None
    return list(lines.values())


def _checked_line(raw: bytes, where: str) -> dict[str, Any]:
    try:
        line = json.loads(raw)
    except (ValueError, RecursionError):
        raise LadderError(f"{where}: not a JSON line") from None
    if not isinstance(line, dict):
        raise LadderError(f"{where}: a line is a JSON object")
    for name, kind in FIELDS.items():
        value = line.get(name)
        if isinstance(value, bool) or not isinstance(value, kind):
            raise LadderError(f"{where}: field {name!r} is missing or of the wrong type")
    if not math.isfinite(line["a_gain"]) or abs(line["a_gain"]) > 100:
        raise LadderError(f"{where}: field 'a_gain' is not a level gain")
    return line


def rate(lines: Sequence[dict[str, Any]], anchor: str = "random") -> list[Standing]:
    """Every bot's standing, per rules, best first; ratings relative to ``anchor`` where it
    played those rules (else to the mean)."""
    from openskill.models import PlackettLuce

    standings: list[Standing] = []
    for rules in sorted({line["rules"] for line in lines}):
        model = PlackettLuce()
        ratings: dict[str, Any] = {}
        deals: dict[str, int] = {}
        for line in sorted((x for x in lines if x["rules"] == rules), key=deal_key):
            a, b = line["a"], line["b"]
            for name in (a, b):
                ratings.setdefault(name, model.rating(name=name))
                deals[name] = deals.get(name, 0) + 1
            gain = line["a_gain"]
            ranks = [0, 0] if gain == 0 else ([0, 1] if gain > 0 else [1, 0])
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        if anchor in ratings:
            zero = ratings[anchor].mu
        else:
            zero = sum(r.mu for r in ratings.values()) / len(ratings)
        for name, r in ratings.items():
            mu = r.mu - zero
            standings.append(
                Standing(name, mu, mu - 1.96 * r.sigma, mu + 1.96 * r.sigma, deals[name], rules)
            )
    return sorted(standings, key=lambda s: (s.rules, -s.rating, s.name))


def markdown(standings: Sequence[Standing], anchor: str) -> str:
    """The ladder as a Markdown page, one table per rules."""
    out = ["# Ladder", "", f"OpenSkill (Plackett-Luce) ratings, {anchor} = 0, 95% intervals.", ""]
    for rules in sorted({s.rules for s in standings}):
        out += [f"## {rules}", "", "| bot | rating | 95% interval | deals |", "|---|---|---|---|"]
        for s in (s for s in standings if s.rules == rules):
            interval = f"[{s.low:+.2f}, {s.high:+.2f}]"
            out.append(f"| `{s.name}` | {s.rating:+.3f} | {interval} | {s.deals} |")
        out.append("")
    return "\n".join(out)
