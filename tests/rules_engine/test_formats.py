"""The registry of data formats (rules_engine/formats/__init__.py): each format's machinery is game-neutral, and a game
joins a format with a module of its own, named in its registry entry (`data_formats`)."""
from __future__ import annotations

import pytest

from rules_engine.formats import FORMATS, game_part, games
from rules_engine.formats.battlescribe import community_game
from rules_engine.formats.battlescribe.export import Game, game
from rules_engine.systems import SYSTEMS
from tests.rules_engine.test_registry import imported_modules, python_files

GAMES = tuple(SYSTEMS)


def test_a_formats_machinery_imports_no_game():
    """What every game shares (files, schema, the export, the roster XML) reaches a game only through the registry."""
    offenders = [f"{path} imports {module}" for path in python_files("rules_engine/formats")
                 for module in imported_modules(path)
                 if any(module == f"rules_engine.{g}" or module.startswith(f"rules_engine.{g}.") for g in GAMES)]
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("slug", GAMES)
def test_each_games_part_of_a_format_is_a_module_of_its_own_package(slug):
    for name, module in SYSTEMS[slug].data_formats.items():
        assert name in FORMATS, name
        assert module.startswith(f"rules_engine.{slug}."), module
        assert game_part(name, slug) is not None


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_declares_how_its_cards_look_in_the_battlescribe_export(slug):
    assert slug in games("battlescribe")
    assert isinstance(game_part("battlescribe", slug).EXPORT, Game)
    assert game(slug) is game_part("battlescribe", slug).EXPORT


def test_the_communitys_battlescribe_data_and_rosters_are_read_by_the_game_whose_part_reads_them():
    assert community_game() == "warcaster"
    part = game_part("battlescribe", "warcaster")
    assert callable(part.read_community_data) and callable(part.read_community_roster)
    assert callable(part.write_community_roster) and SYSTEMS["warcaster"].writes_rosters("battlescribe")
    for slug in GAMES:
        if slug != "warcaster":
            assert not hasattr(game_part("battlescribe", slug), "read_community_data")


def test_a_game_without_a_part_of_a_format_has_none():
    assert game_part("battlescribe", "no-such-game") is None
    assert game_part("no-such-format", "warcaster") is None
