"""The notebooks run top to bottom (executed with nbclient, as a reader would)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def execute(name: str, cwd: Path) -> list[dict]:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    return outputs


def test_quickstart_executes(tmp_path):
    outputs = execute("quickstart.ipynb", tmp_path)
    assert any("tractor to lead" in o.get("text", "") for o in outputs)


@pytest.mark.slow
def test_training_notebook_executes_on_the_quick_configs_output(tmp_path, monkeypatch):
    from shengji_env.train.config import load_config
    from shengji_env.train.ppo import train

    overrides = ["total_steps=3000", "bc_steps=1000", "eval_every=1", "eval_deals=2"]
    config = load_config(
        NOTEBOOKS.parent / "configs" / "quick.yaml", [*overrides, f"run_dir={tmp_path}"]
    )
    run = train(config, max_updates=2)
    monkeypatch.setenv("SHENGJI_RUN", str(run))
    monkeypatch.setenv("SHENGJI_ARENA_DEALS", "2")
    outputs = execute("training.ipynb", tmp_path)
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert any("heuristic" in o.get("text", "") for o in outputs)


@pytest.mark.slow
def test_training_notebook_runs_from_jupyters_working_directory(monkeypatch):
    """Jupyter starts a notebook in its own folder: the run is still found (a run of your
    own under runs/, else the committed full run)."""
    monkeypatch.delenv("SHENGJI_RUN", raising=False)
    monkeypatch.setenv("SHENGJI_ARENA_DEALS", "1")
    outputs = execute("training.ipynb", NOTEBOOKS)
    assert any("run folder:" in o.get("text", "") for o in outputs)
    assert any("image/png" in o.get("data", {}) for o in outputs)
