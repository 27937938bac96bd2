"""The registry of game systems (rules_engine/systems.py) is the only way into a game: cards/, builder/
and hangar/ never import `rules_engine.<game>`, and no game imports another. Every game's entry is complete."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cards.systems import SECTION_LABELS, SYSTEMS as CARD_SYSTEMS
from rules_engine.construction import RULESETS
from rules_engine.simulation import simulator_for
from rules_engine.systems import SYSTEMS, UnknownSystem, system

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(SYSTEMS)


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports (absolute names; `from . import x` resolved against the file's package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py") if "migrations" not in path.parts)


def test_the_web_layer_reaches_a_game_only_through_the_registry():
    offenders = []
    for path in python_files("builder", "cards", "hangar"):
        for module in imported_modules(path):
            if any(module == f"rules_engine.{game}" or module.startswith(f"rules_engine.{game}.") for game in GAMES):
                offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not offenders, "use rules_engine.systems (the registry) instead:\n" + "\n".join(sorted(offenders))


def test_no_game_imports_another_game():
    offenders = []
    for game in GAMES:
        for path in python_files(f"rules_engine/{game}"):
            for module in imported_modules(path):
                for other in GAMES:
                    if other != game and (module == f"rules_engine.{other}" or module.startswith(f"rules_engine.{other}.")):
                        offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not offenders, "\n".join(sorted(offenders))


def test_the_core_imports_no_game():
    offenders = [f"{path.relative_to(ROOT)} imports {module}" for path in python_files("rules_engine/core")
                 for module in imported_modules(path) if any(module.startswith(f"rules_engine.{g}") for g in GAMES)]
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_entry_is_complete(slug):
    game = system(slug)
    assert game.slug == slug and game.name and game.name_ja
    assert game.ruleset is RULESETS[slug] and game.ruleset.system == slug
    assert set(game.section_labels) == set(game.section_keys), "a short label for every section, no other"
    assert all(label.en and label.ja for label in game.section_labels.values())
    assert simulator_for(slug).system == slug
    assert game.simulator() is simulator_for(slug)
    assert game.default_section({}) in game.section_keys
    assert game.cost_fields


def test_cards_systems_is_a_view_of_the_registry():
    assert list(CARD_SYSTEMS) == list(SYSTEMS)
    for slug, game in SYSTEMS.items():
        assert CARD_SYSTEMS[slug] == {"name": game.name, "name_ja": game.name_ja, "sections": list(game.section_keys)}
        for key, label in game.section_labels.items():
            assert SECTION_LABELS[key] == {"ja": label.ja, "en": label.en}


def test_default_sections_follow_each_games_rules():
    """H3/H7: a HAGMI card goes to the deck of its frame, a 秘策-only card to 秘策; Warcaster cyphers to the rack."""
    hagmi, warcaster, mwda = system("hagmi"), system("warcaster"), system("mwda")
    assert hagmi.default_section({"category": "unit", "frame": "black"}) == "weapons"
    assert hagmi.default_section({"category": "tactic", "frame": "blue"}) == "tactics"
    assert hagmi.default_section({"category": "tactic", "frame": "white"}) == "secret"
    assert hagmi.default_section({"category": "design"}) == "secret"
    assert warcaster.default_section({"kind": "cypher"}) == "rack"
    assert warcaster.default_section({"kind": "warjack"}) == "force"
    assert mwda.default_section({"points": 40}) == "army"
    assert mwda.card_cost({"points": 40}) == 40 and warcaster.card_cost({"cst": 3}) == 3


def test_only_hagmi_has_draw_odds_and_opponent_only_cards():
    assert [slug for slug, game in SYSTEMS.items() if game.odds] == ["hagmi"]
    assert set(system("hagmi").opponent_categories) == {"beast", "mothership"}


def test_an_unknown_system_is_named_with_the_known_ones():
    with pytest.raises(UnknownSystem, match="unknown game system 'chess'; known: hagmi, mwda, warcaster"):
        system("chess")


def test_reads_never_import_the_write_package():
    """builder/selectors.py (reads) imports nothing of builder.services (writes); both use builder/errors.py."""
    modules = imported_modules(ROOT / "builder" / "selectors.py")
    assert not [m for m in modules if m == "builder.services" or m.startswith("builder.services.")], modules
