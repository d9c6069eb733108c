"""Every bound function of the compiled core checks its arguments: an out-of-range deck
count, level, trump, card id, seat, action, batch size or state field is a ``ValueError``
that names it, never a crash, a hang or another exception.

The calls run in a child process (a crash there fails the test with the call that caused
it, instead of ending the test run), one after another, each printed before it is made."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from shengji_env.core import load_core, rule_arguments
from shengji_env.rules import RuleConfig

core = load_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

TABLE = (
    "Table(decks=2, twos_always_trump=False, failed_throw_penalty=10, kitty_multiplier_cap=64, "
    "triples_first=False, start_level=0, match=False, points=False)"
)
BATCH = (
    "TableBatch(count=2, decks=2, twos_always_trump=False, failed_throw_penalty=10, "
    "kitty_multiplier_cap=64, triples_first=False, start_level=0, match=False, points=False, "
    "seed=1)"
)
CALLS = [  # (a call, what the ValueError must say)
    ("trump_tables(0, False, 0, 0)", "decks must be in 1..3, got 0"),
    ("trump_tables(4, False, 0, 0)", "decks must be in 1..3"),
    ("trump_tables(2, False, 13, 0)", "level must be in 0..12, got 13"),
    ("trump_tables(2, False, -1, 0)", "level must be in 0..12"),
    ("trump_tables(2, False, 0, 4)", "trump must be in -1..3, got 4"),
    ("decompose([54], 2, False, 0, 0)", "cards must be in 0..53, got 54"),
    ("decompose([-1], 2, False, 0, 0)", "cards must be in 0..53"),
    ("decompose([5, 5, 5], 2, False, 0, 0)", "more than 2 times"),
    ("trick_winner([], 2, False, 0, 0)", "a trick holds 1..4 plays"),
    ("trick_winner([[]], 2, False, 0, 0)", "a play must not be empty"),
    ("trick_winner([[1], [2, 3]], 2, False, 0, 0)", "as many cards as the lead"),
    ("trick_winner([[1]] * 5, 2, False, 0, 0)", "a trick holds 1..4 plays"),
    ("trick_winner([[99], [1]], 2, False, 0, 0)", "a play must be in 0..53"),
    ("check_throw([1], [[10**6]], 2, False, 0, 0)", "others must be in 0..53"),
    ("check_throw([], [[1]], 2, False, 0, 0)", "lead must not be empty"),
    ("check_throw([1], [[1]] * 4, 2, False, 0, 0)", "at most three hands"),
    ("follow_error([1], [99], [1], 2, False, 0, 0, False)", "hand must be in 0..53"),
    ("follow_error([1], [1], [-5], 2, False, 0, 0, False)", "play must be in 0..53"),
    ("follow_error([], [1], [1], 2, False, 0, 0, False)", "lead must not be empty"),
    ("legal_bids([54], 0, 2, 0)", "hand must be in 0..53"),
    ("legal_bids([1], 13, 2, 0)", "level must be in 0..12"),
    ("legal_bids([1], 0, 9, 0)", "decks must be in 1..3"),
    ("kitty_multiplier([77], 2, False, 0, 0, 64)", "lead must be in 0..53"),
    ("kitty_multiplier([1], 2, False, 0, 0, 0)", "cap must be in 1.."),
    (TABLE.replace("decks=2", "decks=0"), "decks must be in 1..3, got 0"),
    (TABLE.replace("decks=2", "decks=1000"), "decks must be in 1..3"),
    (TABLE.replace("start_level=0", "start_level=13"), "start_level must be in 0..12"),
    (TABLE.replace("failed_throw_penalty=10", "failed_throw_penalty=-5"), "failed_throw_penalty"),
    (TABLE.replace("kitty_multiplier_cap=64", "kitty_multiplier_cap=0"), "kitty_multiplier_cap"),
    (f"{TABLE}.reset(1, 13)", "start_level must be in -1..12, got 13"),
    (f"{TABLE}.observation(4)", "seat must be 0..3"),
    (f"{TABLE}.observe(0, np.zeros(3, np.float32))", "C-contiguous array"),
    (f"{TABLE}.mask(np.zeros(3, np.int8))", "C-contiguous array"),
    (f"{TABLE}.select([99])", "the selection does not fit"),
    (f"{TABLE}.own_bot_play(7)", "policy must be 0"),
    (f"{TABLE}.rollouts([[], [], [], []], [[1]], 0)", "play phase"),
    (BATCH.replace("count=2", "count=0"), "count must be in 1..65536, got 0"),
    (BATCH.replace("count=2", "count=10**8"), "count must be in 1..65536"),
    (BATCH.replace("decks=2", "decks=4"), "decks must be in 1..3"),
    (f"{BATCH}.export(2)", "table index must be in 0..1"),
    (f"{BATCH}.seed(-1)", "table index must be in 0..1"),
]
STATE_FIELDS = [  # (field, a bad value, what the ValueError must say)
    ("hands", [[1]], "state field 'hands'"),
    ("hands", [[1]] * 5, "state field 'hands'"),
    ("hands", [[99], [], [], []], "a hand must be in 0..53"),
    ("voids", [[True]], "state field 'voids'"),
    ("results", [(1,)], "a hand result must hold 12 items"),
    ("results", [tuple(range(12))], "state field 'results'"),
    ("levels", [1], "state field 'levels' has the wrong type or shape"),
    ("levels", "x", "state field 'levels' has the wrong type or shape"),
    ("levels", [99, 0], "levels must be in 0..12"),
    ("bids", [(0,)], "a bid must hold 4 items"),
    ("bids", [(9, [1], 0, None)], "a bid's seat must be in 0..3"),
    ("tricks", [(0,)], "a trick record must hold 5 items"),
    ("tricks", [(9, [[1]], 9, 0, None)], "a trick's leader"),
    ("played", [[1]], "state field 'played'"),
    ("revealed", [[1]], "state field 'revealed'"),
    ("rng_state", [1, 2], "624 words"),
    ("phase", 9, "phase must be in 0..4"),
    ("current_player", 9, "current_player must be in 0..3"),
    ("final_round", [9], "final_round must be in 0..3"),
    ("dealer", 9, "dealer must be in -1..3"),
    ("dealt", 10**6, "state field 'dealt'"),
    ("deck", [99], "deck must be in 0..53"),
    ("kitty", [99], "kitty must be in 0..53"),
    ("trick", [[1]] * 5, "more than four plays"),
    ("hand_number", -1, "hand_number must be in 0.."),
    ("match_winner", 9, "match_winner must be in -1..1"),
    ("result", (1,), "a hand result must hold 12 items"),
    ("trump_suit", 9, "trump_suit must be in -1..3"),
    ("leader", 9, "leader must be in 0..3"),
    ("hands", [[7, 7, 7], [], [], []], "more than the 2 the decks hold"),
    ("trick", [[]], "only a game in play has a trick under way"),
    ("deal_start", 3, "the deal gives it"),
    ("current_player", 3, "a seat that can declare"),
    ("final_round", [1, 0], "once every card is dealt"),
    ("has_ctx", "maybe", "state field 'has_ctx' has the wrong type"),
    ("level", 2**40, "state field 'level' has the wrong type"),
]
CHILD = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    from shengji_env._core import Table, TableBatch, trump_tables, decompose, trick_winner
    from shengji_env._core import check_throw, follow_error, legal_bids, kitty_multiplier
    for line in sys.stdin:
        case = json.loads(line)
        print(json.dumps({"started": case["label"]}), flush=True)
        try:
            exec(case["code"])
            outcome = {"accepted": True}
        except ValueError as error:
            outcome = {"value_error": str(error)}
        except BaseException as error:
            outcome = {"other": f"{type(error).__name__}: {error}"}
        print(json.dumps({"label": case["label"], **outcome}), flush=True)
    """
)


def run_calls(cases: list[dict[str, str]]) -> dict[str, dict]:
    """Each case's outcome, from a child process that makes the calls one by one."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        input="".join(json.dumps(case) + "\n" for case in cases),
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, (
        f"the core crashed (exit {done.returncode}) on {lines[-1]['started'] if lines else '?'}"
    )
    return {line["label"]: line for line in lines if "label" in line}


def state_case(field: str, value: object) -> dict[str, str]:
    code = (
        f"table = {TABLE}\nstate = table.export()\nbefore = dict(state)\n"
        f"state[{field!r}] = {value!r}\n"
        "try:\n    table.load(state)\nfinally:\n    assert table.export() == before\n"
    )
    return {"label": f"load {field}={value!r}"[:80], "code": code}


def test_every_bound_function_refuses_bad_arguments_with_a_value_error(record_property):
    cases = [{"label": code, "code": code} for code, _ in CALLS]
    cases += [state_case(field, value) for field, value, _ in STATE_FIELDS]
    messages = [message for _, message in CALLS] + [message for *_, message in STATE_FIELDS]
    outcomes = run_calls(cases)
    failures = []
    for case, message in zip(cases, messages, strict=True):
        outcome = outcomes[case["label"]]
        if message not in outcome.get("value_error", ""):
            failures.append(f"{case['label']}: {outcome}")
    assert not failures, "\n".join(failures)
    record_property("fuzz_core_bad_arguments", len(cases))


def play_out(table, rng: random.Random) -> None:
    """The rule bots' answers in play (refusals allowed), now and then the whole hand."""
    if table.phase != 2:
        return
    for policy in (0, 1):
        with contextlib.suppress(ValueError):
            table.own_bot_play(policy)
    if rng.random() < 0.05:
        with contextlib.suppress(ValueError):
            table.heuristic_hand()


def test_random_damage_to_a_state_is_refused_or_loads_without_a_crash(record_property):
    """Every field of exported states replaced by random values of random types: each
    load is refused with a ValueError or loads, and a loaded table plays on without a
    crash (a state with a card too often, or whose trick is out of turn, is refused)."""
    rng = random.Random(61)
    rules = rule_arguments(RuleConfig(failed_throw_penalty=10))
    table = core.Table(**rules, match=True, points=False)
    values = [None, -1, 0, 3, 4, 13, 54, 2**31, -(2**40), "x", 1.5, [], [[]], [[1]] * 4,
              [(1, [1], 2, None)], [[99]] * 4, [[True] * 5] * 4, (0,) * 12]  # fmt: skip
    tried = refused = 0
    for seed in range(40):
        table.reset(seed)
        for _ in range(rng.randrange(0, 120)):
            legal = np.flatnonzero(table.mask_of(table.seat))
            if table.over or not len(legal):
                break
            table.step(int(rng.choice(legal)))
        state = table.export()
        for field in state:
            for value in rng.sample(values, 6):
                damaged = table.export()
                damaged[field] = value
                tried += 1
                try:
                    table.load(damaged)
                except ValueError:
                    refused += 1
                    assert table.export() == state, "a refused state changed the table"
                    continue
                for _ in range(30):  # the engine relies on what it loaded
                    table.observation(table.seat)
                    play_out(table, rng)
                    legal = np.flatnonzero(table.mask_of(table.seat))
                    if table.over or not len(legal):
                        break
                    table.step(int(rng.choice(legal)))
                table.load(state)
    assert tried > 5_000 and refused > tried // 3
    record_property("fuzz_core_states", tried)
