"""Scoring a hand and moving to the next one (docs/rules.md §7, §8)."""

from __future__ import annotations

from collections.abc import Sequence

from .config import RuleConfig
from .patterns import decompose
from .trump import TrumpContext

ACE = 12
"""Rank index of the ace, the last level (§2)."""


def kitty_multiplier(lead: Sequence[int], ctx: TrumpContext) -> int:
    """``2**k`` for the last trick's shape, capped at ``kitty_multiplier_cap`` (§7).

    ``k`` is the number of cards in the largest component of the trick's shape:
    the lead as actually played, which a winning play matches (for a throw only
    its largest component counts).
    """
    largest = max(component.size for component in decompose(lead, ctx))
    return min(2**largest, ctx.config.kitty_multiplier_cap)


def level_change(attacker_points: int, config: RuleConfig) -> tuple[str, int]:
    """Which team goes up and by how many levels, from the attackers' total (§7).

    Returns ``("dealer", 3|2|1)`` when the dealer's team keeps the deal, or
    ``("attackers", n)`` when the attackers take over and go up ``n`` levels.
    """
    band = config.band
    if attacker_points <= 0:
        return ("dealer", 3)
    if attacker_points < band:
        return ("dealer", 2)
    if attacker_points < 2 * band:
        return ("dealer", 1)
    return ("attackers", (attacker_points - 2 * band) // band)


def next_dealer(dealer: int, dealer_team_kept: bool) -> int:
    """Dealer's partner if the dealer's team kept the deal, else the dealer's next player (§8)."""
    return (dealer + 2) % 4 if dealer_team_kept else (dealer + 1) % 4


def raise_level(level: int, gain: int) -> tuple[int, bool]:
    """The new level after ``gain`` levels, capped at A, and whether it passed A (§8)."""
    new_level = level + gain
    return (min(new_level, ACE), new_level > ACE)
