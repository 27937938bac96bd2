"""The repository explains itself (docs/design.md §5): code, templates, tests and docs name the behaviour or the rule
they are about, never the number of the ticket that asked for it, and they cite the repository's own design,
docs/design.md, not a design file a clone of the repository does not have.

A match inside an external address (a library's bug tracker, say) is allowed: that number means something to a
reader who follows the link."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What is read: the project's own text files, not the virtualenv, the build output or installed browser packages.
SKIPPED_DIRS = {".git", ".venv", "var", "node_modules", "__pycache__", "staticfiles", ".hypothesis", ".pytest_cache"}
TEXT_SUFFIXES = {".py", ".html", ".md", ".js", ".css", ".json", ".txt", ".po", ".sh", ".ini", ".toml", ".cfg",
                 ".yml", ".yaml", ".service", ".timer", ".conf"}
TEXT_NAMES = {"Procfile", "requirements.txt"}

URL = re.compile(r"https?://\S+")
TICKET = re.compile(
    r"\bissues? #?\d+"  # a ticket by number, in prose
    r"|\btickets? #?\d+"
    r"|\btest_(?:item|issue|ticket)_?\d+",  # a test named after a ticket
    re.IGNORECASE,
)
# The design file of the planning notes, which lives outside the repository (the name is split so that this
# file does not cite it itself).
OUTSIDE_DESIGN = re.compile(r"\b" + "DESIGN" + r"\.md\b")
DESIGN_DOC = ROOT / "docs" / "design.md"


def project_text_files() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if any(part in SKIPPED_DIRS for part in relative.parts) or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
            found.append(path)
    return found


def external(match: str, line: str) -> bool:
    """An external project's report named beside its address (its number, then a link to its tracker)."""
    number = re.search(r"\d+", match)
    return bool(number) and any(re.search(rf"/(?:issues|pull)/{number.group()}\b", url) for url in URL.findall(line))


def offending_lines(pattern: re.Pattern[str]) -> list[str]:
    """`path:line: text` of every line where `pattern` matches outside an external address."""
    found = []
    for path in project_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not a text file after all (the test fixtures hold a few binary files)
        for number, line in enumerate(text.splitlines(), 1):
            if any(not external(match.group(), line) for match in pattern.finditer(URL.sub(" ", line))):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:160]}")
    return found


def test_the_scan_reads_code_templates_tests_and_docs():
    read = {path.relative_to(ROOT).parts[0] for path in project_text_files()}
    assert {"rules_engine", "cards", "builder", "hangar", "templates", "static", "tests", "docs", "locale",
            "README.md"} <= read


def test_no_ticket_numbers_in_code_templates_tests_or_docs():
    found = offending_lines(TICKET)
    assert not found, ("Name the behaviour or the rule, not the ticket that asked for it:\n" + "\n".join(found))


def test_the_design_is_cited_as_docs_design_md():
    found = offending_lines(OUTSIDE_DESIGN)
    assert not found, ("Cite the repository's own design, docs/design.md (same section numbers):\n"
                       + "\n".join(found))


# The offending examples are written in two pieces so that this file passes its own test.
@pytest.mark.parametrize("line, offends", [
    ("a comment (iss" "ue 18) that names a ticket", True),
    ('"""Iss' 'ue 13 item 8: chunk sizes follow the measured cost."""', True),
    ("fuzzing (iss" "ue #8): schemathesis", True),
    ("def test_" "item8_real_workers_play():", True),
    ("a fix (tick" "et 12)", True),
    ("see https://github.com/celery/celery/issues/4161 for the upstream bug", False),
    ("celery iss" "ue 4161 (https://github.com/celery/celery/issues/4161)", False),
    ("iss" "ue 12 beside https://github.com/celery/celery/issues/4161", True),
    ("the list items of a menu, item counts, issued tokens", False),
    ("W5 with hardpoints: each weapon takes one free hardpoint it fits", False),
])
def test_the_ticket_pattern_tells_a_ticket_from_ordinary_words(line, offends):
    matches = TICKET.finditer(URL.sub(" ", line))
    assert any(not external(match.group(), line) for match in matches) is offends


def test_every_section_cited_exists_in_docs_design_md():
    """A citation such as `docs/design.md §2.3` names a section heading of the page."""
    headings = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\. ", DESIGN_DOC.read_text(encoding="utf-8"), re.MULTILINE))
    headings |= set(re.findall(r"^### (\d+\.\d+) ", DESIGN_DOC.read_text(encoding="utf-8"), re.MULTILINE))
    cited = re.compile(r"docs/design\.md((?:,? ?§\d+(?:\.\d+)?(?:\s*[-–]\s*§\d+(?:\.\d+)?)?)+)")
    missing = []
    for path in project_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for match in cited.finditer(text):
            for section in re.findall(r"§(\d+(?:\.\d+)?)", match.group(1)):
                if section not in headings:
                    missing.append(f"{path.relative_to(ROOT)}: §{section}")
    assert headings >= {"1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "3", "4", "5"}
    assert not missing, "Sections cited but not in docs/design.md:\n" + "\n".join(missing)
