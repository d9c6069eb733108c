"""Random legal actions, for tests, demos and random baselines of the engine alone.

Not uniform over plays: leads mix singles, combinations and random subsets of a
suit (so that throws, good and failed, are common); follows are uniform over the
legal plays when the hand must shape-match, else a random fill.
"""

from __future__ import annotations

import random

from .game import Game
from .legal import legal_plays
from .patterns import decompose
from .state import Phase

FOLLOW_ENUMERATION_LIMIT = 4096


def random_action(game: Game, rng: random.Random) -> list[int]:
    """A random legal action for ``game.current_player`` in the current phase."""
    if game.phase is Phase.BID:
        options: list[tuple[int, ...]] = [(), *game.legal_bids()]
        return list(rng.choice(options))
    hand = game.hand(game.current_player)
    if game.phase is Phase.BURY:
        return rng.sample(hand, game.config.kitty_size)
    if game.phase is not Phase.PLAY or game.ctx is None:
        raise ValueError(f"no action to take in phase {game.phase.value}")
    if game.trick:
        return _random_follow(game, hand, rng)
    return _random_lead(game, hand, rng)


def _random_lead(game: Game, hand: list[int], rng: random.Random) -> list[int]:
    ctx = game.ctx
    assert ctx is not None
    card = rng.choice(hand)
    suit_cards = [c for c in hand if ctx.suits[c] == ctx.suits[card]]
    roll = rng.random()
    if roll < 0.45:
        return [card]
    if roll < 0.8:
        components = decompose(suit_cards, ctx)
        return list(rng.choice([c for c in components if card in c.cards]).cards)
    size = rng.randint(1, len(suit_cards))
    return rng.sample(suit_cards, size)


def _random_follow(game: Game, hand: list[int], rng: random.Random) -> list[int]:
    ctx = game.ctx
    assert ctx is not None
    lead = game.trick[0]
    suit = ctx.suits[lead[0]]
    in_suit = [c for c in hand if ctx.suits[c] == suit]
    if len(in_suit) <= len(lead):
        others = [c for c in hand if ctx.suits[c] != suit]
        return in_suit + rng.sample(others, len(lead) - len(in_suit))
    return rng.choice(legal_plays(hand, lead, ctx, limit=FOLLOW_ENUMERATION_LIMIT))


def play_random_hand(game: Game, rng: random.Random) -> None:
    """Play the current hand of ``game`` to its end with random legal actions."""
    while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
        game.step(random_action(game, rng))
