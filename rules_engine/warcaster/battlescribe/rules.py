"""Rules, abilities, cyphers and the rack of the community data: the shared rules an entry links to (abilities the
engine plays, the names of the others, the whole text), the cypher cards (a Cypher profile, or a cypher of the rack's
suit groups) and the one "Cyphers" rack selection. A mixin of the Mapper (mapper.py)."""
from __future__ import annotations

import re
from xml.etree.ElementTree import Element

from rules_engine.formats.battlescribe.files import Document, kids
from rules_engine.warcaster.battlescribe.terms import (CYPHER_CHARS, CYPHER_GROUPS, CYPHER_TYPES, FURY_RNG,
                                                       RULE_ABILITIES, SUITS, _keep_rules)


class RulesAndCyphers:
    """An entry's rules and abilities, and the cyphers."""

    def _linked_rule(self, link: Element) -> Element:
        """The shared rule an infoLink names. A link to a rule no given file defines is refused, except in a
        catalogue written for another revision of the game system than the one given (its gameSystemRevision
        differs: the community's catalogues are written for game-system revisions 2 and 4, and name rules that the
        revision 3 published beside them lacks): there the link keeps its own name, without text, and is listed in
        the report (a nameless one is refused)."""
        target = link.get("targetId") or ""
        rule = self.rules.get(target)
        if rule is not None:
            return rule
        document = self._document_of(link)
        name = (link.get("name") or "").strip() or f"rule {target}"
        if target not in self.dangling:
            self.warn(document, link, f"links to rule {target!r}, which no file defines: kept by the link's name "
                                      f"{name!r}, without text")
        self.dangling.setdefault(target, name)
        return Element("rule", {"id": target, "name": name})

    def _rule_links(self, entry: Element) -> list[Element]:
        return [link for link in kids(entry, "infoLinks", "infoLink") if link.get("type", "rule") == "rule"]

    def _rules(self, document: Document, entry: Element) -> tuple[list[dict], list[str], str]:
        """The entry's rules (its own and the shared ones it links to): abilities the engine plays, the names of
        those it does not, and the whole text."""
        abilities: list[dict] = []
        not_modelled: list[str] = []
        texts: list[str] = []
        rules = list(kids(entry, "rules", "rule")) + kids(entry, "infoGroups", "infoGroup", "rules", "rule")
        for link in self._rule_links(entry) + [link for link in kids(entry, "infoGroups", "infoGroup", "infoLinks",
                                                                       "infoLink") if link.get("type") == "rule"]:
            rules.append(self._linked_rule(link))
        for rule in rules:
            name = rule.get("name") or ""
            description = " ".join(" ".join("".join(d.itertext()).split()) for d in kids(rule, "description"))
            texts.append(f"{name}: {description}" if description else name)
            ability = RULE_ABILITIES.get(name.strip().lower())
            if ability is not None:
                abilities.append({**ability, "name": name, "name_en": name})
            elif name not in not_modelled:
                not_modelled.append(name)
        return abilities, not_modelled, "\n".join(texts)

    def _is_rack(self, entry: Element) -> bool:
        """The community files' "Cyphers" upgrade: it links only to the cypher suit groups."""
        links = kids(entry, "entryLinks", "entryLink")
        return bool(links) and all(
            link.get("type") == "selectionEntryGroup"
            and CYPHER_GROUPS.get((self.elements.get(link.get("targetId") or "", (None, entry))[1].get("name")
                                   or "").strip().lower()) is not None for link in links)

    def _cypher(self, document: Document, entry: Element, faction: str) -> dict:
        profile = next(p for p in kids(entry, "profiles", "profile") if p.get("typeName") == "Cypher")
        chars = self._characteristics(document, profile, CYPHER_CHARS, numeric={"RNG", "POW"})
        suit = str(chars.get("Suit") or "").strip().lower()
        ctype = str(chars.get("Type") or "").strip().lower()
        if suit not in SUITS:
            raise self.leave_out(document, profile, f"unknown cypher suit {chars.get('Suit')!r}: left out (mapped: "
                                 + ", ".join(sorted(s.title() for s in SUITS)) + ")")
        if ctype not in CYPHER_TYPES:
            raise self.leave_out(document, profile, f"unknown cypher type {chars.get('Type')!r}: left out (mapped: "
                                 + ", ".join(sorted(t.title() for t in CYPHER_TYPES)) + ")")
        card = self._card(entry, "cypher", faction) | {"suit": suit, "cypher_type": ctype}
        qualities, others = self._qualities(document, entry)
        _abilities, _names, text = self._rules(document, entry)
        if ctype == "attack" and chars.get("RNG") is not None and chars.get("POW") is not None:
            card["effects"] = [{"kind": "attack", "rng": chars["RNG"], "pow": chars["POW"], "qualities": qualities}]
            not_modelled = others  # the attack is played; only the qualities the engine lacks are not
        else:
            card["effects"] = []
            not_modelled = [entry.get("name") or card["code"]]  # the text is kept; the effect is not played
        _keep_rules(card, text, not_modelled)
        self.counts["cyphers"] += 1
        self.counts[f"suit:{suit}"] += 1
        return card

    def _rack_cypher(self, document: Document, entry: Element, faction: str, suit: str) -> dict:
        """A cypher of the community files: an upgrade in a suit group, its one rule "-Cypher- Name" starting with
        "Suit:" and, for a Fury, "POW(n)" (or "POW(-)": no damage). A Fury with a POW is an attack (at FURY_RNG, an
        [interpretation]); every other cypher's text targets one friendly unit or model: an effect, kept as text."""
        if kids(entry, "profiles", "profile"):
            raise self.leave_out(document, entry, "a cypher in a suit group has no profile in the mapped shape: left "
                                                  "out")
        rules = kids(entry, "rules", "rule")
        if len(rules) != 1:
            raise self.leave_out(document, entry, "a cypher in a suit group needs exactly one rule (its text), found "
                                                  f"{len(rules)}: left out")
        text = "\n".join("".join(d.itertext()) for d in kids(rules[0], "description")).strip()
        head = re.match(r"\s*(\w+)\s*:", text)
        if head is None or CYPHER_GROUPS.get(head.group(1).lower()) != suit:
            raise self.leave_out(document, rules[0], f"a cypher in the {suit} group must start its text with its "
                                                     f"suit ({suit.title()}:), found {text[:20]!r}: left out")
        power = re.search(r"\bPOW\s*\(\s*(\d+|-)\s*\)", text)
        card = self._card(entry, "cypher", faction)
        if suit == "fury" and power is not None and power.group(1) != "-":
            card |= {"suit": suit, "cypher_type": "attack",
                     "effects": [{"kind": "attack", "rng": FURY_RNG, "pow": int(power.group(1)), "qualities": []}]}
            self.counts["fury_rng_interpreted"] += 1
        else:
            card |= {"suit": suit, "cypher_type": "attack" if suit == "fury" else "effect", "effects": []}
        name = re.sub(r"^\s*-Cypher-\s*", "", rules[0].get("name") or "") or entry.get("name") or card["code"]
        body = " ".join(text.split())
        _keep_rules(card, f"{name}: {body}", [name])
        self.counts["cyphers"] += 1
        self.counts[f"suit:{suit}"] += 1
        return card
