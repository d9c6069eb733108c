"""The state machine: determinism, cloning, illegal actions, phases and match play."""

import random

import pytest

from shengji_env.rules import (
    Game,
    IllegalMoveError,
    Phase,
    Position,
    RuleConfig,
    card_points,
    follow_error,
)
from shengji_env.rules.sampling import play_random_hand, random_action

from .conftest import cards, context


def trajectory(seed: int, config: RuleConfig) -> list[tuple]:
    game = Game(config, seed=seed)
    rng = random.Random(seed)
    steps = []
    while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
        action = random_action(game, rng)
        steps.append((game.phase, game.current_player, tuple(action)))
        game.step(action)
    return [*steps, game.result]


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_same_seed_same_hand(decks):
    config = RuleConfig(decks=decks)
    assert trajectory(3, config) == trajectory(3, config)
    assert trajectory(3, config) != trajectory(4, config)


def test_global_random_state_does_not_matter():
    config = RuleConfig()
    random.seed(1)
    first = trajectory(5, config)
    random.seed(2)
    assert trajectory(5, config) == first


def test_clone_is_independent():
    game = Game(RuleConfig(), seed=11)
    rng = random.Random(0)
    for _ in range(60):
        game.step(random_action(game, rng))
    copy = game.clone()
    snapshot = (copy.phase, copy.current_player, [copy.hand(s) for s in range(4)], copy.dealt)
    play_random_hand(game, random.Random(1))
    assert snapshot == (
        copy.phase,
        copy.current_player,
        [copy.hand(s) for s in range(4)],
        copy.dealt,
    )
    play_random_hand(copy, random.Random(1))
    assert copy.result == game.result


def declared_fields() -> set[str]:
    return {name for klass in Game.__mro__ for name in getattr(klass, "__annotations__", {})}


@pytest.mark.parametrize("phase", [Phase.BID, Phase.BURY, Phase.PLAY, Phase.HAND_OVER])
def test_every_field_of_a_game_is_declared_once_and_cloned(phase):
    game = Game(RuleConfig(), seed=3) if phase is Phase.BID else advance_to(phase, seed=3)
    assert set(vars(game)) == declared_fields()
    copied = {*Game._SHARED, *Game._FLAT, *Game._NESTED, "final_round", "rng"}
    assert copied == declared_fields()
    copy = game.clone()
    assert set(vars(copy)) == declared_fields()
    for name in (*Game._FLAT, *Game._NESTED):
        assert getattr(copy, name) == getattr(game, name)
        assert getattr(copy, name) is not getattr(game, name), name
    for name in Game._NESTED:
        assert all(
            a is not b for a, b in zip(getattr(copy, name), getattr(game, name), strict=True)
        ), name


def position_of(game: Game, seat: int, everyone: bool = False) -> Position:
    """What ``seat`` knows of ``game`` (every hand with ``everyone``)."""
    return Position(
        game.config,
        game.phase,
        seat,
        [game.hand(s) if everyone or s == seat else [] for s in range(4)],
        game.level,
        (game.levels[0], game.levels[1]),
        game.dealer,
        game.bids,
        game.dealt,
        kitty=game.kitty if everyone or seat == game.dealer else [],
        leader=game.leader,
        trick=game.trick,
        tricks=game.tricks,
        revealed=game.revealed,
        attacker_trick_points=game.attacker_trick_points,
        penalty_points=game.penalty_points,
    )


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_a_game_from_a_full_position_plays_on_like_the_game_itself(decks):
    checked = 0
    for seed in range(12):
        game = Game(RuleConfig(decks=decks), seed=seed)
        rng = random.Random(seed)
        while game.phase is not Phase.PLAY or rng.random() < 0.9:
            if game.phase not in (Phase.BID, Phase.BURY, Phase.PLAY):
                break
            game.step(random_action(game, rng))
        if game.phase is not Phase.PLAY:
            continue
        copy = Game.from_position(position_of(game, game.current_player, everyone=True))
        assert copy.played == game.played and copy.voids == game.voids
        assert copy.ctx.trump_suit == game.ctx.trump_suit and copy.bid == game.bid
        moves = random.Random(seed)
        while game.phase is Phase.PLAY:
            action = random_action(game, moves)
            game.step(action)
            copy.step(action)
        assert copy.result == game.result
        checked += 1
    assert checked > 6


def test_a_position_one_seat_knows_keeps_the_others_hands_empty():
    game = advance_to(Phase.PLAY, seed=5)
    seat = game.current_player
    known = Game.from_position(position_of(game, seat))
    assert known.hand(seat) == game.hand(seat)
    assert all(known.hand(s) == [] for s in range(4) if s != seat)
    assert known.kitty == game.kitty and known.current_player == seat


def state_of(game: Game) -> tuple:
    return (
        game.phase,
        game.current_player,
        [list(hand) for hand in game.hands],
        list(game.trick),
        len(game.tricks),
        list(game.kitty),
        game.penalty_points,
    )


def advance_to(phase: Phase, seed: int = 2) -> Game:
    game = Game(RuleConfig(), seed=seed)
    rng = random.Random(seed)
    while game.phase is not phase:
        game.step(random_action(game, rng))
    return game


def test_illegal_bury_raises_and_leaves_state_unchanged():
    game = advance_to(Phase.BURY)
    before = state_of(game)
    hand = game.hand(game.current_player)
    with pytest.raises(IllegalMoveError, match="exactly 8 cards"):
        game.bury(hand[:7])
    missing = next(c for c in range(54) if c not in hand)
    with pytest.raises(IllegalMoveError, match="only cards in the hand"):
        game.bury([*hand[:7], missing])
    with pytest.raises(IllegalMoveError, match="not a card id"):
        game.bury([*hand[:7], 99])
    with pytest.raises(IllegalMoveError, match="phase play"):
        game.play(hand[:1])
    assert state_of(game) == before


def test_illegal_lead_and_follow_raise_with_the_rule_and_leave_state_unchanged():
    game = advance_to(Phase.PLAY)
    ctx = game.ctx
    before = state_of(game)
    hand = game.hand(game.current_player)
    two_suits = [hand[0], next(c for c in hand if ctx.suit_of(c) != ctx.suit_of(hand[0]))]
    with pytest.raises(IllegalMoveError, match="one suit"):
        game.play(two_suits)
    with pytest.raises(IllegalMoveError, match="at least one card"):
        game.play([])
    assert state_of(game) == before
    # find a follower who holds the led suit and try to play off-suit
    rng = random.Random(3)
    for _ in range(200):
        if game.phase is not Phase.PLAY:
            break
        if game.trick:
            suit = ctx.suit_of(game.trick[0][0])
            hand = game.hand(game.current_player)
            inside = [c for c in hand if ctx.suit_of(c) == suit]
            outside = [c for c in hand if ctx.suit_of(c) != suit]
            if len(game.trick[0]) == 1 and inside and outside:
                before = state_of(game)
                with pytest.raises(IllegalMoveError, match=r"must follow suit.*§6.2 rule 1"):
                    game.play(outside[:1])
                assert state_of(game) == before
                return
        game.step(random_action(game, rng))
    pytest.fail("no position to test a revoke was reached")


def test_shape_violation_names_rule_two():
    reason = follow_error(cards("AS AS"), cards("3S 3S 4S 5S"), cards("4S 5S"), context())
    assert reason is not None and "§6.2 rule 2" in reason


def test_no_action_after_the_match_and_next_hand_rotates():
    game = Game(RuleConfig(decks=1), seed=4)
    with pytest.raises(IllegalMoveError, match="after a hand is over"):
        game.next_hand()
    play_random_hand(game, random.Random(4))
    result = game.result
    assert game.phase is Phase.HAND_OVER
    with pytest.raises(IllegalMoveError, match="no action"):
        game.step([])
    game.next_hand()
    assert game.hand_number == 1 and game.dealer == result.next_dealer
    assert game.deal_start == result.next_dealer
    assert game.level == game.levels[game.dealer % 2]


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_matches_end_when_a_team_passes_ace(decks):
    game = Game(RuleConfig(decks=decks, start_level="Q"), seed=decks)
    rng = random.Random(decks)
    for _ in range(200):
        play_random_hand(game, rng)
        if game.phase is Phase.MATCH_OVER:
            break
        game.next_hand()
    assert game.phase is Phase.MATCH_OVER
    winner = game.match_winner
    assert winner in (0, 1) and game.levels[winner] == 12
    last = game.results[-1]
    winning_team = last.dealer % 2 if last.winner == "dealer" else 1 - last.dealer % 2
    assert winning_team == winner and last.levels_gained >= 1


def test_failed_throw_penalty_counts_against_the_thrower():
    config = RuleConfig(decks=2, failed_throw_penalty=10)
    for seed in range(200):
        game = Game(config, seed=seed)
        play_random_hand(game, random.Random(seed))
        failed = [
            (record, len(record.attempt) - len(record.plays[0]))
            for record in game.tricks
            if record.attempt is not None
        ]
        if not failed:
            continue
        attackers = 1 - game.result.dealer % 2
        expected = sum(
            10 * returned * (1 if record.leader % 2 == attackers else -1)
            for record, returned in failed
        )
        assert game.result.penalty_points == expected
        return
    pytest.fail("no failed throw in 200 hands")


def test_the_dealer_may_bury_point_cards():
    game = advance_to(Phase.BURY, seed=5)
    hand = game.hand(game.current_player)
    points_first = sorted(hand, key=lambda card: -card_points(card))[:8]
    game.bury(points_first)
    assert sorted(game.kitty) == sorted(points_first)
    assert game.phase is Phase.PLAY and game.current_player == game.dealer
