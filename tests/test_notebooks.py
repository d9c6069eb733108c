"""The notebooks run top to bottom (executed with nbclient, as a reader would)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


@pytest.mark.parametrize("name", ["quickstart.ipynb"])
def test_notebook_executes(name, tmp_path):
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("tractor to lead" in o.get("text", "") for o in outputs)
