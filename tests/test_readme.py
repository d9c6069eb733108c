"""Every Python snippet in the README runs as it is written."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
SNIPPETS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def test_the_readme_has_snippets():
    assert len(SNIPPETS) >= 3


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_a_readme_snippet_runs(snippet, capsys):
    exec(compile(snippet, "README.md", "exec"), {})
