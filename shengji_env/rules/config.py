"""The rule configuration: every option of docs/rules.md as a named, documented field."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .cards import DECK_POINTS, RANKS, rank_index

TITANIC_FOLLOW_ORDERS = ("tractor_first", "triples_first")

# docs/rules.md §1 [decision]: hand size and kitty size per deck count.
_HAND_SIZES = {1: 12, 2: 25, 3: 39}
_KITTY_SIZES = {1: 6, 2: 8, 3: 6}


@dataclasses.dataclass(frozen=True)
class RuleConfig:
    """Rule options (docs/rules.md); the defaults are the rules' first-named choices.

    Raises:
        ValueError: on an invalid value, naming the field and the allowed values.
    """

    decks: int = 2
    """Number of 54-card decks: 1 (打百分), 2 (拖拉机, 80分) or 3 (泰坦尼克). §1."""

    twos_always_trump: bool = False
    """Every 2 is trump, ranked below the level cards (2为常主). §2, §2.1."""

    failed_throw_penalty: int = 0
    """Points per card taken back after a failed throw, against the thrower's team. §6.1."""

    kitty_multiplier_cap: int = 64
    """Largest kitty multiplier when the attackers win the last trick. §7."""

    titanic_follow_order: str = "tractor_first"
    """How a titanic lead is followed (3 decks): ``tractor_first`` (a tractor + two beats two
    triples, the traditional text) or ``triples_first`` (two triples first). §6.2."""

    start_level: str = "2"
    """Both teams' level at the start of a match, a rank ``"2"``..``"A"``. §2."""

    def __post_init__(self) -> None:
        for name in ("decks", "failed_throw_penalty", "kitty_multiplier_cap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an int, got {type(value).__name__} {value!r}")
        for name in ("titanic_follow_order", "start_level"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise ValueError(f"{name} must be a string, got {type(value).__name__} {value!r}")
        if self.decks not in _HAND_SIZES:
            raise ValueError(f"decks must be one of 1, 2, 3, got {self.decks!r}")
        if not isinstance(self.twos_always_trump, bool):
            raise ValueError(
                f"twos_always_trump must be True or False, got {self.twos_always_trump!r}"
            )
        if self.failed_throw_penalty < 0:
            raise ValueError(
                "failed_throw_penalty must be an int >= 0 (points per returned card), "
                f"got {self.failed_throw_penalty!r}"
            )
        cap = self.kitty_multiplier_cap
        if cap < 1 or cap & (cap - 1):
            raise ValueError(f"kitty_multiplier_cap must be a power of two >= 1, got {cap!r}")
        if self.titanic_follow_order not in TITANIC_FOLLOW_ORDERS:
            raise ValueError(
                f"titanic_follow_order must be one of {', '.join(TITANIC_FOLLOW_ORDERS)}, "
                f"got {self.titanic_follow_order!r}"
            )
        try:
            normalized = RANKS[rank_index(self.start_level)]
        except ValueError:
            raise ValueError(
                f"start_level must be a rank {', '.join(RANKS)}, got {self.start_level!r}"
            ) from None
        object.__setattr__(self, "start_level", normalized)

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> RuleConfig:
        """Build from a mapping, rejecting unknown keys with the list of known ones."""
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return cls(**options)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def hand_size(self) -> int:
        return _HAND_SIZES[self.decks]

    @property
    def kitty_size(self) -> int:
        return _KITTY_SIZES[self.decks]

    @property
    def band(self) -> int:
        """The scoring band B of §7: 20, 40, 60 points for 1, 2, 3 decks."""
        return 20 * self.decks

    @property
    def total_points(self) -> int:
        return DECK_POINTS * self.decks

    @property
    def start_level_index(self) -> int:
        return rank_index(self.start_level)
