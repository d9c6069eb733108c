"""Each rules function of the compiled core against the reference on random states: trump
tables, decomposition, trick winners, throw checks, follow legality, shape matching,
declarations, the kitty multiplier, whole-action checks and the state round trip."""

from __future__ import annotations

import random

import pytest

from shengji_env.core import load_core, rule_arguments, state_of, to_game
from shengji_env.rules import (
    Game,
    IllegalMoveError,
    Phase,
    RuleConfig,
    check_throw,
    decompose,
    follow_error,
    kitty_multiplier,
    legal_bids,
    trick_winner,
)
from shengji_env.rules.matching import cheapest_match
from shengji_env.rules.sampling import random_action
from shengji_env.rules.trump import TRUMP, TrumpContext

core = load_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")


def contexts(rng: random.Random, count: int) -> list[tuple[TrumpContext, tuple]]:
    """Random trump contexts with the core's arguments for them."""
    out = []
    for _ in range(count):
        decks = rng.choice((1, 2, 3))
        twos = rng.random() < 0.3
        level = rng.randrange(13)
        trump = rng.choice((None, 0, 1, 2, 3))
        ctx = TrumpContext(RuleConfig(decks=decks, twos_always_trump=twos), level, trump)
        out.append((ctx, (decks, twos, level, -1 if trump is None else trump)))
    return out


def suit_cards(ctx: TrumpContext, suit: int, decks: int) -> list[int]:
    return [card for card in ctx.cards_by_suit[suit] for _ in range(decks)]


def test_trump_tables():
    for ctx, args in contexts(random.Random(1), 300):
        suits, keys, key_count = core.trump_tables(*args)
        assert tuple(suits) == ctx.suits and tuple(keys) == ctx.rank_keys
        assert tuple(key_count) == ctx.key_count


def test_decompose_and_kitty_multiplier():
    rng = random.Random(2)
    for ctx, args in contexts(rng, 2000):
        decks = args[0]
        suit = rng.choice([s for s in range(5) if ctx.cards_by_suit[s]])
        pool = suit_cards(ctx, suit, decks)
        cards = rng.sample(pool, rng.randint(1, min(len(pool), 14)))
        expected = [
            (c.multiplicity, c.length, c.cards, c.top_key, c.suit) for c in decompose(cards, ctx)
        ]
        assert core.decompose(cards, *args) == expected
        cap = rng.choice((4, 16, 64))
        reference = kitty_multiplier(
            cards,
            TrumpContext(
                RuleConfig(decks=decks, kitty_multiplier_cap=cap, twos_always_trump=args[1]),
                args[2],
                ctx.trump_suit,
            ),
        )
        assert core.kitty_multiplier(cards, *args, cap) == reference


def deal(rng: random.Random, decks: int) -> list[int]:
    deck = [card for card in range(54) for _ in range(decks)]
    rng.shuffle(deck)
    return deck


def test_trick_winner_throws_and_follows():
    rng = random.Random(3)
    checked = 0
    for ctx, args in contexts(rng, 1500):
        decks = args[0]
        cards = deal(rng, decks)
        size = 12 if decks == 1 else 25 if decks == 2 else 39
        hands = [sorted(cards[i * size : (i + 1) * size]) for i in range(4)]
        suit = rng.choice([s for s in range(5) if any(ctx.suits[c] == s for c in hands[0])])
        in_suit = [c for c in hands[0] if ctx.suits[c] == suit]
        lead = rng.sample(in_suit, rng.randint(1, min(len(in_suit), 8)))
        expected = check_throw(lead, hands[1:], ctx)
        assert core.check_throw(lead, hands[1:], *args) == (expected or [])
        played = expected or lead
        plays = [played]
        for hand in hands[1:]:
            play = rng.sample(hand, len(played))
            triples_first = rng.random() < 0.5
            reference = follow_error(
                played,
                hand,
                play,
                TrumpContext(
                    RuleConfig(
                        decks=decks,
                        twos_always_trump=args[1],
                        titanic_follow_order="triples_first" if triples_first else "tractor_first",
                    ),
                    args[2],
                    ctx.trump_suit,
                ),
            )
            assert (core.follow_error(played, hand, play, *args, triples_first) == 0) == (
                reference is None
            )
            plays.append(play)
            checked += 1
        assert core.trick_winner(plays, *args) == trick_winner(plays, ctx)
        ruffs = [sorted(rng.sample(suit_cards(ctx, TRUMP, decks), len(played)))]
        assert core.trick_winner([played, *ruffs], *args) == trick_winner([played, *ruffs], ctx)
    assert checked == 4500


def test_cheapest_match():
    rng = random.Random(4)
    for _ in range(3000):
        shape = tuple(
            sorted(
                ((rng.choice((2, 3)), rng.randint(1, 4)) for _ in range(rng.randint(1, 3))),
                key=lambda part: (part[1] >= 2, part[0], part[1]),
                reverse=True,
            )
        )
        units = []
        for key in sorted(rng.sample(range(16), rng.randint(1, 8))):
            count = rng.randint(2, 3)
            units.append((key, count, rng.randint(0, count)))
        units = tuple(units)
        for triples_first in (False, True):
            score, cost = cheapest_match(shape, units, triples_first)
            assert core.cheapest_match(list(shape), list(units), triples_first) == (score, cost)


def test_legal_bids():
    rng = random.Random(5)
    for _ in range(3000):
        decks, level = rng.choice((1, 2, 3)), rng.randrange(13)
        hand = rng.sample(deal(rng, decks), rng.randint(1, 30))
        floor = rng.randrange(8)
        standing = None
        if floor:
            from shengji_env.rules import Bid

            standing = Bid(0, (52,), floor, None)
        reference = [list(bid) for bid in legal_bids(hand, level, decks, standing)]
        assert core.legal_bids(hand, level, decks, floor) == reference


def random_game(rng: random.Random) -> tuple[Game, RuleConfig]:
    config = RuleConfig(
        decks=rng.choice((1, 2, 3)),
        twos_always_trump=rng.random() < 0.3,
        failed_throw_penalty=rng.choice((0, 10)),
        titanic_follow_order=rng.choice(("tractor_first", "triples_first")),
    )
    game = Game(config, seed=rng.randrange(10**9))
    for _ in range(rng.randrange(200)):
        if game.phase not in (Phase.BID, Phase.BURY, Phase.PLAY):
            break
        game.step(random_action(game, rng))
    return game, config


def test_state_round_trip_and_whole_actions():
    """A reference game loaded into the core exports the same state, refuses what the
    reference refuses, and reaches the same state after what the reference accepts."""
    rng = random.Random(6)
    refused = accepted = 0
    for _ in range(300):
        game, config = random_game(rng)
        table = core.Table(**rule_arguments(config), match=False, points=False)
        table.load(state_of(game))
        assert state_of(to_game(table.export(), config)) == state_of(game)
        if game.phase not in (Phase.BID, Phase.BURY, Phase.PLAY):
            continue
        hand = game.hand(game.current_player)
        for attempt in (
            rng.sample(hand, rng.randint(1, min(4, len(hand)))),
            random_action(game, rng),
        ):
            reference = game.clone()
            try:
                reference.step(attempt)
            except IllegalMoveError:
                with pytest.raises(ValueError):
                    table.play(attempt)
                refused += 1
                continue
            table.play(attempt)
            accepted += 1
            assert state_of(to_game(table.export(), config)) == state_of(reference)
            break
    assert refused > 50 and accepted > 100
