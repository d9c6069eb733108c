"""The package as a user installs it: a wheel built from this tree, installed in a fresh
venv, adds the one top-level name ``shengji_env``, carries the compiled core and the default
bot, and its ``shengji`` command plays that bot from the package, not from the clone."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

from shengji_env import __version__
from shengji_env.agents.shipped import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, ROOT, cwd=out)
    (built,) = out.glob("shengji_env-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel and the pinned torch (which plays the default bot)."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=True)
    pip = [home / "bin" / "python", "-m", "pip", "install", "--quiet"]
    run(*pip, f"{wheel}[serve]", "torch==2.13.0", cwd=home)
    return home


def test_the_wheel_adds_one_top_level_name(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"shengji_env-{__version__}.dist-info"
        top_level = archive.read(f"{info}/top_level.txt").decode().split()
        record = archive.read(f"{info}/RECORD").decode().splitlines()
    assert top_level == ["shengji_env"]
    roots = {line.split(",")[0].split("/")[0] for line in record}
    assert roots == {"shengji_env", info}
    assert f"shengji_env/models/{DEFAULT_MODEL}/policy.pt" in names
    assert any(name.startswith("shengji_env/_core") for name in names)
    assert "shengji_env/frontends/static/table.js" in names


def test_the_installed_command_plays_the_default_bot_from_the_package(installed, tmp_path):
    python, shengji = installed / "bin" / "python", installed / "bin" / "shengji"
    assert DEFAULT_MODEL in run(shengji, "play", "--help", cwd=tmp_path)
    where = run(
        python, "-c",
        "from shengji_env.agents.shipped import DEFAULT_MODEL, shipped_model_path; "
        "from shengji_env.core import load_core; "
        "print(shipped_model_path(DEFAULT_MODEL)); print(load_core() is not None)",
        cwd=tmp_path,
    ).split()  # fmt: skip
    assert Path(where[0]).is_relative_to(installed) and where[1] == "True"
    out = tmp_path / "arena.json"
    run(shengji, "arena", "--agents", "default", "heuristic", "--deals", "1", "--out", out,
        cwd=tmp_path)  # fmt: skip
    result = json.loads(out.read_text())
    assert result["agents"] == ["default", "heuristic"] and result["finished_deals"] == 1


def test_the_installed_web_table_serves_its_page_from_the_package(installed, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [installed / "bin" / "shengji", "web", "--opponents", "heuristic", "--port", port]
    server = subprocess.Popen(
        [str(part) for part in command], cwd=tmp_path, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        pages = {}
        deadline = time.monotonic() + 120
        for name in ("", "table.js", "api/state"):
            while name not in pages:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}") as answer:
                        pages[name] = answer.read().decode()
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline
                    time.sleep(0.3)
        assert "<html" in pages[""].lower() and "fetch" in pages["table.js"]
        assert json.loads(pages["api/state"])["phase"]
    finally:
        server.terminate()
        server.wait(timeout=30)
