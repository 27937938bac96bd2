"""The registry of game systems: the ONE way into a game for everything outside rules_engine.

    from rules_engine.systems import SYSTEMS, system
    game = system("hagmi")
    game.name_ja, game.section_keys, game.ruleset.validate(doc, catalog), game.default_section(card)
    game.simulator()   # the game's Simulator (rules_engine.simulation), imported on first use

Each game declares its entry in `rules_engine/<game>/system.py` (a `SystemEntry`, rules_engine/system_entry.py);
this module only collects them, in the order the site shows them. cards/ and builder/ import this module (and the game-neutral facades
rules_engine.construction, .simulation, .replay and rules_engine.core), never `rules_engine.<game>`: a test
(tests/rules_engine/test_registry.py) fails when they do, or when one game imports another.

To add a game: write its package (construction rules, engine, simulator), its `system.py`, and add it to `_GAMES`
below. To add a rule to a game: its construction module (the rule set the entry points at).
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping

from rules_engine.system_entry import SystemEntry

__all__ = ["SYSTEMS", "SystemEntry", "UnknownSystem", "system"]

_GAMES = ("hagmi", "mwda", "warcaster")


def _load() -> dict[str, SystemEntry]:
    games = {}
    for slug in _GAMES:
        entry = importlib.import_module(f"rules_engine.{slug}.system").SYSTEM
        assert entry.slug == slug, f"rules_engine.{slug}.system declares {entry.slug!r}"
        games[slug] = entry
    return games


SYSTEMS: Mapping[str, SystemEntry] = _load()


class UnknownSystem(LookupError):
    """No game system of that slug: the message lists the known ones."""


def system(slug: str) -> SystemEntry:
    try:
        return SYSTEMS[slug]
    except (KeyError, TypeError):
        raise UnknownSystem(f"unknown game system {slug!r}; known: {', '.join(SYSTEMS)}") from None


def slugs() -> tuple[str, ...]:
    return tuple(SYSTEMS)
