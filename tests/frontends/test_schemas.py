"""The JSON Schemas shipped for the replay format and the decision protocol: valid
schemas, the same files in docs/schemas, and what our own code writes passes them."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import jsonschema
import pytest

from shengji_env.agents import load_agent
from shengji_env.frontends.protocol import decide, request_for
from shengji_env.replay import schema
from shengji_env.rules import Game, Phase, RuleConfig
from shengji_env.rules.sampling import random_action

ROOT = Path(__file__).parents[2]
NAMES = ("replay", "request", "answer", "manifest")


@pytest.mark.parametrize("name", NAMES)
def test_the_schemas_are_valid_and_the_docs_hold_the_same_files(name):
    jsonschema.Draft202012Validator.check_schema(schema(name))
    shipped = ROOT / "shengji_env" / "schemas" / f"{name}.schema.json"
    documented = ROOT / "docs" / "schemas" / f"{name}.schema.json"
    assert documented.read_text() == shipped.read_text(), f"cp {shipped} {documented}"


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_requests_and_answers_of_whole_games_pass_their_schemas(decks):
    request_schema = jsonschema.Draft202012Validator(schema("request"))
    answer_schema = jsonschema.Draft202012Validator(schema("answer"))
    rng = random.Random(decks)
    config = RuleConfig(decks=decks)
    agent = load_agent("greedy")
    checked = 0
    for seed in range(3):
        game = Game(config, seed=seed)
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
            request = request_for(game, game.current_player)
            request_schema.validate(request)
            if checked % 7 == 0:
                answer_schema.validate(decide({**request, "id": checked}, agent, config))
            checked += 1
            game.step(random_action(game, rng))
    answer_schema.validate(decide({"id": "x", "seat": 9}, agent, config))  # an error answer
    assert checked > 100


def test_the_documented_request_example_passes_the_schema():
    text = (ROOT / "docs" / "protocol.md").read_text()
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    jsonschema.Draft202012Validator(schema("request")).validate(example)
