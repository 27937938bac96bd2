"""Hardpoints and weapon choices of the community data: the entries a warjack's hardpoint groups (Cortex, Arm(s),
Shoulder(s)...) or another model's weapon-choice group link to, a warjack's weapon points and hardpoints, a hero's,
solo's or vehicle's weapon choices (W5), and the cortex and warjack weapon cards they offer. A mixin of the Mapper
(mapper.py)."""
from __future__ import annotations

import re
from typing import Any
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import Document, LeftOut, card_code, kids, local_name
from rules_engine.warcaster.battlescribe.terms import (CHOICE_SLOT, DAMAGE_TYPES, HARDPOINT_CONTAINERS,
                                                       HARDPOINT_GROUPS, MODEL_PROFILES, QUALITIES, WEAPON_TYPES,
                                                       _keep_rules)


class HardpointsAndChoices:
    """Warjack chassis, weapon choices and the part cards they link to."""

    def _linked_parts(self, document: Document) -> dict[str, str]:
        """Entry id → hardpoint slot, for every entry a warjack's hardpoint group links to (in any file), and
        CHOICE_SLOT for the entries a hero's, solo's or vehicle's weapon-choice group links to (a warjack's slot
        first: such a weapon card keeps both in its `hardpoints`)."""
        slots: dict[str, str] = {}
        for doc in [self.system, *self.catalogues]:
            for group in doc.root.iter():
                if local_name(group.tag) != "selectionEntryGroup":
                    continue
                slot = HARDPOINT_GROUPS.get((group.get("name") or "").strip().lower())
                if self._choice_group(group):
                    slot = CHOICE_SLOT
                for link in kids(group, "entryLinks", "entryLink"):
                    target = link.get("targetId") or ""
                    if slot is None:
                        continue
                    for cost in kids(link, "costs", "cost"):
                        if cost.get("typeId") in self.wp_types:
                            self.link_costs.setdefault(target, {})[link.get("id") or ""] = \
                                int(float(cost.get("value") or 0))
                    if slot == CHOICE_SLOT and slots.get(target, CHOICE_SLOT) != CHOICE_SLOT:
                        self.choice_too.add(target)  # a warjack's slot first
                    elif slot != CHOICE_SLOT and slots.get(target) == CHOICE_SLOT:
                        self.choice_too.add(target)
                        slots[target] = slot
                    else:
                        slots[target] = slot
        return slots

    def _choice_group(self, group: Element) -> bool:
        """A weapon-choice group of a model that is no warjack (a vehicle's "Hardpoint", a hero's weapon choice)."""
        owner = self.parents.get(id(group))
        while owner is not None and local_name(owner.tag) != "selectionEntry":
            owner = self.parents.get(id(owner))
        if owner is None:
            return False
        types = {p.get("typeName") for p in kids(owner, "profiles", "profile")}
        return bool(types & set(MODEL_PROFILES)) and "Warjack" not in types

    def _group_links(self, document: Document, group: Element, *, attackless: bool = False) -> dict[str, str]:
        """A hardpoint or weapon-choice group's links: {target entry id: link id}. A link to an id no file defines is
        a warning; an entry that makes no attack is not read (counted once, at the entry) unless `attackless` (a
        cortex makes none)."""
        links: dict[str, str] = {}
        for link in kids(group, "entryLinks", "entryLink"):
            target = self.elements.get(link.get("targetId") or "")
            if target is None:
                self.warn(document, link, f"links to entry {link.get('targetId')!r}, which no file defines: the link "
                                          "is not read")
                continue
            if not attackless and self._attackless(target[1]):
                continue
            links[link.get("targetId") or ""] = link.get("id") or ""
        return links

    def _chassis(self, document: Document, entry: Element, faction: str) -> dict:
        """Weapon points and hardpoints. The hardpoint groups are the entry's Cortex/Arm(s)/Shoulder(s) groups, or
        (the community files) Cortex beside a "Hardpoints" group holding Left/Right Arm and (Left/Right) Shoulder
        groups, whose max constraint on the Weapon Points cost gives the weapon points. A group's entries are links to
        shared entries, or (a Cortex group) the cortexes themselves."""
        points = [c for c in kids(entry, "constraints", "constraint")
                  if c.get("field") in self.wp_types and c.get("type") == "max"]
        groups: list[Element] = []
        for group in kids(entry, "selectionEntryGroups", "selectionEntryGroup"):
            if (group.get("name") or "").strip().lower() in HARDPOINT_CONTAINERS:
                points += [c for c in kids(group, "constraints", "constraint")
                           if c.get("field") in self.wp_types and c.get("type") == "max"]
                if kids(group, "entryLinks", "entryLink") or kids(group, "selectionEntries", "selectionEntry"):
                    self.warn(document, group, "a Hardpoints group holds hardpoint groups only: the entries and "
                                               "links directly in it are not read")
                groups += kids(group, "selectionEntryGroups", "selectionEntryGroup")
            else:
                groups.append(group)
        if not points:
            raise self.leave_out(document, entry, "a warjack needs a max constraint on its Weapon Points (its weapon "
                                                  "points): left out")
        hardpoints = []
        for group in groups:
            slot = HARDPOINT_GROUPS.get((group.get("name") or "").strip().lower())
            if slot is None:
                self.warn(document, group, f"unknown hardpoint group {group.get('name')!r}: not read (mapped: Cortex, "
                                           "Arm(s), Left/Right Arm, Shoulder(s), Left/Right Shoulder, Back, Chest, in "
                                           "a Hardpoints group or not)")
                continue
            if kids(group, "selectionEntryGroups", "selectionEntryGroup"):
                self.warn(document, group, "groups nested in a hardpoint group are not read")
            count = [c for c in kids(group, "constraints", "constraint")
                     if c.get("type") == "max" and c.get("field") == "selections"]
            links = self._group_links(document, group, attackless=slot == "cortex")
            for inline in kids(group, "selectionEntries", "selectionEntry"):
                # a part written in the group itself: a roster names it by its own id (no link)
                try:
                    part = self._cortex(document, inline, faction) if slot == "cortex" else \
                        self._part_weapon(document, inline, faction, slot)
                except LeftOut:
                    continue
                if part is not None:
                    self.cards.append(part)
            hardpoints.append({"slot": slot, "count": int(float(count[0].get("value") or 0)) if count else 1,
                               "name": group.get("name") or slot, "bs_id": group.get("id") or "",
                               "bs_links": links})
        self.counts["chassis"] += 1
        return {"weapon_points": int(float(points[0].get("value") or 0)), "hardpoints": hardpoints}

    def _choices(self, document: Document, entry: Element, faction: str, kind: str) -> dict:
        """A hero's, solo's or vehicle's own weapon choices: each of its selection entry groups (nested ones
        flattened) is a hardpoint of slot CHOICE_SLOT (`count` from its max constraint, `bs_links` its links), each
        weapon it offers a `weapon` card (cost: its Weapon Points, 0 when none); a Weapon Points max on the entry
        or a group is its `weapon_points`. W5 checks the choice as a warjack's."""
        points = [c for c in kids(entry, "constraints", "constraint")
                  if c.get("field") in self.wp_types and c.get("type") == "max"]
        hardpoints = []
        todo = list(kids(entry, "selectionEntryGroups", "selectionEntryGroup"))
        while todo:
            group = todo.pop(0)
            points += [c for c in kids(group, "constraints", "constraint")
                       if c.get("field") in self.wp_types and c.get("type") == "max"]
            todo += kids(group, "selectionEntryGroups", "selectionEntryGroup")
            links = self._group_links(document, group)
            for inline in kids(group, "selectionEntries", "selectionEntry"):
                part = self._part_weapon(document, inline, faction, CHOICE_SLOT)
                if part is not None:
                    self.cards.append(part)
                    links[inline.get("id") or ""] = ""
            if not links:
                continue  # a group of groups only, or of items without an attack (counted at the entry)
            count = [c for c in kids(group, "constraints", "constraint")
                     if c.get("type") == "max" and c.get("field") == "selections"]
            hardpoints.append({"slot": CHOICE_SLOT,
                               "count": int(float(count[0].get("value") or 0)) if count else 1,
                               "name": group.get("name") or CHOICE_SLOT, "bs_id": group.get("id") or "",
                               "bs_links": {k: v for k, v in links.items() if v},
                               "weapons": [card_code(k) for k in links]})
        self.counts[f"choices:{kind}"] += 1
        result: dict[str, Any] = {"hardpoints": hardpoints} if hardpoints else {}
        if points and int(float(points[0].get("value") or 0)) > 0:
            result["weapon_points"] = int(float(points[0].get("value") or 0))
        return result

    def _cortex(self, document: Document, entry: Element, faction: str) -> dict:
        card = self._card(entry, "cortex", faction)
        abilities, not_modelled, text = self._rules(document, entry)
        card["abilities"] = abilities
        _keep_rules(card, text, not_modelled)
        self.counts["cortex"] += 1
        return card

    def _part_weapon(self, document: Document, entry: Element, faction: str, slot: str) -> dict | None:
        if self._weapon_profile(entry) is not None and self._attackless(entry):
            self.not_read[f"warjack weapons that make no attack, RNG '-' ({entry.get('name')})"] += 1
            return None
        if self._weapon_profile(entry) is None:
            if kids(entry, "profiles", "profile"):
                raise self.leave_out(document, entry, f"linked from a warjack's {slot} hardpoint but has no Weapon "
                                                      "profile: left out")
            # the community files have such an entry with only a rule: no RNG or POW to play, left out
            self.not_read[f"warjack weapons with no Weapon profile ({entry.get('name')})"] += 1
            return None
        weapon = self._weapon(document, entry)
        self.counts["weapons"] -= 1  # counted as a warjack weapon card, not a fixed weapon
        costs = [c for c in kids(entry, "costs", "cost") if c.get("typeId") in self.wp_types]
        if not costs and slot != CHOICE_SLOT:
            raise self.leave_out(document, entry, "a warjack weapon needs a Weapon Points cost: left out")
        card = self._card(entry, "weapon", faction)
        slots = [slot] + ([CHOICE_SLOT] if slot != CHOICE_SLOT and (entry.get("id") or "") in self.choice_too else [])
        cost = int(float(costs[0].get("value") or 0)) if costs else 0
        linked = sorted(set(self.link_costs.get(entry.get("id") or "", {}).values()))
        if cost == 0 and any(linked):
            # the Empyrean files cost a weapon on its hardpoint links only (its own cost 0): the links' cost;
            # [interpretation] links that differ: the smallest (reported)
            cost = linked[0]
            self.counts["weapons_costed_by_links"] += 1
            if len(linked) > 1:
                self.not_read[f"other link costs of a weapon costed by its links ({entry.get('name')}: "
                              f"{', '.join(map(str, linked[1:]))}; its card costs {cost})"] += 1
        card |= {"cost": cost, "type": weapon["type"],
                 "rng": weapon["rng"], "pow": weapon["pow"], "qualities": weapon["qualities"], "hardpoints": slots}
        for key in ("other_qualities", "damage_type"):
            if key in weapon:
                card[key] = weapon[key]
        _abilities, not_modelled, text = self._rules(document, entry)
        bare = lambda n: re.sub(r"\s*\(.*\)\s*$", "", n).strip().lower()  # noqa: E731
        # qualities played, and the rules that give its type or damage type (Melee, Kinetic...), are read already
        not_modelled = [n for n in not_modelled if QUALITIES.get(bare(n)) is None
                        and bare(n) not in WEAPON_TYPES and bare(n) not in DAMAGE_TYPES]
        _keep_rules(card, text, not_modelled)
        self.counts["warjack_weapons"] += 1
        return card
