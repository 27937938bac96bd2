"""Each game owns what it knows: outside `rules_engine/<game>/` and `templates/games/<game>/`, no code compares a
system's slug to a game's name ("if system == 'hagmi'"). The site asks the game instead, through its registry
entry (rules_engine/system_entry.py SystemEntry) and what the game shows (its rules_engine/<game>/presentation.py:
flags, field names, keys of words, template names, and its own words: report.py, positionwords.py, cardtext.py).

What is left is listed in ALLOWED with why. The list only shrinks: a listed line that no longer exists fails too, so
whoever removes a comparison removes its entry."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules_engine.core.gamewords import CardWords, PositionWords, ReportWords
from rules_engine.system_entry import Presentation
from rules_engine.systems import SYSTEMS

ROOT = Path(__file__).resolve().parents[1]
GAMES = tuple(SYSTEMS)
FOLDERS = ("builder", "cards", "hangar", "rules_engine", "templates")
_SLUG = "|".join(map(re.escape, GAMES))
# `== "hagmi"`, `"hagmi" ==`, `"hagmi" in`, `in ("mwda", "warcaster")`, in Python and in Django templates
COMPARISON = re.compile(
    rf"""(?:==|!=)\s*["'](?:{_SLUG})["']"""
    rf"""|["'](?:{_SLUG})["']\s*(?:==|!=|\bin\b|\bnot\s+in\b)"""
    rf"""|\bin\s*[(\[{{][^)\]}}]*["'](?:{_SLUG})["']"""
)

# (file, the line as written, stripped) -> why it is still there. Only shrinks.
ALLOWED: dict[tuple[str, str], str] = {}


def _inside_a_game(relative: Path) -> bool:
    parts = relative.parts
    return (parts[:1] == ("rules_engine",) and len(parts) > 2 and parts[1] in GAMES) or \
        (parts[:2] == ("templates", "games") and len(parts) > 3 and parts[2] in GAMES)


def slug_comparisons() -> list[tuple[str, int, str]]:
    """(file, line number, the line stripped) of every comparison with a game's slug outside the games."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT)
            if path.suffix not in (".py", ".html") or "migrations" in relative.parts or _inside_a_game(relative):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if COMPARISON.search(line):
                    found.append((relative.as_posix(), number, line.strip()))
    return found


def test_no_code_outside_the_games_compares_a_system_slug_but_the_listed_lines():
    unlisted = [f"{file}:{number}: {line}" for file, number, line in slug_comparisons()
                if (file, line) not in ALLOWED]
    assert not unlisted, ("game knowledge outside the game: ask the registry entry or the game's presentation "
                          "(rules_engine/<game>/presentation.py) instead of comparing its slug:\n" + "\n".join(unlisted))


def test_the_list_of_what_is_left_only_shrinks():
    """An allowed line that is gone (or moved to another file) leaves the list, so the list never hides a new one."""
    present = {(file, line) for file, _number, line in slug_comparisons()}
    gone = [f"{file}: {line}" for file, line in ALLOWED if (file, line) not in present]
    assert not gone, "no longer there, remove from ALLOWED in tests/test_game_boundaries.py:\n" + "\n".join(gone)


@pytest.mark.parametrize("line", [
    'if system == "hagmi":', "{% if system == 'mwda' %}", 'x = "warcaster" in games', 'if s in ("mwda", "x"):',
    'if doc.get("system") != "warcaster":',
])
def test_the_check_sees_a_comparison(line):
    assert COMPARISON.search(line)


@pytest.mark.parametrize("line", ['system("hagmi")', 'SYSTEMS["mwda"]', 'label("warcaster", "stat", key)',
                                  'if info.system in (system, None)'])
def test_the_check_lets_a_use_that_compares_nothing_pass(line):
    assert not COMPARISON.search(line)


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_declares_what_it_shows_with_its_templates_in_its_own_folder(slug):
    shows = SYSTEMS[slug].presentation
    assert isinstance(shows, Presentation)
    for template in (shows.card_template, shows.card_body_template):
        assert template.startswith(f"games/{slug}/"), template
        assert (ROOT / "templates" / template).is_file(), template
    assert shows.category_field in ("category", "kind")
    assert shows.cost_chart in ("curve", "per_unit")
    assert shows.cost_chart_title in ("cost_curve", "points", "deployment_cost")
    assert shows.board in ("cards", "table")
    assert isinstance(shows.report, ReportWords) and shows.report.sentences
    assert isinstance(shows.position_words, PositionWords)
    assert isinstance(shows.card_text, CardWords)
    assert shows.goldfish in ("never_plays", "stationary")
    assert shows.cost_chart != "curve" or set(shows.curve_sections) <= set(SYSTEMS[slug].section_keys)
    assert set(shows.field_widgets.values()) <= {"firepower", "known_words"}
    assert shows.picker_also_adds_to in ("", *SYSTEMS[slug].section_keys)
    assert isinstance(shows.entry_loadouts, bool)


SITE_WORDS = ("builder/web/gamereport.py", "builder/web/positionboard.py", "builder/web/cardtext.py")
_NAMED = re.compile(rf"""["'](?:{_SLUG})["']""")


@pytest.mark.parametrize("path", SITE_WORDS)
def test_the_sites_report_position_and_card_words_name_no_game(path):
    """A replay's sentences, a position's words and a card's text are each game's own (rules_engine/<game>/report.py,
    positionwords.py, cardtext.py): the site's modules that show them name no game at all."""
    named = [line.strip() for line in (ROOT / path).read_text(encoding="utf-8").splitlines() if _NAMED.search(line)]
    assert not named, "\n".join(named)


@pytest.mark.parametrize("slug", GAMES)
def test_each_games_words_are_written_in_its_own_package(slug):
    shows = SYSTEMS[slug].presentation
    written = [*shows.report.sentences.values(), shows.report.together, shows.position_words.decision,
               shows.position_words.action, shows.card_text.describe]
    elsewhere = [f"{function.__module__}.{function.__name__}" for function in written
                 if not function.__module__.startswith(f"rules_engine.{slug}.")]
    assert not elsewhere, elsewhere
