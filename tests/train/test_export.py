"""ONNX export: parity with PyTorch, golden vectors, manifest checks, an agent without torch."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from shengji_env.agents import load_agent
from shengji_env.agents.network import make_network
from shengji_env.agents.onnx_agent import OnnxAgent
from shengji_env.agents.policy_file import load_checkpoint, save_checkpoint
from shengji_env.env import raw_env
from shengji_env.train.export import export_policy, golden_positions
from tests.benchmark_scripts import load_script

ROOT = Path(__file__).parents[2]
MODEL = ROOT / "models" / "standalone-v8"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    export_policy(MODEL / "policy.pt", out)
    return out


def softmax(logits):
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


@pytest.mark.slow
def test_onnx_and_torch_agree_on_thousands_of_positions(exported):
    data = load_checkpoint(MODEL / "policy.pt")
    net = make_network(data["config"])
    net.load_state_dict(data["model"])
    observations, masks, _ = golden_positions(data["config"], 2000, seed=5)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(observations), torch.from_numpy(masks))
    onnx_logits, onnx_values = OnnxAgent(str(exported)).logits(observations, masks)
    legal = masks.astype(bool)
    np.testing.assert_allclose(softmax(onnx_logits), softmax(logits.numpy()), atol=1e-5)
    np.testing.assert_allclose(onnx_logits[legal], logits.numpy()[legal], atol=1e-4, rtol=1e-5)
    np.testing.assert_allclose(onnx_values, values.numpy(), atol=1e-4)


def test_golden_vectors_in_the_manifest_reproduce(exported):
    manifest = json.loads((exported / "manifest.json").read_text())
    agent = OnnxAgent(str(exported))
    golden = manifest["golden"]
    observations = np.array([g["observation"] for g in golden], dtype=np.float32)
    masks = np.array([g["action_mask"] for g in golden], dtype=np.int8)
    logits, values = agent.logits(observations, masks)
    np.testing.assert_allclose(logits, np.array([g["logits"] for g in golden]), atol=1e-4)
    np.testing.assert_allclose(values, [g["value"] for g in golden], atol=1e-4)
    assert manifest["observation"]["blocks"]["hand"] == [0, 54]
    assert manifest["action_space"]["cards"][53] == "BJ"
    assert manifest["rule_config"]["decks"] == 2


def test_the_onnx_agent_plays_a_legal_hand_without_importing_torch(exported):
    code = (
        "import sys; from shengji_env.agents import load_agent\n"
        "from shengji_env.env import raw_env\n"
        f"agent = load_agent('onnx:{exported}')\n"
        "env = raw_env(decks=2); env.reset(seed=3)\n"
        "for _ in env.agent_iter():\n"
        "    o, r, t, tr, info = env.last()\n"
        "    env.step(None if t or tr else agent.act(o, info))\n"
        "assert env.game.result is not None\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_manifest_checks(exported, tmp_path):
    agent = load_agent(f"onnx:{exported}")
    env = raw_env(decks=1)
    env.reset(seed=0)
    observation, _, _, _, info = env.last()
    with pytest.raises(ValueError, match=r"trained for other rules.*decks: policy 2, env 1"):
        agent.act(observation, info)
    with pytest.raises(ValueError, match=r"holds no manifest\.json"):
        OnnxAgent(str(tmp_path))
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    (tampered / "manifest.json").write_text((exported / "manifest.json").read_text())
    (tampered / "policy.onnx").write_bytes(
        (exported / "policy.onnx").read_bytes()[:-10] + b"0" * 10
    )
    with pytest.raises(ValueError, match=r"does not match the SHA-256"):
        OnnxAgent(str(tampered))
    (tampered / "manifest.json").write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        OnnxAgent(str(tampered))


def test_bot_with_an_exported_model_plays_a_whole_hand(exported):
    import json

    from shengji_env.frontends.protocol import request_for
    from shengji_env.rules import Game, Phase, RuleConfig, parse_cards

    process = subprocess.Popen(
        [sys.executable, "-m", "shengji_env.frontends.cli", "bot", "--model", str(exported)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    game = Game(RuleConfig(decks=2), seed=8)
    try:
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
            process.stdin.write(json.dumps(request_for(game, game.current_player)) + "\n")
            process.stdin.flush()
            response = json.loads(process.stdout.readline())
            assert "error" not in response, response
            game.step(parse_cards(response["cards"]))
        wrong_rules = {**request_for(Game(RuleConfig(decks=1), seed=1), 0), "rules": {"decks": 1}}
        process.stdin.write(json.dumps(wrong_rules) + "\n")
        process.stdin.flush()
        assert "this bot plays" in json.loads(process.stdout.readline())["error"]
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert game.result is not None


def test_serve_command_with_an_exported_model_plays_a_whole_hand(exported):
    import json
    import urllib.request

    from shengji_env.frontends.protocol import request_for
    from shengji_env.rules import Game, Phase, RuleConfig, parse_cards

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "shengji_env.frontends.cli",
            "serve",
            "--model",
            str(exported),
            "--port",
            "0",
        ],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        line = server.stderr.readline()
        url = line.split("serving on ")[1].split()[0]
        game = Game(RuleConfig(decks=2), seed=12)
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
            body = json.dumps(request_for(game, game.current_player)).encode()
            request = urllib.request.Request(url + "/decide", data=body, method="POST")
            with urllib.request.urlopen(request, timeout=30) as response:
                game.step(parse_cards(json.loads(response.read())["cards"]))
        assert game.result is not None
    finally:
        server.terminate()
        server.wait(timeout=30)


SHIPPED = sorted(path.name for path in (ROOT / "models").iterdir() if path.is_dir())


@pytest.mark.parametrize("model", SHIPPED)
def test_the_latency_benchmark_runs_on_every_shipped_export(model, tmp_path):
    latency = load_script("onnx_latency")
    export_policy(ROOT / "models" / model / "policy.pt", tmp_path)
    rules = json.loads((tmp_path / "manifest.json").read_text())["rule_config"]
    times, cpu = latency.decision_times(OnnxAgent(str(tmp_path)), rules, 20, warm_up=2)
    assert len(times) == 20 and (times > 0).all() and cpu >= 0


def _manifest_with(exported, change) -> dict:
    manifest = json.loads((exported / "manifest.json").read_text())
    change(manifest)
    return manifest


HOSTILE_MANIFESTS = [  # (how the manifest is changed, what the refusal must say)
    (lambda m: m["model"].update(file="../../../../etc/passwd"), r"\$\.model\.file"),
    (lambda m: m["model"].update(file="/etc/passwd"), r"\$\.model\.file"),
    (lambda m: m["model"].update(file=".."), r"\$\.model\.file"),
    (lambda m: m["model"].update(file=7), r"\$\.model\.file: 7 is not of type 'string'"),
    (lambda m: m.pop("observation"), r"\$: 'observation' is a required property"),
    (lambda m: m.pop("model"), r"\$: 'model' is a required property"),
    (lambda m: m["model"].pop("sha256"), r"\$\.model: 'sha256' is a required property"),
    (lambda m: m["model"].update(sha256="x"), r"\$\.model\.sha256"),
    (lambda m: m.update(format="other"), r"\$\.format: 'shengji-policy' was expected"),
    (lambda m: m["observation"].update(size="big"), r"\$\.observation\.size"),
    (lambda m: m["action_space"].update(n=None), r"\$\.action_space\.n"),
]


@pytest.mark.parametrize(("change", "message"), HOSTILE_MANIFESTS)
def test_a_hostile_manifest_is_refused_naming_its_field(exported, tmp_path, change, message):
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "policy.onnx").write_bytes((exported / "policy.onnx").read_bytes())
    (folder / "manifest.json").write_text(json.dumps(_manifest_with(exported, change)))
    with pytest.raises(ValueError, match=message):
        OnnxAgent(str(folder))


@pytest.mark.parametrize("text", ["[1, 2]", '"a manifest"', "null"])
def test_a_manifest_that_is_no_mapping_is_refused(tmp_path, text):
    (tmp_path / "manifest.json").write_text(text)
    with pytest.raises(ValueError, match=r"manifest\.json: \$: .* is not of type 'object'"):
        OnnxAgent(str(tmp_path))


def test_a_model_file_linked_from_outside_its_folder_is_refused(exported, tmp_path):
    outside = tmp_path / "elsewhere.onnx"
    outside.write_bytes((exported / "policy.onnx").read_bytes())
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "policy.onnx").symlink_to(outside)
    (folder / "manifest.json").write_text((exported / "manifest.json").read_text())
    with pytest.raises(ValueError, match="lies outside it"):
        OnnxAgent(str(folder))


def test_the_bot_command_refuses_a_hostile_manifest_without_a_traceback(exported, tmp_path):
    folder = tmp_path / "listed"
    folder.mkdir()
    (folder / "manifest.json").write_text("[]")
    done = subprocess.run(
        [sys.executable, "-m", "shengji_env.frontends.cli", "bot", "--model", str(folder)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2 and "is not of type 'object'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_weights_that_are_not_numbers_are_refused_at_load(tmp_path, bad):
    data = load_checkpoint(MODEL / "policy.pt")
    name = next(iter(data["model"]))
    data["model"][name] = data["model"][name].clone()
    data["model"][name].view(-1)[0] = bad
    save_checkpoint(tmp_path / "policy.pt", data)
    with pytest.raises(ValueError, match=rf"weight '{name}' holds values that are not numbers"):
        load_agent(f"ppo:{tmp_path}")
