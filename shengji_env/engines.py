"""The two engines an environment runs on, behind one small interface.

:class:`CoreEngine` runs on the compiled core (``shengji_env._core``, the default where it
is built); :class:`PythonEngine` on the reference engine (:mod:`shengji_env.rules`), the
readable specification. Both answer the same questions the same way — the differential
tests in ``tests/core`` check that bit for bit — so the env above them does not know which
one it has. A step answers one of the :data:`ILLEGAL`, :data:`SELECTED`, :data:`COMMITTED`,
:data:`OVER` codes.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from .actions import COMMIT, NUM_ACTIONS, Decision, DecisionKind
from .core import default_engine, require_core, rule_arguments, state_of, to_game
from .encoding import ObservationEncoder
from .rules import Game, HandResult, Phase, RuleConfig
from .view import SeatView, seat_view

ILLEGAL, SELECTED, COMMITTED, OVER = -1, 0, 1, 2
KINDS = (DecisionKind.BID, DecisionKind.BURY, DecisionKind.LEAD, DecisionKind.FOLLOW)


class Engine(Protocol):
    """What the environment asks of an engine."""

    name: str

    def reset(self, config: RuleConfig, seed: int) -> None: ...
    def start(self, game: Game) -> None: ...  # carry on from ``game`` (not changed)
    def stamp(self) -> int: ...  # changes at every reset and accepted action
    def step(self, action: int) -> int: ...
    def seat(self) -> int: ...
    def why_illegal(self, action: int) -> str: ...
    def observation(self, seat: int) -> np.ndarray: ...
    def mask(self) -> np.ndarray: ...
    def mask_of(self, seat: int) -> np.ndarray: ...
    def allows(self, action: int) -> bool: ...
    def selection(self) -> tuple[int, ...]: ...
    def kind(self) -> DecisionKind: ...
    def team_rewards(self) -> tuple[float, float] | None: ...
    def game(self) -> Game: ...
    def decision(self) -> Decision | None: ...
    def view(self, seat: int, kind: DecisionKind | None) -> SeatView: ...
    def result(self) -> HandResult | None: ...


class PythonEngine:
    """The reference engine: :class:`Game`, :class:`Decision` and the incremental encoder."""

    name = "python"

    def __init__(self, config: RuleConfig, match: bool) -> None:
        self.match = match
        self.encoder = ObservationEncoder(config)  # remade for each game
        self._game: Game | None = None
        self._decision: Decision | None = None
        self.serial = 0  # bumped at every reset and commit: the game changed
        self.steps = 0  # bumped at every reset and accepted action
        self._views: dict = {}

    def reset(self, config: RuleConfig, seed: int) -> None:
        self._begin(Game(config, seed=seed))

    def start(self, game: Game) -> None:
        self._begin(game.clone())

    def _begin(self, game: Game) -> None:
        self._game = game
        self.encoder = ObservationEncoder(game.config)
        self.serial += 1
        self.steps += 1
        live = game.phase in (Phase.BID, Phase.BURY, Phase.PLAY)
        self._decision = Decision(game) if live else None

    def stamp(self) -> int:
        return self.steps

    def step(self, action: int) -> int:
        decision, game = self._decision, self.game()
        if decision is None or not decision.allows(action):
            return ILLEGAL
        self.steps += 1
        if action != COMMIT:
            decision.add(action)
            if not decision.only_commit:
                return SELECTED
        game.step(decision.selection, trusted=True)  # the mask is exact: no second check
        self.serial += 1
        if game.phase is Phase.HAND_OVER and self.match:
            game.next_hand()
        if game.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
            self._decision = None
            return OVER
        self._decision = Decision(game)
        return COMMITTED

    def seat(self) -> int:
        return self.game().current_player

    def why_illegal(self, action: int) -> str:
        return self._decision.why_illegal(action) if self._decision else "the episode is over"

    def observation(self, seat: int) -> np.ndarray:
        return self.encoder.encode(self.game(), seat, self._decision, self.serial)

    def mask(self) -> np.ndarray:
        return self._decision.mask if self._decision else np.zeros(NUM_ACTIONS, np.int8)

    def mask_of(self, seat: int) -> np.ndarray:
        decision = self._decision
        if decision is None or decision.seat != seat:
            return np.zeros(NUM_ACTIONS, np.int8)
        return decision.mask

    def allows(self, action: int) -> bool:
        return self._decision is not None and self._decision.allows(action)

    def selection(self) -> tuple[int, ...]:
        return tuple(self._decision.selection) if self._decision else ()

    def kind(self) -> DecisionKind:
        assert self._decision is not None
        return self._decision.kind

    def team_rewards(self) -> tuple[float, float] | None:
        return None  # the env computes them from the result

    def game(self) -> Game:
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def decision(self) -> Decision | None:
        return self._decision

    def view(self, seat: int, kind: DecisionKind | None) -> SeatView:
        return _cached_view(self._views, self.serial, self.game(), seat, kind)

    def result(self) -> HandResult | None:
        return self.game().result


def _cached_view(
    views: dict, serial: int, game: Game, seat: int, kind: DecisionKind | None
) -> SeatView:
    """One :class:`SeatView` object per game state and seat (planning bots keep their plan
    for the view object they planned it for); ``views`` keeps the current state's only."""
    key = (serial, seat, kind)
    view = views.get(key)
    if view is None:
        if views and next(iter(views))[0] != serial:
            views.clear()
        view = views[key] = seat_view(game, seat, kind)
    return view


class CoreEngine:
    """The compiled core. The hot calls (``step``, ``observation``, ``mask_of``, ``allows``,
    ``seat``) are the core table's own methods, bound once: no Python frame per step. The
    reference objects that bots and renderers read (``game()``, ``decision()``, ``view()``)
    are made from the core's state when asked, once per state."""

    name = "core"

    def __init__(self, config: RuleConfig, match: bool, points: bool) -> None:
        core = require_core()
        self.table = table = core.Table(**rule_arguments(config), match=match, points=points)
        self.config = config
        self.step = table.step
        self.observation = table.observation
        self.mask_of = table.mask_of
        self.allows = table.allows
        self.seat = table.acting
        self.stamp = table.stamp
        self._started = False
        self._game: tuple[int, Game] | None = None
        self._decision: tuple[int, Decision | None] | None = None
        self._views: dict = {}

    def reset(self, config: RuleConfig, seed: int) -> None:
        self.config = config
        self.table.reset(seed, config.start_level_index)
        self._started = True

    def start(self, game: Game) -> None:
        self.config = game.config
        self.table.load(state_of(game))
        self._started = True

    def why_illegal(self, action: int) -> str:
        return "the episode is over" if self.table.over else self.table.why_illegal(action)

    def mask(self) -> np.ndarray:
        out = np.empty(NUM_ACTIONS, np.int8)
        self.table.mask(out)
        return out

    def selection(self) -> tuple[int, ...]:
        return tuple(self.table.selection)

    def kind(self) -> DecisionKind:
        return KINDS[self.table.kind]

    def team_rewards(self) -> tuple[float, float] | None:
        return self.table.team_rewards if self.table.over else None

    def bot_play(self, policy: int) -> list[int]:
        """The decision the core's rule bot ``policy`` makes now: the heuristic's (0) bid,
        bury, lead or follow, the greedy bot's (1) lead or follow — what the Python bot's
        ``decide`` makes on this decision's view."""
        return self.table.own_bot_play(policy)

    def game(self) -> Game:
        if not self._started:
            raise RuntimeError("call reset() before using the environment")
        serial = self.table.serial
        if self._game is None or self._game[0] != serial:
            self._game = (serial, to_game(self.table.export(), self.config))
        return self._game[1]

    def decision(self) -> Decision | None:
        steps = self.table.steps
        if self._decision is None or self._decision[0] != steps:
            decision = None
            if not self.table.over:
                decision = Decision(self.game())
                for card in self.table.selection:
                    decision.add(card)
            self._decision = (steps, decision)
        return self._decision[1]

    def view(self, seat: int, kind: DecisionKind | None) -> SeatView:
        return _cached_view(self._views, self.table.serial, self.game(), seat, kind)

    def result(self) -> HandResult | None:
        return self.game().result


def make_engine(
    config: RuleConfig, engine: str | None = None, match: bool = False, points: bool = False
) -> Engine:
    """An engine for ``config``: ``engine`` ``"core"`` or ``"python"``, default
    :func:`~shengji_env.core.default_engine`."""
    name = engine or default_engine()
    if name == "core":
        return CoreEngine(config, match, points)
    return PythonEngine(config, match)
