"""MkDocs hook: pages generated from their sources, so none can drift from it: the
environment reference from ``shengji_v1``'s own table (its docstring, whose observation
blocks a test keeps equal to ``OBS_LAYOUT``), and the home, results and changelog pages
from ``README.md``, ``BENCHMARKS.md`` and ``CHANGELOG.md``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shengji_env import shengji_v1

ROOT = Path(__file__).resolve().parents[2]


def readme() -> str:
    """The README with its links made relative to ``docs/``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target, page in {"](docs/": "](", "](BENCHMARKS.md)": "](results.md)"}.items():
        text = text.replace(target, page)
    return text.replace("](CHANGELOG.md)", "](changelog.md)")


GENERATED = {
    "{{ readme }}": readme,
    "{{ shengji_v1 }}": lambda: shengji_v1.__doc__ or "",
    "{{ benchmarks }}": lambda: (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8"),
    "{{ changelog }}": lambda: (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
}


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace each placeholder of :data:`GENERATED` with its source's text."""
    for placeholder, source in GENERATED.items():
        if placeholder in markdown:
            markdown = markdown.replace(placeholder, source())
    return markdown
