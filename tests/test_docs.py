"""The repository stands on its own: every document the README links is in it, no link
leaves it, and every rule section the code cites (``§6.2``) exists in docs/rules.md. The
record speaks of dates and versions, never of numbered work periods."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
SECTION = re.compile(r"§\s?(\d+(?:\.\d+)?)")


def documents() -> list[Path]:
    return [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        ROOT / "BENCHMARKS.md",
        *sorted((ROOT / "docs").rglob("*.md")),
    ]


def test_every_linked_document_is_in_the_repository():
    checked = 0
    for document in documents():
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            path = (document.parent / target).resolve()
            assert path.is_relative_to(ROOT), f"{document.name} links outside: {target}"
            assert path.exists(), f"{document.name} links a missing file: {target}"
            checked += 1
    assert checked >= 5


def test_nothing_points_at_the_shared_folder_outside_the_repository():
    sources = [*ROOT.glob("*.md"), *ROOT.glob("docs/*.md"), *ROOT.glob("configs/*.yaml")]
    for package in ("shengji_env", "agents", "train", "tests", "benchmarks", "notebooks"):
        sources += [p for p in (ROOT / package).rglob("*") if p.suffix in (".py", ".ipynb")]
    outside = "../" + "shared"  # spelt in two so that this file does not match itself
    offenders = [p.name for p in sources if outside in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_every_cited_rule_section_exists():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", rules, flags=re.MULTILINE))
    assert {"1", "4", "6.2", "8"} <= headings
    cited: set[str] = set()
    for package in ("shengji_env", "agents", "train"):
        for path in (ROOT / package).rglob("*.py"):
            cited |= set(SECTION.findall(path.read_text(encoding="utf-8")))
    assert len(cited) > 5
    assert sorted(cited - headings) == []


ORDINAL = (
    r"(?:(?:twenty|thirty|forty|fifty)-)?(?:first|second|third|fourth|fifth|sixth|seventh|"
    r"eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|"
    r"seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth|fiftieth|\d+(?:st|nd|rd|th))"
)
WORK_PERIOD = re.compile(
    rf"\b{ORDINAL}(?:(?:,|\s+to|\s+and)\s+{ORDINAL})*[\s#-]+sessions?\b"
    r"|\bsessions?\s+\d+|\bsession-\d+"
    r"|\b(?:this|that|each|per|previous|same|earlier|last)\s+(?:working\s+)?sessions?\b"
    r"|\bthe\s+session(?:'s)?\s+(?:start|end)|\b(?:start|end)\s+of\s+the\s+session\b"
    r"|\bonce\s+(?:a|per)\s+session\b|\bthis\s+session\b",
    flags=re.IGNORECASE,
)


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    suffixes = {".md", ".py", ".yaml", ".yml", ".toml", ".ipynb", ".js", ".mjs", ".txt", ""}
    return [ROOT / name for name in listed if Path(name).suffix in suffixes]


@pytest.mark.parametrize(
    "text",
    [
        "(BENCHMARKS.md, thirty-fifth to fortieth sessions)",
        "the fortieth session",
        "in the twenty-fourth\n# session",
        "Session 40 (2026-12-07)",
        "sessions 25–39",
        "the 13th session",
        "the session-1 run",
        "PPO ran there, and this\nsession to update 144",
        "at the start of the\n  session, cores idle",
        "replaced once per session at most",
    ],
)
def test_the_work_period_pattern_finds_the_phrases_the_record_used(text):
    assert WORK_PERIOD.search(text)


@pytest.mark.parametrize(
    "text", ["a TableSession", "onnxruntime's session options", "the batch-one session"]
)
def test_the_work_period_pattern_leaves_other_sessions_alone(text):
    assert not WORK_PERIOD.search(text)


def test_nothing_in_the_repository_is_numbered_by_work_period():
    this_file = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)!r}"
        for path in tracked_text_files()
        if path.is_file() and path.resolve() != this_file
        for match in WORK_PERIOD.finditer(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []


def test_the_current_results_are_short():
    assert len((ROOT / "BENCHMARKS.md").read_bytes()) <= 30_000
