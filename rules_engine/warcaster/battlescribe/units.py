"""Units and models of the community data: a selection entry with a Solo/Squad/Warjack/Vehicle/Mantlet profile
as a model card (a hero by its category), its stats, fixed weapons, rules, warjack chassis or weapon choices and its
own copy limit (W4); the faction of a model the game system defines; an entry's primary category. A mixin of the
Mapper (mapper.py)."""
from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import Document, LeftOut, kids
from rules_engine.warcaster.battlescribe.terms import (MODEL_PROFILES, QUALITIES, REQUIRED_STATS, SQUAD_MODEL_HEALTH,
                                                       STAT_KEYS, _keep_rules)


class UnitsAndModels:
    """Model cards, their faction and their category."""

    def _model(self, document: Document, entry: Element, faction: str) -> dict:
        profiles = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") in MODEL_PROFILES]
        if len(profiles) != 1:
            raise self.leave_out(document, entry, "a model entry needs exactly one model profile (Solo, Squad, "
                                 f"Warjack, Vehicle or Mantlet), found {len(profiles)}: left out")
        profile = profiles[0]
        kind = MODEL_PROFILES[profile.get("typeName") or ""]
        categories = {self.categories.get(link.get("targetId") or "", "").strip().lower()
                      for link in kids(entry, "categoryLinks", "categoryLink")}
        if categories & {"hero", "heroes"}:
            kind = "hero"  # ヒーロー: recognised by the category, whatever the profile
        chars = self._characteristics(document, profile, set(STAT_KEYS))
        for name in REQUIRED_STATS[kind]:
            if chars.get(name) is None:
                raise self.leave_out(document, profile, f"a {kind} needs the characteristic {name}: left out")
        stats = {STAT_KEYS[k]: v for k, v in chars.items() if v is not None and k != "CST"}
        if kind == "hero":
            stats.setdefault("foc", 0)  # FOC "-": no focus
        if kind == "squad" and "health" not in stats:
            stats["health"] = SQUAD_MODEL_HEALTH  # [interpretation] no DMG in a Squad profile: 1 per model
            self.counts["squads_health_1"] += 1
        if kind != "squad":
            stats.pop("num", None)
        if kind != "warjack":
            stats.pop("str", None)
        card = self._card(entry, kind, faction)
        card |= {"cst": chars["CST"], "stats": stats}
        weapons = []
        for weapon_entry, weapon_profile in self._weapon_entries(entry):
            try:
                weapons.append(self._weapon(document, weapon_entry, weapon_profile))
            except LeftOut:
                continue  # that weapon only
        if weapons:
            card["weapons"] = weapons
        abilities, not_modelled, text = self._rules(document, entry)
        played = {q for weapon in weapons for q in weapon["qualities"]}
        # a model's link to a rule its weapon plays as a quality (a squad's "Blast Weapon") is that weapon's
        not_modelled = [n for n in not_modelled
                        if QUALITIES.get(re.sub(r"\s*\(.*\)\s*$", "", n).strip().lower()) not in played]
        for weapon in weapons:
            not_modelled += [q for q in weapon.get("other_qualities", []) if q not in not_modelled]
        if abilities:
            card["abilities"] = abilities
        if kind == "warjack":
            card |= self._chassis(document, entry, faction)
        elif kids(entry, "selectionEntryGroups", "selectionEntryGroup"):
            card |= self._choices(document, entry, faction, kind)
        _keep_rules(card, text, not_modelled)
        for constraint in kids(entry, "constraints", "constraint"):
            if constraint.get("type") == "max" and constraint.get("field") == "selections" \
                    and constraint.get("scope") in ("roster", "force"):
                self.copies.append(int(float(constraint.get("value") or 0)))
                if kind != "hero":  # W4 with the entry's own limit (a hero's is W1's one)
                    card["max_copies"] = int(float(constraint.get("value") or 0))
        self.counts[kind] += 1
        return card

    def _primary_category(self, entry: Element) -> str:
        return next((self.categories.get(link.get("targetId") or "", "").strip().lower()
                     for link in kids(entry, "categoryLinks", "categoryLink") if link.get("primary") == "true"), "")

    def _linked_faction(self, entry: Element) -> str:
        """A model in the game system belongs to the one catalogue whose root entryLinks link to it; one that no
        catalogue or several link to is a mercenary (playable beside any faction, W6)."""
        catalogues = sorted(self.root_links.get(entry.get("id") or "", {}))
        if len(catalogues) == 1:
            self.counts["linked_from_a_catalogue"] += 1
            return self.catalogue_factions[catalogues[0]]
        self.counts["linked_from_several" if catalogues else "linked_from_none"] += 1
        return "mercenary"
