"""Squad attachments of the community data: a model of primary category Attachments joining a squad, read as a
`squad_attachment` card, and its limit's modifier (one per selection of each squad it joins) read as the squads it
attaches to (W4). A mixin of the Mapper (mapper.py)."""
from __future__ import annotations

from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import Document, card_code, kids, local_name
from rules_engine.warcaster.battlescribe.terms import (ATTACHMENT_CATEGORIES, ATTACHMENT_CST, MODEL_PROFILES,
                                                       SQUAD_MODEL_HEALTH, STAT_KEYS, _keep_rules)


class SquadAttachments:
    """A squad attachment's card and the squads its limit names."""

    def _attachment(self, document: Document, entry: Element, faction: str) -> dict:
        """A squad attachment (primary category Attachments): a `squad_attachment` card — its model's stats (SPD "*"
        left out: it moves with its squad; no DMG: 1 damage point, as a squad model), its weapons and rules, its CST
        ("+1": what it adds to its squad's; "-": 0), and the squads it joins (`attaches_to`, from its limit's
        modifier)."""
        profiles = [p for p in kids(entry, "profiles", "profile") if p.get("typeName") in MODEL_PROFILES]
        if len(profiles) != 1:
            raise self.leave_out(document, entry, "an attachment needs exactly one model profile (Solo, Squad, "
                                 f"Warjack, Vehicle or Mantlet), found {len(profiles)}: left out")
        profile = profiles[0]
        cst_text = next(((c.text or "").strip() for c in kids(profile, "characteristics", "characteristic")
                         if (c.get("name") or "").strip() == "CST"), "")
        cost = ATTACHMENT_CST.fullmatch(cst_text)
        if cost is None and cst_text not in ("-", "", "*"):
            raise self.leave_out(document, profile, f"an attachment's CST {cst_text!r} is not '+N', a number or "
                                 "'-': left out")
        if cost is None:
            self.counts["attachments_cst_none"] += 1  # [interpretation] no cost given: 0
        chars = self._characteristics(document, profile, set(STAT_KEYS), skip={"CST"})  # CST read above
        stats = {STAT_KEYS[k]: v for k, v in chars.items() if v is not None and k not in ("CST", "STR", "FOC")}
        stats.setdefault("health", SQUAD_MODEL_HEALTH)
        card = self._card(entry, "squad_attachment", faction)
        card |= {"cst": int(cost.group(1)) if cost else 0, "stats": stats}
        squads = [card_code(i) for i in self.attachment_of.get(entry.get("id") or "", [])]
        if squads:
            card["attaches_to"] = sorted(dict.fromkeys(squads))
        weapons = [self._weapon(document, e, p) for e, p in self._weapon_entries(entry)]
        if weapons:
            card["weapons"] = weapons
        abilities, not_modelled, text = self._rules(document, entry)
        for weapon in weapons:
            not_modelled += [q for q in weapon.get("other_qualities", []) if q not in not_modelled]
        # the rule "Attachment" says what the limit and attaches_to already read
        not_modelled = [n for n in not_modelled if n.strip().lower() != "attachment"]
        if abilities:
            card["abilities"] = abilities
        _keep_rules(card, text, not_modelled)
        self.counts["squad_attachment"] += 1
        return card

    def _attachment_limit(self, owner: Element | None, target: Element, modifier: Element,
                          repeats: list[Element]) -> bool:
        """A squad attachment's limit (the community files): its roster max of 0, incremented by 1 per selection in
        the roster of each squad it joins. Read as the squads it attaches to."""
        if owner is None or local_name(owner.tag) != "selectionEntry" or local_name(target.tag) != "constraint" \
                or self._primary_category(owner) not in ATTACHMENT_CATEGORIES \
                or target.get("type") != "max" or (modifier.get("type") or "") != "increment" \
                or float(target.get("value") or 0) != 0 or float(modifier.get("value") or 0) != 1:
            return False
        squads = [r.get("childId") or "" for r in repeats]
        if any(r.get("field") != "selections" or r.get("scope") not in ("roster", "force") for r in repeats) \
                or not all(squads):
            return False
        self.attachment_of[owner.get("id") or ""] = squads
        self.counts["attachment_limits"] += 1
        return True
