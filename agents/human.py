"""A person at the table: ``shengji play`` shows the person their own seat's view only
(:func:`shengji_env.render.render_seat`), reads decisions typed as cards (``10H 10H``,
``pass``) and checks them against the exact mask before anything is played."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shengji_env.actions import COMMIT, Decision, DecisionKind
from shengji_env.render import render_seat
from shengji_env.rules import parse_cards
from shengji_env.view import seat_view

PROMPTS = {
    DecisionKind.BID: "declare (cards) or 'pass'",
    DecisionKind.BURY: "bury {kitty} cards",
    DecisionKind.LEAD: "lead (one suit; several combinations make a throw)",
    DecisionKind.FOLLOW: "follow with {size} card(s)",
}


def typed_actions(text: str, decision: Decision) -> list[int]:
    """The actions that play ``text`` in this decision; ``ValueError`` says why not."""
    words = text.strip()
    if words.lower() in ("pass", "p", ""):
        if decision.kind is DecisionKind.BID:
            return [COMMIT]
        raise ValueError("only a declaration can be passed")
    cards = parse_cards(words)
    trial = decision.clone()
    for index, card in enumerate(cards):
        if not trial.allows(card):
            raise ValueError(trial.why_illegal(card))
        trial.add(card)
        if trial.only_commit and index < len(cards) - 1:
            raise ValueError("that is more cards than the decision takes")
    if trial.only_commit:
        return cards  # the environment commits by itself
    if not trial.allows(COMMIT):
        raise ValueError(trial.why_illegal(COMMIT))
    return [*cards, COMMIT]


def play_game(
    env: Any,
    human: str,
    bots: dict[str, Any],
    ask: Callable[[str], str],
    say: Callable[[str], None],
    on_action: Callable[[int], None] | None = None,
) -> Any:
    """Play one episode of ``env`` (already reset) with a person in seat ``human``;
    ``on_action`` sees every action before it is taken (a replay recorder)."""
    pending: list[int] = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if agent != human:
            action = bots[agent].act(observation, info)
            if on_action is not None:
                on_action(action)
            env.step(action)
            continue
        while not pending:
            decision = env.decision
            say(render_seat(info["view"], decision.selection))
            prompt = PROMPTS[decision.kind].format(
                kitty=env.game.config.kitty_size,
                size=len(env.game.trick[0]) if env.game.trick else 0,
            )
            try:
                pending = typed_actions(ask(f"{human}, {prompt}: "), decision)
            except ValueError as error:
                say(f"not possible: {error}")
        action = pending.pop(0)
        if on_action is not None:
            on_action(action)
        env.step(action)
    result = env.game.result
    say(render_seat(seat_view(env.game, env.possible_agents.index(human)), result=result))
    return result
