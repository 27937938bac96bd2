"""BattleScribe, the community's list-building tool, in Hangar: its data (a game system and its catalogues) in and out,
and its rosters (docs/data-packages.md "BattleScribe data", docs/list-formats.md "BattleScribe rosters").

The format's game-neutral part is here, without Django:

- files.py: reading the files (zips, size limits, defusedxml, the published content model) into `Document`s;
- schema.py: the published BattleScribe content model (and the XSDs in xsd/ generated from it);
- export.py: any game's package as BattleScribe data, each card's JSON in a "Hangar card" profile;
- hangar.py: reading such data back into the package it came from.

What a game makes of BattleScribe is the game's own part (rules_engine/<game>/battlescribe.py, or a package
battlescribe/ as Warcaster's), declared in its
registry entry (`SystemEntry.data_formats`, collected by rules_engine/formats/__init__.py): how its cards look in the
data Hangar exports (EXPORT), and for a game whose community writes BattleScribe data (Warcaster) how that data
reads as a package (`read_community_data`).

    from rules_engine.formats import battlescribe
    conversion = battlescribe.convert([folder_or_zip])   # .package, .report, .warnings
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from rules_engine.formats import game_part, games

from .files import (MAX_FILE_BYTES, MAX_TOTAL_BYTES, SUFFIXES, BattleScribeError, Conversion, SourceFile,
                    card_code, is_battlescribe, leave_out_refused_cards, local_name, parse, read_sources)
from .hangar import hangar_conversion, hangar_system

__all__ = ["MAX_FILE_BYTES", "MAX_TOTAL_BYTES", "SUFFIXES", "BattleScribeError", "Conversion", "SourceFile",
           "card_code", "community_game", "convert", "is_battlescribe", "leave_out_refused_cards", "parse",
           "read_sources"]


def community_game() -> str | None:
    """The game whose BattleScribe part reads the community's data (Warcaster's), or None."""
    return next((slug for slug in games("battlescribe")
                 if hasattr(game_part("battlescribe", slug), "read_community_data")), None)


def convert(paths: Iterable[Path | str]) -> Conversion:
    """Read, validate and map the files; raises BattleScribeError at the first thing refused. Data Hangar exported
    reads back as the package it came from (any game); other data is read by the game that reads the community's
    BattleScribe data."""
    paths = list(paths)
    documents = [parse(source) for source in read_sources(paths)]
    systems = [d for d in documents if local_name(d.root.tag) == "gameSystem"]
    catalogues = [d for d in documents if local_name(d.root.tag) == "catalogue"]
    if len(systems) != 1:
        where = ", ".join(d.source.name for d in systems) or ", ".join(str(p) for p in paths)
        raise BattleScribeError(where, "", "", f"expected exactly one game system (.gst/.gstz), found {len(systems)}")
    if not catalogues:
        raise BattleScribeError(systems[0].source.name, "", "", "no catalogue (.cat/.catz) given with the game system")
    if hangar_system(systems[0]) is not None:
        return hangar_conversion(systems[0], catalogues)
    reader = community_game()
    if reader is None:
        raise BattleScribeError(systems[0].source.name, "", "", "no game of this site reads BattleScribe data that "
                                                               "Hangar did not export")
    return game_part("battlescribe", reader).read_community_data(systems[0], catalogues)

