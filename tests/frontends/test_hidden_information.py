"""No hidden information reaches the page or the terminal: at every decision of the
person's seat, the cards that seat has not seen are reshuffled among the other hands
(and the kitty) and the page's state and the terminal text must not change."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from shengji_env.actions import Decision, DecisionKind
from shengji_env.agents import load_agent
from shengji_env.frontends.table import Pending, TableSession, seat_state
from shengji_env.information import resample
from shengji_env.render import render_seat
from shengji_env.rules import Game, Phase
from shengji_env.view import SeatView, seat_view
from tests.frontends.player import play_decision


def reshuffled_deal(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` (bidding or bury) with the cards ``seat`` has not seen dealt anew: the other
    hands' cards (but those their declarations showed) and the cards still to be dealt."""
    other = game.clone()
    shown = [Counter() for _ in range(4)]
    for bid in game.bids:
        shown[bid.seat] |= Counter(bid.cards)
    pool, free = [], {}
    for s in range(4):
        if s == seat:
            continue
        free_cards = list((Counter(game.hands[s]) - shown[s]).elements())
        free[s] = len(free_cards)
        pool += free_cards
        other.hands[s] = sorted((Counter(game.hands[s]) - Counter(free_cards)).elements())
    undealt = game.deck[game.dealt :] if game.phase is Phase.BID else []
    pool += undealt
    rng.shuffle(pool)
    for s, count in free.items():
        other.hands[s] = sorted(other.hands[s] + pool[:count])
        pool = pool[count:]
    other.deck = game.deck[: game.dealt] + pool
    other.bid_cards = [[c for c in hand if c in other.bid_types] for hand in other.hands]
    return other


def reshuffled(game: Game, view: SeatView, rng: random.Random) -> Game:
    if view.kind in (DecisionKind.LEAD, DecisionKind.FOLLOW):
        return resample(view, rng)
    return reshuffled_deal(game, view.seat, rng)


def reshuffled_state(session: TableSession, rng: random.Random) -> dict:
    """The page's state computed from a game whose unseen cards are reshuffled."""
    game = session.env.game
    other = reshuffled(game, seat_view(game, session.seat, session.env.decision.kind), rng)
    trial = Pending(list(session.pending.cards)).trial(Decision(other))
    state = seat_state(seat_view(other, session.seat, trial.kind), trial, None)
    state.update({key: value for key, value in session.state().items() if key not in state})
    return state


@pytest.mark.parametrize("decks,seed", [(1, 4), (2, 2), (3, 9)])
def test_the_page_state_does_not_change_when_unseen_cards_move(decks, seed):
    session = TableSession(["heuristic"], seat=1, decks=decks, seed=seed)
    rng = random.Random(seed)
    tried: dict[str, bool] = {}
    checks = []

    def compare(session: TableSession) -> None:
        for _ in range(2):
            assert json.dumps(reshuffled_state(session, rng), sort_keys=True) == json.dumps(
                session.state(), sort_keys=True
            )
            checks.append(1)

    while session.shown_result is None:
        play_decision(session, tried, compare)
    assert len(checks) >= 20


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_terminal_text_does_not_change_when_unseen_cards_move(seed):
    from shengji_env.env import raw_env

    env = raw_env(decks=2)
    env.reset(seed=seed)
    bot = load_agent("heuristic")
    rng = random.Random(seed)
    kinds = Counter()
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if agent == "player_3" and not env.decision.selection:
            view = info["view"]
            text = render_seat(view)
            other = reshuffled(env.game, view, rng)
            assert render_seat(seat_view(other, 3, view.kind)) == text
            assert text.count("Your hand") == 1 and "seat 0:" not in text.split("\n")[1]
            kinds[view.kind] += 1
        env.step(bot.act(observation, info))
    assert kinds[DecisionKind.LEAD] + kinds[DecisionKind.FOLLOW] >= 12
