"""The registry of data formats: the formats of other tools Hangar reads and writes (data packages and lists), each
with its game-neutral reader and writer, and the games it serves.

    from rules_engine.formats import FORMATS, games, game_part
    FORMATS["battlescribe"].package     # "rules_engine.formats.battlescribe": files, schema, export, Hangar's cards
    games("battlescribe")               # ("hagmi", "mwda", "warcaster"): the games that declare a part of it
    game_part("battlescribe", "warcaster")   # the game's own part: rules_engine/warcaster/battlescribe/

A game declares its part of a format in its registry entry (`SystemEntry.data_formats`: format name -> the module
of its part, imported on first use), as it declares its simulator: what the game makes of the format (how its cards
look in the data, how the community's data reads as its package) lives in the game's package, and the format's own
machinery (files, schema, XML) here, without Django. cards/ and builder/ reach a format through this module and the
format's package, never through a game's module.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from rules_engine.systems import SYSTEMS

__all__ = ["FORMATS", "DataFormat", "game_part", "games"]


@dataclass(frozen=True)
class DataFormat:
    name: str
    title: str  # as the tool calls itself
    package: str  # the format's game-neutral reader and writer
    what: str  # what Hangar does with it, in a line


FORMATS: dict[str, DataFormat] = {
    "battlescribe": DataFormat(
        "battlescribe", "BattleScribe", "rules_engine.formats.battlescribe",
        "data packages in and out (.gst/.cat), rosters in and out (.ros/.rosz); the community's data of the games "
        "whose part reads it"),
}


def games(format_name: str) -> tuple[str, ...]:
    """The games whose registry entry declares a part of the format, in the registry's order."""
    return tuple(slug for slug, entry in SYSTEMS.items() if format_name in entry.data_formats)


def game_part(format_name: str, slug: str) -> ModuleType | None:
    """The game's part of the format (its module, imported on first use); None when the game declares none."""
    entry = SYSTEMS.get(slug)
    module = entry.data_formats.get(format_name) if entry is not None else None
    return importlib.import_module(module) if module else None
