"""RuleConfig: every option named, validated, with clear errors."""

import pytest

from shengji_env.rules import RuleConfig


def test_defaults_are_the_first_named_choices():
    config = RuleConfig()
    assert config.decks == 2
    assert config.twos_always_trump is False
    assert config.failed_throw_penalty == 0
    assert config.kitty_multiplier_cap == 64
    assert config.titanic_follow_order == "tractor_first"
    assert config.start_level == "2"


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"decks": 4}, "decks must be one of 1, 2, 3"),
        ({"twos_always_trump": "yes"}, "twos_always_trump must be True or False"),
        ({"failed_throw_penalty": -1}, "failed_throw_penalty must be an int >= 0"),
        ({"kitty_multiplier_cap": 48}, "power of two"),
        ({"titanic_follow_order": "pairs"}, "tractor_first, triples_first"),
        ({"start_level": "1"}, "start_level must be a rank"),
        ({"decks": 2.0}, "decks must be an int, got float 2.0"),
        ({"decks": True}, "decks must be an int, got bool True"),
        ({"decks": "2"}, "decks must be an int, got str '2'"),
        ({"failed_throw_penalty": True}, "failed_throw_penalty must be an int, got bool"),
        ({"failed_throw_penalty": 1.5}, "failed_throw_penalty must be an int, got float"),
        ({"kitty_multiplier_cap": True}, "kitty_multiplier_cap must be an int, got bool"),
        ({"kitty_multiplier_cap": 64.0}, "kitty_multiplier_cap must be an int, got float"),
        ({"twos_always_trump": 1}, "twos_always_trump must be True or False"),
        ({"titanic_follow_order": None}, "titanic_follow_order must be a string, got NoneType"),
        ({"start_level": 2}, "start_level must be a string, got int 2"),
    ],
)
def test_invalid_values_name_the_allowed_ones(options, fragment):
    with pytest.raises(ValueError, match=fragment):
        RuleConfig(**options)


def test_unknown_key_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown rule option.*deck.*known: decks"):
        RuleConfig.from_dict({"deck": 2})


def test_from_dict_round_trip_and_start_level_normalised():
    config = RuleConfig.from_dict({"decks": 3, "start_level": "t"})
    assert config.start_level == "10"
    assert RuleConfig.from_dict(config.to_dict()) == config


def test_config_is_frozen():
    with pytest.raises(AttributeError):
        RuleConfig().decks = 3  # type: ignore[misc]
