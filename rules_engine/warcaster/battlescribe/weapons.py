"""Weapons of the community data: the weapon entries and profiles of a model, a weapon's characteristics, its type
(TYP, its Melee/Ranged rule, or its RNG), damage type and qualities. A mixin of the Mapper (mapper.py)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import Document, kids
from rules_engine.warcaster.battlescribe.terms import DAMAGE_TYPES, MELEE_MAX_RNG, QUALITIES, WEAPON_CHARS, WEAPON_TYPES


class Weapons:
    """A model's weapons, each read from its entry, its profile and its rule links."""

    def _weapon_entries(self, entry: Element) -> list[tuple[Element | None, Element | None]]:
        """(entry, profile) per weapon: the entry's own Weapon profile and those its infoLinks name (profile None: the
        entry's own), child upgrade entries and linked entries with a Weapon profile (own or linked) too."""
        found: list[tuple[Element | None, Element | None]] = []
        own = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") == "Weapon"]
        if own:
            found.append((entry, None))
            found += [(None, p) for p in own[1:]]  # further own Weapon profiles: each a weapon of its own
        for link in kids(entry, "infoLinks", "infoLink"):
            target = self.profiles.get(link.get("targetId") or "") if link.get("type") == "profile" else None
            if link.get("type") == "profile" and target is None:
                self.warn(self._document_of(link), link, f"links to profile {link.get('targetId')!r}, which no file "
                                                          "defines: the link is not read")
                continue
            if target is not None:
                if target.get("typeName") != "Weapon":
                    self.warn(self._document_of(link), link, f"links to a {target.get('typeName')} profile, where "
                                                              "only a Weapon profile is mapped: the link is not read")
                    continue
                found.append((None, target))
        for child in kids(entry, "selectionEntries", "selectionEntry"):
            types = {p.get("typeName") for p in kids(child, "profiles", "profile")}
            if types - {"Weapon"}:
                self.warn(self._document_of(child), child, f"unknown profile type {sorted(types - {'Weapon'})[0]!r} "
                                                           "in an entry inside a model (mapped there: Weapon): that "
                                                           "entry is left out")
                continue
            if types or self._weapon_profile(child) is not None:
                found.append((child, None))
        for link in kids(entry, "entryLinks", "entryLink"):
            target = self.elements.get(link.get("targetId") or "")
            if target is None:
                self.warn(self._document_of(link), link, f"links to entry {link.get('targetId')!r}, which no file "
                                                         "defines: the link is not read")
                continue
            if self._weapon_profile(target[1]) is not None:
                found.append((target[1], None))
        return found

    def _weapon_profile(self, entry: Element) -> Element | None:
        """The entry's own Weapon profile, else the Weapon profile one of its infoLinks names."""
        own = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") == "Weapon"]
        if own:
            return own[0]
        for link in kids(entry, "infoLinks", "infoLink"):
            target = self.profiles.get(link.get("targetId") or "") if link.get("type") == "profile" else None
            if target is not None and target.get("typeName") == "Weapon":
                return target
        return None

    def _weapon(self, document: Document, entry: Element | None, profile: Element | None = None) -> dict:
        """A weapon from an entry (its own or linked Weapon profile, its rule links) or from a profile alone."""
        if profile is None and entry is not None:
            profile = self._weapon_profile(entry)
        assert profile is not None
        document = self._document_of(profile)
        chars = self._characteristics(document, profile, WEAPON_CHARS, numeric={"RNG", "POW"})
        if chars.get("RNG") is None:
            raise self.leave_out(document, profile, "a weapon needs RNG: the weapon is left out")
        if chars.get("POW") is None:  # "-": the attack does no damage (its rule says what it does instead)
            chars["POW"] = 0
            self.counts["weapons_pow_dash"] += 1
        rule_names = [self._linked_rule(link).get("name") or ""
                      for link in (self._rule_links(entry) if entry is not None else [])]
        listed = [n.strip() for n in str(chars.get("Rules") or "").split(",") if n.strip()]
        lowered = {re.sub(r"\s*\(.*\)\s*$", "", n).strip().lower() for n in rule_names + listed}
        wtype = self._weapon_type(document, entry, profile, chars, lowered)
        name = profile.get("name") or (entry.get("name") if entry is not None else "") or ""
        weapon: dict[str, Any] = {"name": name, "name_en": name, "type": wtype, "rng": chars["RNG"],
                                  "pow": chars["POW"]}
        qualities, others = self._qualities(document, entry, listed)
        weapon["qualities"] = qualities
        if others:
            weapon["other_qualities"] = others
        damage = str(chars.get("Damage Type") or chars.get("DMG") or "").strip().lower()
        if not damage:
            damage = next((n for n in (x.strip().lower() for x in rule_names) if n in DAMAGE_TYPES), "")
        if damage:
            weapon["damage_type"] = damage
        weapon["bs_id"] = (entry.get("id") if entry is not None else profile.get("id")) or ""
        self.counts["weapons"] += 1
        return weapon

    def _weapon_type(self, document: Document, entry: Element | None, profile: Element, chars: dict[str, Any],
                     rule_names: set[str]) -> str:
        """A weapon's type: its TYP characteristic; else its one Melee or Ranged rule; else (no TYP, no such rule,
        [interpretation] MELEE_MAX_RNG) melee at RNG ≤ 2, ranged beyond. Odd data is read by the same order, with a
        warning: an unknown TYP is ignored, and a weapon linked to both Melee and Ranged is typed by its TYP, else
        by its RNG."""
        typ = str(chars.get("TYP") or "").strip().lower()
        where = entry if entry is not None else profile
        if typ and typ in WEAPON_TYPES:
            if len(rule_names & set(WEAPON_TYPES)) > 1:
                self.warn(document, where, f"the weapon links to both the Melee and the Ranged rule: read as "
                                           f"{WEAPON_TYPES[typ]} (its TYP {chars.get('TYP')!r})")
            return WEAPON_TYPES[typ]
        if typ:
            self.warn(document, profile, f"unknown weapon TYP {chars.get('TYP')!r} (mapped: Ranged, Melee): typed by "
                                         "its rules or RNG instead")
        both = rule_names & set(WEAPON_TYPES)
        if len(both) == 1:
            return WEAPON_TYPES[next(iter(both))]
        wtype = "melee" if chars["RNG"] <= MELEE_MAX_RNG else "ranged"
        if both:
            self.warn(document, where, f"the weapon links to both the Melee and the Ranged rule and has no TYP: read "
                                       f"as {wtype} by its RNG {chars['RNG']} (melee at RNG ≤ {MELEE_MAX_RNG})")
        self.counts["weapons_typed_by_rng"] += 1
        return wtype

    def _qualities(self, document: Document, entry: Element | None,
                   listed: Iterable[str] = ()) -> tuple[list[str], list[str]]:
        """The weapon qualities the engine plays, and the names of the other rules (not the type and damage-type
        rules "Melee", "Ranged", "Kinetic"...), from the entry's rule links and the names a Rules characteristic
        lists."""
        qualities: list[str] = []
        others: list[str] = []
        names = []
        for link in self._rule_links(entry) if entry is not None else []:
            names.append(self._linked_rule(link).get("name") or "")
        for name in [*names, *listed]:
            bare = re.sub(r"\s*\(.*\)\s*$", "", name).strip().lower()
            if bare in WEAPON_TYPES or (bare in DAMAGE_TYPES and bare not in QUALITIES):
                continue
            known = QUALITIES.get(bare)
            if known is not None and known not in qualities:
                qualities.append(known)
            elif known is None and name not in others:
                others.append(name)
        return qualities, others

    def _attackless(self, entry: Element) -> bool:
        """No Weapon profile, or one with RNG "-" (a hardpoint item that makes no attack, e.g. a sensor)."""
        profile = self._weapon_profile(entry)
        return profile is None or any((c.get("name") or "").strip() == "RNG" and (c.text or "").strip() == "-"
                                      for c in kids(profile, "characteristics", "characteristic"))
