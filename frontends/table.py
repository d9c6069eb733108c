"""A person's seat at a table of three bots, for the web page (:mod:`shengji_env.frontends.web`).

:class:`TableSession` plays a whole match: the bots act until the person is to decide;
the person builds a selection card by card (legal cards come from the env's exact mask,
extended by the cards picked so far), then plays it. Every finished hand is kept as
replay events. :func:`seat_state` is all the page ever receives: made from the person's
:class:`~shengji_env.view.SeatView`, their decision and the public results, so nothing
hidden from the seat can reach the page.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shengji_env.actions import COMMIT, Decision
from shengji_env.agents import load_agent
from shengji_env.agents.base import Agent
from shengji_env.env import raw_env
from shengji_env.replay import HandRecorder
from shengji_env.rules import HandResult, TrickRecord, TrumpContext, format_card
from shengji_env.rules.cards import RANKS, SUITS, is_joker, suit_of
from shengji_env.view import SeatView, seat_view

HUMAN = "you"


class TableError(ValueError):
    """An action the person cannot take now; the message says why (the rule it breaks)."""


@dataclass
class Pending:
    """The person's selection so far, not yet played."""

    cards: list[int] = field(default_factory=list)

    def trial(self, decision: Decision) -> Decision:
        trial = decision.clone()
        for card in self.cards:
            trial.add(card)
        return trial


class TableSession:
    """One match: the person in ``seat``, bots (agent specs) in the other three."""

    def __init__(
        self,
        opponents: Sequence[str],
        seat: int = 0,
        decks: int = 2,
        seed: int | None = None,
    ) -> None:
        if len(opponents) not in (1, 3):
            raise ValueError("give one agent spec for all three bots, or one per other seat")
        specs = list(opponents) * (3 if len(opponents) == 1 else 1)
        others = [s for s in range(4) if s != seat]
        self.names = [HUMAN if s == seat else specs[others.index(s)] for s in range(4)]
        self.bots: dict[int, Agent] = {s: load_agent(self.names[s], seed=s) for s in others}
        self.seat, self.decks = seat, decks
        self.lock = threading.Lock()
        self.new_match(seed)

    # --- the match -------------------------------------------------------------------

    def new_match(self, seed: int | None = None) -> None:
        self.seed = random.randrange(2**31) if seed is None else seed
        self.env = raw_env(decks=self.decks, episode="match")
        self.env.reset(seed=self.seed)
        for bot in self.bots.values():
            reset = getattr(bot, "reset", None)
            if reset is not None:
                reset()
        self.pending = Pending()
        self.hands: list[list[dict[str, Any]]] = []  # finished hands' replay events
        self.recorder = HandRecorder(self.env.game, self.names)
        self.shown_result: HandResult | None = None  # a finished hand the person has not closed
        self.shown_view: SeatView | None = None  # the person's view at that hand's end
        self.message = ""
        self._run_bots()

    def _run_bots(self) -> None:
        """Let the bots act until the person decides, a hand ends or the match is over."""
        env = self.env
        while self.shown_result is None and not self.match_over:
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            if seat == self.seat:
                return
            observation, _, _, _, info = env.last()
            self._step(self.bots[seat].act(observation, info))

    def _step(self, action: int) -> None:
        self.recorder.step(action)
        self.env.step(action)
        if self.recorder.finished:
            self.hands.append(self.recorder.events)
            self.shown_result = self.env.game.results[-1]
            self.shown_view = seat_view(self.recorder.engine.game(), self.seat)
            if not self.match_over:
                self.recorder = HandRecorder(self.env.game, self.names)

    @property
    def match_over(self) -> bool:
        return self.env.game.match_winner is not None

    @property
    def deciding(self) -> bool:
        return (
            self.shown_result is None
            and not self.match_over
            and self.env.agent_selection == self.env.possible_agents[self.seat]
        )

    # --- the person's actions --------------------------------------------------------

    def select(self, card: int) -> None:
        decision = self._decision()
        trial = self.pending.trial(decision)
        if not trial.allows(card) or card == COMMIT:
            raise TableError(trial.why_illegal(card))
        if trial.only_commit:
            raise TableError("the selection is complete: play it or take a card back")
        self.pending.cards.append(card)

    def unselect(self, card: int) -> None:
        self._decision()
        if card not in self.pending.cards:
            raise TableError("that card is not selected")
        cards = self.pending.cards
        del cards[len(cards) - 1 - cards[::-1].index(card)]  # the last copy picked

    def clear(self) -> None:
        self._decision()
        self.pending = Pending()

    def play(self) -> None:
        """Play the selection (an empty one passes a declaration)."""
        decision = self._decision()
        trial = self.pending.trial(decision)
        if not trial.only_commit and not trial.allows(COMMIT):
            raise TableError(trial.why_illegal(COMMIT))
        actions = [*self.pending.cards] + ([] if trial.only_commit else [COMMIT])
        self.pending = Pending()
        for action in actions:
            self._step(action)
        self._run_bots()

    def next_hand(self) -> None:
        if self.shown_result is None:
            raise TableError("the hand is not over")
        self.shown_result = None
        if not self.match_over:
            self._run_bots()

    def _decision(self) -> Decision:
        if not self.deciding:
            raise TableError("it is not your turn")
        decision = self.env.decision
        assert decision is not None
        return decision

    # --- what the page sees ----------------------------------------------------------

    def state(self) -> dict[str, Any]:
        game = self.env.game
        decision = self.env.decision if self.deciding else None
        kind = decision.kind if decision is not None else None
        view = seat_view(game, self.seat, kind)
        if self.shown_result is not None and self.shown_view is not None:
            view = self.shown_view
        trial = self.pending.trial(decision) if decision is not None else None
        state = seat_state(view, trial, self.shown_result)
        state.update(
            seats=self.names,
            hands_played=len(self.hands),
            match_over=self.match_over,
            match_winner=game.match_winner,
            message=self.message,
        )
        return state


def seat_state(view: SeatView, trial: Decision | None, result: HandResult | None) -> dict[str, Any]:
    """The page's picture of the table from ``view``'s seat: ``trial`` is the person's
    decision with their selection so far (``None`` when they are not to act), ``result``
    a finished hand to show."""
    ctx = view.ctx
    legal: list[int] = []
    if trial is not None and not trial.only_commit:
        legal = [card for card in set(view.hand) if trial.allows(card)]
    selected = list(trial.selection) if trial is not None else []
    return {
        "seat": view.seat,
        "phase": phase_name(trial, result),
        "hand": cards_json(sorted_hand(view.hand, ctx)),
        "legal": sorted(legal),
        "selected": cards_json(selected),
        "can_play": trial is not None and (trial.only_commit or trial.allows(COMMIT)),
        "level": RANKS[view.level],
        "levels": [RANKS[level] for level in view.levels],
        "dealer": view.dealer,
        "trump": trump_name(view),
        "bids": [{"seat": bid.seat, "cards": cards_json(bid.cards)} for bid in view.bids],
        "trick": trick_json(view.trick_leader, view.trick, None),
        "last_trick": last_trick_json(view),
        "tricks_played": len(view.tricks),
        "points": view.attacker_points - view.penalty_points,
        "kitty": cards_json(sorted_hand(view.kitty, ctx)),
        "revealed": [cards_json(cards) for cards in view.revealed],
        "result": None if result is None else result_json(result),
    }


def phase_name(trial: Decision | None, result: HandResult | None) -> str:
    if result is not None:
        return "hand_over"
    if trial is None:
        return "waiting"
    return trial.kind.value


def trump_name(view: SeatView) -> str | None:
    if view.ctx is not None:
        return "none" if view.ctx.trump_suit is None else SUITS[view.ctx.trump_suit]
    if view.bid is not None:
        return "none" if view.bid.trump_suit is None else SUITS[view.bid.trump_suit]
    return None


def sorted_hand(cards: Sequence[int], ctx: TrumpContext | None) -> list[int]:
    """High to low in trump order once trump is set; by suit and rank before."""
    if ctx is not None:
        return sorted(cards, key=ctx.sort_key, reverse=True)
    return sorted(cards, key=lambda card: (is_joker(card), -suit_of(card), card), reverse=True)


def cards_json(cards: Sequence[int]) -> list[dict[str, Any]]:
    return [
        {
            "id": card,
            "text": format_card(card),
            "label": format_card(card, symbols=True),
            "red": card_is_red(card),
        }
        for card in cards
    ]


def card_is_red(card: int) -> bool:
    return card == 53 or (not is_joker(card) and suit_of(card) in (1, 2))


def trick_json(
    leader: int, plays: Sequence[Sequence[int]], attempt: Sequence[int] | None
) -> dict[str, Any]:
    return {
        "leader": leader,
        "plays": [
            {"seat": (leader + index) % 4, "cards": cards_json(play)}
            for index, play in enumerate(plays)
        ],
        "attempt": None if attempt is None else cards_json(attempt),
    }


def last_trick_json(view: SeatView) -> dict[str, Any] | None:
    return record_json(view.tricks[-1]) if view.tricks else None


def record_json(record: TrickRecord) -> dict[str, Any]:
    """A finished trick: its plays by seat, a failed throw's attempt, winner and points."""
    data = trick_json(record.leader, record.plays, record.attempt)
    data.update(winner=record.winner, points=record.points)
    return data


def result_json(result: HandResult) -> dict[str, Any]:
    return dataclasses.asdict(result)
