"""An exported policy reproduces outside Python: node/golden.mjs loads policy.onnx with
onnxruntime-node (npm) and must give the manifest's golden logits and values, for a
stand-alone policy (full-v2) and an advised one (full-v4, its advice as a third input)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "node" / "golden.mjs"
pytestmark = pytest.mark.slow


def node_ready() -> str | None:
    node = shutil.which("node")
    if node is None or not (ROOT / "node" / "node_modules" / "onnxruntime-node").is_dir():
        if os.environ.get("SHENGJI_REQUIRE_NODE") == "1":
            pytest.fail("node or node/node_modules missing: run make node")
        return None
    return node


@pytest.mark.parametrize("model", ["standalone-v8", "full-v4"])
def test_golden_vectors_reproduce_in_node(model, tmp_path):
    node = node_ready()
    if node is None:
        pytest.skip("Node.js with onnxruntime-node is not set up (make node)")
    from shengji_env.train.export import export_policy

    export_policy(ROOT / "models" / model / "policy.pt", tmp_path)
    done = subprocess.run(
        [node, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "golden: 4 of 4 within" in done.stdout


def test_a_folder_without_a_manifest_is_refused(tmp_path):
    node = node_ready()
    if node is None:
        pytest.skip("Node.js with onnxruntime-node is not set up (make node)")
    done = subprocess.run([node, str(SCRIPT), str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 1 and "manifest.json" in done.stderr
