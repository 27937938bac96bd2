"""BattleScribe data that Hangar exported (rules_engine/formats/battlescribe/export.py) → the package it came from, for any game
(docs/data-packages.md "BattleScribe data out").

Such data is recognised by its game system: its id is Hangar's id of a game (`system_id`) and it defines the
"Hangar card" profile type. The package is then rebuilt from what the files carry for Hangar: the "Hangar package"
shared profile of the catalogue (formats, opponents, factions, title, version...) and each entry's "Hangar card"
profile (the card's JSON), in the package's order; the package import checks it as any package (schema, engine,
other packages). BattleScribe data that Hangar did not write (the community's data) goes to the game that reads it
(rules_engine/formats/battlescribe/__init__.py `convert`).
"""
from __future__ import annotations

import json
from typing import Any

from rules_engine.systems import SYSTEMS

from .export import HANGAR_CARD, HANGAR_PACKAGE, JSON_CHARACTERISTIC, system_id
from .files import BattleScribeError, Conversion, Document, kids


def hangar_system(system: Document) -> str | None:
    """The game (system slug) of a game system Hangar exported, or None for any other BattleScribe data."""
    root = system.root
    slug = next((s for s in SYSTEMS if system_id(s) == root.get("id")), None)
    if slug is None:
        return None
    names = {p.get("name") for p in kids(root, "profileTypes", "profileType")}
    return slug if HANGAR_CARD in names else None


def _json(document: Document, profile: Any) -> Any:
    chars = [c for c in kids(profile, "characteristics", "characteristic")
             if (c.get("name") or "") == JSON_CHARACTERISTIC]
    if len(chars) != 1:
        raise document.fail(profile, f"a {profile.get('typeName')} profile holds one characteristic "
                                     f"{JSON_CHARACTERISTIC!r}, found {len(chars)}")
    try:
        return json.loads(chars[0].text or "")
    except ValueError as exc:
        raise document.fail(chars[0], f"the {profile.get('typeName')} JSON cannot be read: {exc}") from None


def hangar_conversion(system: Document, catalogues: list[Document]) -> Conversion:
    """The package of Hangar-exported data: one catalogue, its package profile and its cards' profiles."""
    slug = hangar_system(system)
    assert slug is not None
    if len(catalogues) != 1:
        raise BattleScribeError(", ".join(d.source.name for d in catalogues), "", "",
                                f"data Hangar exported is one game system and one catalogue (a package); found "
                                f"{len(catalogues)} catalogues")
    catalogue = catalogues[0]
    if catalogue.root.get("gameSystemId") != system.root.get("id"):
        raise catalogue.fail(catalogue.root, f"catalogue is for game system {catalogue.root.get('gameSystemId')!r}, "
                                             f"not {system.root.get('id')!r} ({system.source.name})")
    envelopes = [p for p in kids(catalogue.root, "sharedProfiles", "profile") if p.get("typeName") == HANGAR_PACKAGE]
    if len(envelopes) != 1:
        raise catalogue.fail(catalogue.root, f"expected one {HANGAR_PACKAGE!r} profile in sharedProfiles, found "
                                             f"{len(envelopes)}")
    envelope = _json(catalogue, envelopes[0])
    if not isinstance(envelope, dict) or not isinstance(envelope.get("package"), dict) \
            or not isinstance(envelope.get("order"), list):
        raise catalogue.fail(envelopes[0], f"the {HANGAR_PACKAGE!r} JSON is not {{package, order}}")
    cards: dict[str, Any] = {}
    for profile in catalogue.root.iter():
        if profile.tag.split("}")[-1] != "profile" or profile.get("typeName") != HANGAR_CARD:
            continue
        card = _json(catalogue, profile)
        code = card.get("code") if isinstance(card, dict) else None
        if not isinstance(code, str):
            raise catalogue.fail(profile, "a Hangar card's JSON has no code")
        if code in cards:
            raise catalogue.fail(profile, f"card {code} is written twice")
        cards[code] = card
    order = [code for code in envelope["order"] if code in cards]
    order += [code for code in cards if code not in order]
    package = dict(envelope["package"])
    if package.get("system") != slug:
        raise catalogue.fail(envelopes[0], f"the package is for {package.get('system')!r}, the game system for "
                                           f"{slug!r}")
    package["cards"] = [cards[code] for code in order]
    report = [f"Hangar's own BattleScribe export of {SYSTEMS[slug].name} (package {package.get('slug')}): "
              f"{len(order)} cards, {len(package.get('formats') or [])} formats, read back as they were exported"]
    return Conversion(package, report)
