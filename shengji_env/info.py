"""Info dicts whose costly entries are made only when read (the core engine's ``infos``).

A bot that reads ``info["view"]`` pays for the view; a training loop that reads only the
observation and the mask pays nothing. Entries describe the step they were made at: read
them before the next ``step()``, as agents do. Reading one after the env moved on (the
engine's ``steps`` stamp changed) raises a ``RuntimeError`` rather than answer with
another step's state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .engines import Engine

DECISION_KEYS = ("view", "selection", "action_mask")
OVER_KEYS = ("view", "action_mask", "result")


class LazyInfo(dict):
    """``{"view", "selection", "action_mask"}`` of ``seat``'s decision (or ``{"view",
    "action_mask", "result"}`` once the hand is over), each made on first read."""

    __slots__ = ("_engine", "_keys", "_over", "_seat", "_stamp")

    def __init__(self, engine: Engine, seat: int, over: bool = False) -> None:
        super().__init__()
        self._engine, self._seat, self._over = engine, seat, over
        self._keys = OVER_KEYS if over else DECISION_KEYS
        self._stamp = engine.stamp()

    def _make(self, key: str) -> Any:
        engine = self._engine
        if engine.stamp() != self._stamp:
            raise RuntimeError(
                f"info[{key!r}] was read after the env moved on; read it before the next step()"
            )
        if key == "view":
            return engine.view(self._seat, None if self._over else engine.kind())
        if key == "selection":
            return engine.selection()
        if key == "result":
            return engine.result()
        return engine.mask()

    def __missing__(self, key: str) -> Any:
        if key not in self._keys:
            raise KeyError(key)
        value = self._make(key)
        self[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._keys or super().__contains__(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401 — dict.get skips __missing__

    def keys(self) -> list[str]:  # type: ignore[override]
        extra = [key for key in dict.keys(self) if key not in self._keys]
        return [*self._keys, *extra]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def items(self) -> list[tuple[str, Any]]:  # type: ignore[override]
        return [(key, self[key]) for key in self.keys()]

    def values(self) -> list[Any]:  # type: ignore[override]
        return [self[key] for key in self.keys()]

    def copy(self) -> dict[str, Any]:
        return dict(self.items())

    def __repr__(self) -> str:
        return f"LazyInfo(seat={self._seat}, keys={list(self.keys())})"
