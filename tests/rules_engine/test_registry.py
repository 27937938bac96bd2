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


# --- the registry as a typed interface: the game type, the hooks, the capabilities -------------------------------

ENGINE_OPTIONS = {"hagmi": "rules_engine.hagmi.game", "mwda": "rules_engine.mwda.game",
                  "warcaster": "rules_engine.warcaster.game"}


@pytest.mark.parametrize("slug", GAMES)
def test_every_entry_is_a_game_with_its_required_and_optional_hooks(slug):
    from rules_engine.system_entry import GameHooks, OptionalHooks, entry_problems

    entry = system(slug)
    assert isinstance(entry, GameHooks) and isinstance(entry, OptionalHooks)
    assert entry_problems(entry) == []


@pytest.mark.parametrize("slug", GAMES)
def test_each_games_maximum_length_is_its_engines_default_and_its_bounds(slug):
    """The game type's max_length (HAGMI max_turns 60, MWDA max_rounds 10, Warcaster W16's 3 rounds of 5 turns) is
    what the engine plays by default and what its bounds allow by default."""
    import importlib

    entry = system(slug)
    defaults = importlib.import_module(ENGINE_OPTIONS[slug]).DEFAULT_OPTIONS
    assert entry.game_type.max_length == {option: defaults[option] for option in entry.game_type.max_length}
    assert entry.game_type.max_length == {k: default for k, (default, _most) in entry.bounds.length_options.items()}


def test_the_three_games_declare_what_they_are():
    """Two seats each (HAGMI's co-op seats the 機獣 side's procedure opposite the list); chance in all three; hands
    and decks hidden in the card games, MWDA's table in plain sight."""
    hagmi, mwda, warcaster = (system(slug).game_type for slug in ("hagmi", "mwda", "warcaster"))
    assert (hagmi.players, mwda.players, warcaster.players) == (2, 2, 2)
    assert hagmi.chance == warcaster.chance == {"dice", "shuffles"} and mwda.chance == {"dice"}
    assert (hagmi.information, mwda.information, warcaster.information) == ("imperfect", "perfect", "imperfect")
    assert hagmi.cooperative and not mwda.cooperative and not warcaster.cooperative
    assert "secret" in hagmi.hidden  # H20: the opponent sees how many, not which
    assert {slug for slug in GAMES if "positions" in system(slug).game_type.capabilities} == set(GAMES)
    assert [e.slug for e in SYSTEMS.values() if "draw_odds" in e.game_type.capabilities] == ["hagmi"]
    assert [e.slug for e in SYSTEMS.values() if "roster_formats" in e.game_type.capabilities] == ["warcaster"]


def _with_type(entry, **changes):
    import dataclasses

    return dataclasses.replace(entry, game_type=dataclasses.replace(entry.game_type, **changes))


def test_a_declared_capability_without_its_hook_is_refused():
    import dataclasses

    from rules_engine.system_entry import entry_problems
    from rules_engine.systems import BadGameEntry, register

    mwda = system("mwda")
    claims_odds = _with_type(dataclasses.replace(mwda, slug="oddsless", ruleset=dataclasses.replace(
        mwda.ruleset, system="oddsless")), capabilities=mwda.game_type.capabilities | {"draw_odds"})
    assert entry_problems(claims_odds) == ["game 'oddsless': declares 'draw_odds' without odds, odds_error"]
    with pytest.raises(BadGameEntry, match="declares 'draw_odds' without odds, odds_error"):
        register(claims_odds)
    assert "oddsless" not in SYSTEMS


def test_a_hook_its_game_type_does_not_declare_is_refused():
    from rules_engine.system_entry import entry_problems

    hagmi = system("hagmi")
    quiet = _with_type(hagmi, capabilities=hagmi.game_type.capabilities - {"sample_hands"})
    assert entry_problems(quiet) == ["game 'hagmi': provides sample_hand but does not declare 'sample_hands' in its "
                                     "game type"]


def test_a_game_type_of_unknown_words_or_a_length_its_bounds_do_not_say_is_refused():
    from rules_engine.system_entry import entry_problems

    mwda = system("mwda")
    assert entry_problems(_with_type(mwda, chance=frozenset({"dice", "coins"}))) == [
        "game 'mwda': chance is of dice, shuffles, not coins"]
    assert entry_problems(_with_type(mwda, information="partial")) == [
        "game 'mwda': information is perfect or imperfect, not 'partial'"]
    assert entry_problems(_with_type(mwda, max_length={"max_rounds": 12})) == [
        "game 'mwda': max_length {'max_rounds': 12} is not its bounds' length options {'max_rounds': 10}"]
    assert entry_problems(object()) == [
        "object is not a game's entry (GameHooks): it has no slug, name, name_ja, game_type, ruleset, section_labels, "
        "cost_fields, simulator_module, bounds, presentation, section_keys, default_section, section_takes, "
        "card_cost, simulator, names"]


def test_a_game_is_registered_and_let_go_and_a_built_in_game_stays():
    from rules_engine.systems import BadGameEntry, register, registered, unregister
    from tests.toygame.system import SYSTEM as TOY

    with registered(TOY):
        assert list(SYSTEMS) == [*GAMES, "toyduel"] and system("toyduel") is TOY
        assert RULESETS["toyduel"] is TOY.ruleset and CARD_SYSTEMS["toyduel"]["sections"] == ["deck"]
        with pytest.raises(BadGameEntry, match="already registered"):
            register(TOY)
    assert list(SYSTEMS) == list(GAMES)
    with pytest.raises(BadGameEntry, match="built in"):
        unregister("hagmi")


def test_more_game_packages_come_from_hangar_game_packages():
    """A deployment names a game's package in the environment; the registry loads it after the built-in three."""
    import os
    import subprocess
    import sys

    from rules_engine.systems import game_packages

    assert game_packages("tests.toygame, tests.toygame") == (
        "rules_engine.hagmi", "rules_engine.mwda", "rules_engine.warcaster", "tests.toygame")
    code = ("from rules_engine.systems import SYSTEMS; from rules_engine.simulation import simulator_for; "
            "print(list(SYSTEMS), simulator_for('toyduel').system)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                           env={**os.environ, "HANGAR_GAME_PACKAGES": "tests.toygame"})
    assert found.stdout.split() == ["['hagmi',", "'mwda',", "'warcaster',", "'toyduel']", "toyduel"]
    missing = subprocess.run([sys.executable, "-c", "import rules_engine.systems"], capture_output=True, text=True,
                             cwd=ROOT, env={**os.environ, "HANGAR_GAME_PACKAGES": "no.such.game"})
    assert missing.returncode != 0 and "HANGAR_GAME_PACKAGES: no game package 'no.such.game'" in missing.stderr
