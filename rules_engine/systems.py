"""The registry of game systems: the ONE way into a game for everything outside rules_engine.

    from rules_engine.systems import SYSTEMS, system
    game = system("hagmi")
    game.name_ja, game.section_keys, game.ruleset.validate(doc, catalog), game.default_section(card)
    game.game_type.capabilities   # what the game declares it has: "positions", "draw_odds", ...
    game.simulator()   # the game's Simulator (rules_engine.simulation), imported on first use

Each game is one package whose `system.py` declares its entry, `SYSTEM` (a `SystemEntry`,
rules_engine/system_entry.py, which is a `GameHooks` with a declared `GameType`); this module only collects them, in
the order the site shows them: the three games of rules_engine/ (`BUILTIN_GAMES`), then the packages named by the
environment variable HANGAR_GAME_PACKAGES (dotted paths, separated by commas: a game that lives outside
rules_engine/, docs/architecture.md "Adding a game"). `register(entry)` takes a game at run time (a test's toy game,
tests/toygame/), `unregister(slug)` lets it go, and `registered(entry)` does both around a block. Every entry is
checked first (`entry_problems`): a declared capability without its hooks is refused, naming both.

SYSTEMS is one live mapping: what holds a view of it (cards/systems.py, rules_engine.construction.RULESETS) sees a
game come and go; what caches something derived from it registers a callback with `on_change`.

cards/ and builder/ import this module (and the game-neutral facades rules_engine.construction, .simulation,
.replay and rules_engine.core), never `rules_engine.<game>`: a test (tests/rules_engine/test_registry.py) fails when
they do, or when one game imports another.
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType

from rules_engine.simulation import SIMULATOR_MODULES
from rules_engine.system_entry import GameHooks, GameType, SystemEntry, entry_problems

__all__ = ["SYSTEMS", "SystemEntry", "GameHooks", "GameType", "UnknownSystem", "BadGameEntry", "system", "slugs",
           "register", "unregister", "registered", "on_change", "game_packages", "with_capability"]

BUILTIN_GAMES = ("rules_engine.hagmi", "rules_engine.mwda", "rules_engine.warcaster")
GAME_PACKAGES_ENV = "HANGAR_GAME_PACKAGES"  # more game packages, dotted paths separated by commas

_ENTRIES: dict[str, SystemEntry] = {}
SYSTEMS: Mapping[str, SystemEntry] = MappingProxyType(_ENTRIES)  # slug -> entry, in the site's order; read-only, live
_PACKAGES: dict[str, str] = {}  # slug -> the package the entry came from ("" for one registered by hand)
_LISTENERS: list[Callable[[], None]] = []


class UnknownSystem(LookupError):
    """No game system of that slug: the message lists the known ones."""


class BadGameEntry(ValueError):
    """A game's entry the registry cannot take: the message says which game and what is wrong."""


def game_packages(value: str | None = None) -> tuple[str, ...]:
    """The game packages to load: the built-in ones, then HANGAR_GAME_PACKAGES's (or `value`'s), each once."""
    extra = os.environ.get("HANGAR_GAME_PACKAGES", "") if value is None else value
    named = [part.strip() for part in extra.replace("\n", ",").split(",") if part.strip()]
    return tuple(dict.fromkeys((*BUILTIN_GAMES, *named)))


def entry_of(package: str) -> SystemEntry:
    """The entry that game package `package` declares (`<package>.system.SYSTEM`)."""
    try:
        module = importlib.import_module(f"{package}.system")
    except ModuleNotFoundError as error:
        raise BadGameEntry(f"{GAME_PACKAGES_ENV}: no game package {package!r} ({error})") from None
    entry = getattr(module, "SYSTEM", None)
    if entry is None:
        raise BadGameEntry(f"{package}.system declares no SYSTEM (a SystemEntry)")
    return entry


def register(entry: SystemEntry, *, package: str = "") -> SystemEntry:
    """Take a game into the registry, after checking its entry (BadGameEntry naming what is wrong); its slug must
    be new. Everything that caches what the registry holds is told (`on_change`)."""
    problems = entry_problems(entry)
    if problems:
        raise BadGameEntry("; ".join(problems))
    if entry.slug in SYSTEMS:
        raise BadGameEntry(f"game {entry.slug!r} is already registered (from {_PACKAGES[entry.slug] or 'register'})")
    _ENTRIES[entry.slug] = entry
    _PACKAGES[entry.slug] = package
    SIMULATOR_MODULES[entry.slug] = entry.simulator_module
    _changed()
    return entry


def unregister(slug: str) -> None:
    """Let a game go (a test's toy game when the test ends); the built-in games stay."""
    if _PACKAGES.get(slug) in BUILTIN_GAMES:
        raise BadGameEntry(f"game {slug!r} is built in: it cannot be unregistered")
    _ENTRIES.pop(slug, None)
    _PACKAGES.pop(slug, None)
    SIMULATOR_MODULES.pop(slug, None)
    _changed()


@contextmanager
def registered(entry: SystemEntry) -> Iterator[SystemEntry]:
    """The game registered for the block, and gone after it (with every cache derived from the registry)."""
    register(entry)
    try:
        yield entry
    finally:
        unregister(entry.slug)


def on_change(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` whenever a game comes or goes: a cache of something derived from the registry clears itself."""
    _LISTENERS.append(callback)
    return callback


def _changed() -> None:
    for callback in list(_LISTENERS):
        callback()


def _load() -> None:
    for package in game_packages():
        entry = entry_of(package)
        if package in BUILTIN_GAMES and entry.slug != package.rpartition(".")[2]:
            raise BadGameEntry(f"{package}.system declares {entry.slug!r}")
        register(entry, package=package)


def system(slug: str) -> SystemEntry:
    try:
        return SYSTEMS[slug]
    except (KeyError, TypeError):
        raise UnknownSystem(f"unknown game system {slug!r}; known: {', '.join(SYSTEMS)}") from None


def slugs() -> tuple[str, ...]:
    return tuple(SYSTEMS)


def package_of(slug: str) -> str:
    """The dotted path of the package a registered game came from ("" for one registered by hand)."""
    return _PACKAGES.get(slug, "")


def with_capability(capability: str) -> tuple[SystemEntry, ...]:
    """The games that declare `capability` (system_entry.CAPABILITIES) in their game type."""
    return tuple(entry for entry in SYSTEMS.values() if capability in entry.game_type.capabilities)


_load()
