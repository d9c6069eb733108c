"""Running one of the docs' `python examples/...` lines verbatim."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECIPES = (ROOT / "docs" / "recipes.md").read_text(encoding="utf-8")


def run_readme_line(script: str) -> str:
    """Runs the one line ``python examples/<script> ...`` of docs/recipes.md with this
    Python, from the repository root; returns its output after checking that it exited 0."""
    pattern = rf"^python examples/{re.escape(script)}.*$"
    (command,) = re.findall(pattern, RECIPES, flags=re.MULTILINE)
    done = subprocess.run(
        [sys.executable, *shlex.split(command)[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
