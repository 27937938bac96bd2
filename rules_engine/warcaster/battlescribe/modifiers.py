"""The community data's modifiers and limits: the modifiers that change a number the rules read (applied before
the mapping, or named as not read), and the force entries as Hangar formats with their limits (heroes, units,
mantlets, the rack's cyphers, copies per unit). A mixin of the Mapper (mapper.py)."""
from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import kids, local_name, slugify
from rules_engine.warcaster.battlescribe.terms import (FORMAT_CATEGORIES, NUMBER_MODIFIERS, RACK_CATEGORIES,
                                                       UNREAD_CATEGORIES)


class ModifiersAndLimits:
    """Modifiers (before the mapping) and the formats' limits (after it)."""

    def _apply_modifiers(self) -> None:
        """The modifiers that change a number the rules read — a cost (Weapon Points) or a constraint's value (a
        limit) — of type set/increment/decrement. One without conditions or repeats is applied to the data before it
        is mapped; a squad attachment's (an increment of its own roster max, repeated per selection of the squads it
        joins) is read as the squads it attaches to (W4: one per such squad). Every other one is named under "not
        read" with the reason: its condition depends on what a roster holds, which an import cannot know, or it
        changes something no rule reads."""
        for document, box, modifier in self.modifiers:
            owner = self.parents.get(id(box))
            owner_name = (owner.get("name") or owner.get("id") or "") if owner is not None else ""
            kind, field_id = modifier.get("type") or "", modifier.get("field") or ""
            where = f"{owner_name}: {kind} {self._field_name(owner, field_id)}"
            if kind not in NUMBER_MODIFIERS:
                self.not_read[f"modifiers that change no cost or limit ({where})"] += 1
                continue
            target = self._modified(owner, field_id)
            if target is not None and local_name(target.tag) == "cost" and local_name(owner.tag) == "entryLink":
                # Hangar's weapon card has one cost, its entry's own (the links repeat it)
                self.not_read[f"modifiers of a link's cost, the card keeps its entry's cost ({where})"] += 1
                continue
            if target is None:
                self.not_read[f"modifiers of a field the rules do not read ({where})"] += 1
                continue
            conditional = kids(modifier, "conditions", "condition") + kids(modifier, "conditionGroups",
                                                                              "conditionGroup")
            repeats = kids(modifier, "repeats", "repeat")
            if repeats and not conditional and self._attachment_limit(owner, target, modifier, repeats):
                continue
            if conditional or repeats:
                self.not_read[f"modifiers whose condition depends on the roster ({where})"] += 1
                continue
            try:
                value = float(modifier.get("value") or 0)
                current = float(target.get("value") or 0)
            except ValueError:
                self.warn(document, modifier, f"modifier value {modifier.get('value')!r} is not a number: not read")
                continue
            new = value if kind == "set" else current + value if kind == "increment" else current - value
            target.set("value", f"{new}")
            self.modified[kind] += 1

    def _field_name(self, owner: Element | None, field_id: str) -> str:
        for cost_type in kids(self.system.root, "costTypes", "costType"):
            if cost_type.get("id") == field_id:
                return cost_type.get("name") or field_id
        return "a limit" if owner is not None and self._modified(owner, field_id) is not None else field_id

    def _modified(self, owner: Element | None, field_id: str) -> Element | None:
        """What a modifier of `owner` changes: its cost of that cost type, or its constraint of that id."""
        if owner is None:
            return None
        if field_id in self.wp_types:
            return next((c for c in kids(owner, "costs", "cost") if c.get("typeId") == field_id), None)
        return next((c for c in kids(owner, "constraints", "constraint") if c.get("id") == field_id), None)

    def _formats(self, package_slug: str) -> list[dict]:
        """One format per force entry, its slug prefixed with the package's (format slugs are unique in a system);
        none is the default, which stays the system's own (a package may not take it)."""
        formats = []
        copies = max(self.copies) if self.copies else None
        for category in kids(self.system.root, "categoryEntries", "categoryEntry"):
            name = (category.get("name") or "").strip().lower()
            if name in RACK_CATEGORIES and all(c.get("field") == "selections" and float(c.get("value") or 0) == 1
                                               for c in kids(category, "constraints", "constraint")):
                continue  # exactly one rack per roster: every Hangar list has its one rack (W3 counts its cyphers)
            if kids(category, "constraints", "constraint"):
                self.not_read[f"constraints of the category {category.get('name')}"] += 1
        for force in kids(self.system.root, "forceEntries", "forceEntry"):
            options: dict[str, Any] = {"single_faction": True}
            for link in kids(force, "categoryLinks", "categoryLink"):
                name = self.categories.get(link.get("targetId") or "")
                if name is None:
                    self.warn(self.system, link, f"links to category {link.get('targetId')!r}, which no file "
                                                 "defines: not read")
                    continue
                what = FORMAT_CATEGORIES.get(name.strip().lower())
                for constraint in kids(link, "constraints", "constraint"):
                    if what is None and name.strip().lower() in UNREAD_CATEGORIES \
                            and float(constraint.get("value") or 0) < 0:
                        continue  # no limit (-1) on the rack or the attachments: nothing to read
                    if what is None or constraint.get("field") != "selections":
                        self.not_read[f"force constraint on {name}"] += 1
                        continue
                    value = int(float(constraint.get("value") or 0))
                    if value < 0:  # -1: no limit
                        continue
                    low = constraint.get("type") == "min"
                    if what == "cyphers":
                        options["rack_min" if low else "rack_max"] = value
                    elif not low:
                        options[f"max_{what}"] = value
            if copies is not None:
                options["max_unit_copies"] = copies
            if self.suit_mins:
                options["rack_min_per_suit"] = min(self.suit_mins)
            name = force.get("name") or force.get("id") or "force"
            formats.append({"slug": f"{package_slug}-{slugify(name)}"[:64], "name": name, "name_en": name,
                            "options": options, "bs_id": force.get("id") or "", "battlescribe": self._force_facts(),
                            "description_en": f"From the BattleScribe force {name!r} (id {force.get('id')})."})
        return formats

    def _force_facts(self) -> dict:
        """What a roster of this force names: the game system and each faction's catalogue (id, name, revision),
        and the cost types."""
        root = self.system.root
        return {
            "game_system": {"id": root.get("id") or "", "name": root.get("name") or "",
                            "revision": int(root.get("revision") or 0)},
            "catalogues": [{"faction": slugify(d.root.get("name") or ""), "id": d.root.get("id") or "",
                            "name": d.root.get("name") or "", "revision": int(d.root.get("revision") or 0)}
                           for d in self.catalogues],
            "cost_types": [{"id": c.get("id") or "", "name": c.get("name") or ""}
                           for c in kids(root, "costTypes", "costType")],
        } | ({"rack": self.rack} if self.rack else {})  # the community files' one "Cyphers" rack selection
