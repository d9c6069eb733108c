"""A policy exported to ONNX, played with onnxruntime and numpy only (no torch import):
``onnx:DIR`` where DIR holds ``policy.onnx`` and ``manifest.json``."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np

from shengji_env.actions import NUM_ACTIONS
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE
from shengji_env.replay import schema

from .advice import HeuristicAdvice

MASKED_LOGIT = -1e9

SLOWER_FUSIONS = ["SkipLayerNormFusion"]
"""onnxruntime graph rewrites that slow our policies at batch one on one thread: its fused
residual-and-layer-norm kernel took about 28 µs more a decision than the plain Add and
LayerNormalization it replaces in the card network (BENCHMARKS.md)."""


@functools.cache
def manifest_validator() -> jsonschema.Draft202012Validator:
    """The validator of ``schemas/manifest.schema.json``."""
    return jsonschema.Draft202012Validator(schema("manifest"))


class OnnxAgent:
    """Plays the most likely legal action of an exported policy (``sample=1`` samples)."""

    def __init__(self, path: str, sample: int = 0, seed: int | None = None) -> None:
        folder = Path(path)
        manifest_path = folder / "manifest.json"
        if not manifest_path.is_file():
            raise ValueError(
                f"{folder} holds no manifest.json: export a policy with 'shengji export'"
            )
        try:
            self.manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ValueError(f"{manifest_path} is not valid JSON: {error}") from None
        check_manifest(self.manifest, folder)
        model = folder / self.manifest["model"]["file"]
        self.session = _session(model)  # any batch
        self.single = _SingleDecision(_session(model, batch=1))  # shapes known: a faster plan
        self.advice = HeuristicAdvice() if "advice" in self.manifest["inputs"] else None
        self.sample = bool(sample)
        self.rng = np.random.default_rng(seed)
        self._checked_rules = False

    def reset(self) -> None:
        pass

    def logits(
        self, observations: np.ndarray, masks: np.ndarray, advice: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Masked logits and values for a batch (``advice``: the heuristic's next actions,
        -1 for none; an advised policy needs it)."""
        inputs = {
            "observation": np.ascontiguousarray(observations, dtype=np.float32),
            "action_mask": np.ascontiguousarray(masks, dtype=np.int8),
        }
        if self.advice is not None:
            if advice is None:
                raise ValueError("this policy is advised: pass the heuristic's advice")
            inputs["advice"] = np.ascontiguousarray(advice, dtype=np.int64)
        if len(observations) == 1:
            return self.single(inputs)
        logits, values = self.session.run(None, inputs)
        return logits, values

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        if not self._checked_rules and "view" in info:
            check_rules(self.manifest, info["view"].config.to_dict())
            self._checked_rules = True
        advice = None
        if self.advice is not None:
            advice = np.array([self.advice.next_action(observation, info)])
        logits, _ = self.logits(
            observation["observation"][None], observation["action_mask"][None], advice
        )
        if not self.sample:
            return int(logits[0].argmax())
        probabilities = np.exp(logits[0] - logits[0].max())
        probabilities /= probabilities.sum()
        return int(self.rng.choice(NUM_ACTIONS, p=probabilities))


class _SingleDecision:
    """One decision at a time through a batch-one session whose inputs and outputs are
    bound once to buffers made here: each call copies the inputs in (onnxruntime's ``run``
    allocates and converts its outputs at every call, about 7 µs of a decision, and
    binding fresh input arrays costs about 6 µs more; BENCHMARKS.md). Not for concurrent
    calls (the serving front ends pass an agent one request at a time)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.binding = session.io_binding()
        self.inputs = {item.name: _buffer(item) for item in session.get_inputs()}
        self.logits = np.zeros((1, NUM_ACTIONS), dtype=np.float32)
        self.values = np.zeros(1, dtype=np.float32)
        for name, buffer in self.inputs.items():
            self.binding.bind_input(
                name, "cpu", 0, buffer.dtype, list(buffer.shape), buffer.ctypes.data
            )
        for name, buffer in (("logits", self.logits), ("value", self.values)):
            self.binding.bind_output(
                name, "cpu", 0, np.float32, list(buffer.shape), buffer.ctypes.data
            )

    def __call__(self, inputs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        for name, array in inputs.items():
            self.inputs[name][...] = array
        self.session.run_with_iobinding(self.binding)
        return self.logits.copy(), self.values.copy()


_INPUT_TYPES = {"tensor(float)": np.float32, "tensor(int8)": np.int8, "tensor(int64)": np.int64}


def _buffer(item: Any) -> np.ndarray:
    """A zeroed array for a batch-one session's input (its shape known, batch fixed at 1)."""
    return np.zeros(item.shape, dtype=_INPUT_TYPES[item.type])


def _session(model: Path, batch: int | None = None) -> Any:
    """An onnxruntime session on one thread; ``batch`` fixes the batch dimension."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    if batch is not None:
        options.add_free_dimension_override_by_name("batch", batch)
    return onnxruntime.InferenceSession(
        str(model), options, providers=["CPUExecutionProvider"], disabled_optimizers=SLOWER_FUSIONS
    )


def check_manifest(manifest: Any, folder: Path) -> None:
    """The manifest has the fields of ``schemas/manifest.schema.json``, describes this
    package's action space and observation layout, names a model file inside its folder,
    and that file is the one it was written for.

    Raises:
        ValueError: naming the field that is wrong, or the mismatch.
    """
    errors = sorted(manifest_validator().iter_errors(manifest), key=lambda error: error.path)
    if errors:
        error = errors[0]
        raise ValueError(f"{folder}/manifest.json: {error.json_path}: {error.message}")
    size, actions = manifest["observation"]["size"], manifest["action_space"]["n"]
    if actions != NUM_ACTIONS or size != OBS_SIZE:
        raise ValueError(
            f"{folder}: the policy expects {size} observation floats and {actions} actions; "
            f"this environment has {OBS_SIZE} and {NUM_ACTIONS}"
        )
    blocks = {name: [block.start, block.stop] for name, block in OBS_LAYOUT.items()}
    if manifest["observation"]["blocks"] != blocks:
        raise ValueError(f"{folder}: the policy was exported for another observation layout")
    model = folder / manifest["model"]["file"]
    if not model.resolve().is_relative_to(folder.resolve()):
        raise ValueError(f"{folder}: the model file named in the manifest lies outside it")
    if not model.is_file():
        raise ValueError(f"{folder}: the model file {model.name} named in the manifest is missing")
    if hashlib.sha256(model.read_bytes()).hexdigest() != manifest["model"]["sha256"]:
        raise ValueError(f"{model} does not match the SHA-256 in its manifest")


def check_rules(manifest: dict[str, Any], rules: dict[str, Any]) -> None:
    """The env's rule configuration is the one the policy was trained for."""
    expected = dict(manifest["rule_config"])
    actual = dict(rules)
    if expected.get("start_level") == "random":
        expected.pop("start_level")
        actual.pop("start_level", None)
    differences = sorted(k for k in expected if expected[k] != actual.get(k))
    if differences:
        shown = ", ".join(
            f"{k}: policy {expected[k]!r}, env {actual.get(k)!r}" for k in differences
        )
        raise ValueError(f"the policy was trained for other rules ({shown})")
