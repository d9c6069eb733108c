"""Invariants over thousands of seeded random hands per deck count (and permanent 2s).

At every step every card is accounted for, and each decision is checked against the
rules API independently of the engine's own bookkeeping: follows are legal, failed
throws play the component ``check_throw`` names, tricks go to ``trick_winner``, hands
end when every hand is empty, and the score agrees with the attackers' points.
"""

import random

import pytest

from shengji_env.rules import (
    Game,
    Phase,
    RuleConfig,
    check_throw,
    is_legal_follow,
    kitty_multiplier,
    level_change,
    make_deck,
    points_of,
    team_of,
    trick_winner,
)
from shengji_env.rules.sampling import random_action

HANDS_PER_CONFIG = 2000
CHUNKS = 4
CONFIGS = [
    RuleConfig(decks=1),
    RuleConfig(decks=2),
    RuleConfig(decks=3),
    RuleConfig(decks=2, twos_always_trump=True),
    RuleConfig(decks=3, twos_always_trump=True, titanic_follow_order="triples_first"),
    RuleConfig(decks=1, twos_always_trump=True, failed_throw_penalty=10, start_level="10"),
]


def all_cards(game: Game) -> list[int]:
    held = [card for seat in range(4) for card in game.hand(seat)]
    played = [card for cards in game.played for card in cards]
    if game.phase is Phase.BID:
        rest = game.deck[game.dealt :]
    elif game.phase is Phase.BURY:
        rest = []  # the kitty is in the dealer's hand
    else:
        rest = game.kitty
    return sorted(held + played + rest)


def check_play_step(game: Game, seat: int, action: list[int], hands_before: list[list[int]]):
    ctx = game.ctx
    trick = list(game.trick) if game.trick else None
    tricks_before = len(game.tricks)
    game.step(action)
    finished = len(game.tricks) > tricks_before
    plays = list(game.tricks[-1].plays) if finished else list(game.trick)
    played = list(plays[-1])
    if not trick:  # a lead
        others = [hands_before[s] for s in range(4) if s != seat]
        forced = check_throw(action, others, ctx)
        assert sorted(played) == sorted(forced if forced is not None else action)
    else:
        assert is_legal_follow(trick[0], hands_before[seat], played, ctx)
    if finished:
        record = game.tricks[-1]
        assert record.winner == (record.leader + trick_winner(record.plays, ctx)) % 4


def check_result(game: Game):
    result = game.result
    assert result is not None
    config = game.config
    assert all(game.hand_size(seat) == 0 for seat in range(4))
    assert sum(len(record.plays[0]) for record in game.tricks) == config.hand_size
    attackers = 1 - team_of(result.dealer)
    won = sum(r.points for r in game.tricks if team_of(r.winner) == attackers)
    lost = sum(r.points for r in game.tricks if team_of(r.winner) != attackers)
    assert won + lost + points_of(game.kitty) == config.total_points
    assert result.trick_points == won
    last = game.tricks[-1]
    multiplier = (
        kitty_multiplier(last.plays[0], game.ctx) if team_of(last.winner) == attackers else 0
    )
    assert result.kitty_multiplier == multiplier
    total = won + points_of(game.kitty) * multiplier - result.penalty_points
    assert result.attacker_points == total
    assert (result.winner, result.levels_gained) == level_change(total, config)


def play_checked_hand(config: RuleConfig, seed: int):
    game = Game(config, seed=seed)
    rng = random.Random(seed * 7919 + 1)
    full_deck = make_deck(config.decks)
    while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
        assert all_cards(game) == full_deck
        seat, phase = game.current_player, game.phase
        action = random_action(game, rng)
        if phase is Phase.PLAY:
            hands_before = [game.hand(s) for s in range(4)]
            check_play_step(game, seat, action, hands_before)
        else:
            game.step(action)
    assert all_cards(game) == full_deck
    check_result(game)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.decks}d-twos{c.twos_always_trump:d}")
def test_random_hands_keep_the_invariants(config, chunk):
    per_chunk = HANDS_PER_CONFIG // CHUNKS
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        play_checked_hand(config, seed)
