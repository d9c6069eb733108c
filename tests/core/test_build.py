"""The compiled core is built where it must be, agrees with the encoder's layout, and the
package still works where it is not built."""

from __future__ import annotations

import os

import numpy as np
import pytest

from shengji_env import core as core_module
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE
from shengji_env.env import raw_env


@pytest.mark.skipif(os.environ.get("SHENGJI_REQUIRE_CORE") != "1", reason="core not required")
def test_the_core_is_built_where_make_test_requires_it():
    assert core_module.load_core() is not None, "the C++ core failed to build (see pip's log)"


def test_the_core_has_the_encoders_layout():
    core = core_module.load_core()
    if core is None:
        pytest.skip("the compiled core is not built")
    assert core.OBS_SIZE == OBS_SIZE
    assert dict(core.OBS_STARTS) == {name: block.start for name, block in OBS_LAYOUT.items()}


def test_without_the_core_envs_run_on_the_reference(monkeypatch):
    monkeypatch.setattr(core_module, "load_core", lambda: None)
    monkeypatch.delenv(core_module.ENGINE_VARIABLE, raising=False)
    env = raw_env()
    assert env.engine.name == "python"
    env.reset(seed=0)
    assert env.observe(env.agent_selection)["action_mask"].any()
    with pytest.raises(RuntimeError, match="engine='python'"):
        raw_env(engine="core")


def test_the_engine_variable_chooses_and_is_checked(monkeypatch):
    monkeypatch.setenv(core_module.ENGINE_VARIABLE, "python")
    assert raw_env().engine.name == "python"
    monkeypatch.setenv(core_module.ENGINE_VARIABLE, "rust")
    with pytest.raises(ValueError, match="SHENGJI_ENGINE must be one of core, python"):
        raw_env()
    with pytest.raises(ValueError, match="engine must be one of"):
        raw_env(engine="fortran")


def test_a_table_refuses_bad_states_and_buffers():
    core = core_module.load_core()
    if core is None:
        pytest.skip("the compiled core is not built")
    table = core.Table(
        decks=2,
        twos_always_trump=False,
        failed_throw_penalty=0,
        kitty_multiplier_cap=64,
        triples_first=False,
        start_level=0,
        match=False,
        points=False,
    )
    state = table.export()
    with pytest.raises(ValueError, match=r"level must be in 0\.\.12"):
        table.load({**state, "level": 13})
    with pytest.raises(ValueError, match=r"state field 'hands': a hand must be in 0\.\.53"):
        table.load({**state, "hands": [[99], [], [], []]})
    with pytest.raises(ValueError, match="must be a writeable C-contiguous array"):
        table.observe(0, np.empty(10, np.float32))
    with pytest.raises(TypeError):
        table.observe(0, np.empty(OBS_SIZE, np.float64))
    assert table.export() == state  # nothing refused changed the table
