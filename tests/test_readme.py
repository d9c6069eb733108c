"""Every Python snippet in the README and the docs' guides runs as it is written."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", "docs/environment.md"]  # design.md sketches; replay.md reads a file
SNIPPETS = [
    (page, snippet)
    for page in PAGES
    for snippet in re.findall(
        r"```python\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), flags=re.DOTALL
    )
]


def test_the_pages_have_snippets():
    assert len(SNIPPETS) >= 6
    assert any(page == "README.md" for page, _ in SNIPPETS)


@pytest.mark.parametrize(
    ("page", "snippet"), SNIPPETS, ids=[f"{page}-{i}" for i, (page, _) in enumerate(SNIPPETS)]
)
def test_a_snippet_runs(page, snippet, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(snippet, page, "exec"), {})
