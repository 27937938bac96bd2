"""Warcaster: Neo-Mechanika's card text in words, in the reader's language (rules_engine/core/words.py): what the
picker's "card text", the card page and the card editor's preview show. The packages describe cypher effects and
abilities as data (docs/data-packages.md, the effect vocabulary); `effect_text` and `ability_line` write each one as
a sentence, `describe` lists a card's facts (kind, faction, suit, costs, stats) with words for every value
(vocabulary.py), `weapon_rows` and `stat_rows` are a model's weapons and stats as the card page's tables. An ability
that carries its own `text` / `text_en` is shown with that text. The registry carries it as
`Presentation.card_text` (CARD_WORDS)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.cardtext import gap, own_text, sentence, signed, worded
from rules_engine.core.gamewords import CardNames, CardWords
from rules_engine.core.naming import in_language
from rules_engine.core.words import _g, _gn, _t, _tl, humanise, word

from .vocabulary import WORDS

__all__ = ["QUALITY_TEXT", "qualities", "effect_text", "ability_line", "weapon_rows", "stat_rows", "describe",
           "CARD_WORDS"]

TARGETS = WORDS["target"]
TRIGGERS = WORDS["trigger"]
DURATIONS = WORDS["duration"]


def _faction(names: CardNames, value: Any) -> str:
    """A faction of the game's words, else the name a loaded package declares for it (the site knows those)."""
    known = WORDS["faction"].get(value) if isinstance(value, str) else None
    return str(known) if known is not None else names.faction(value)


QUALITY_TEXT = {
    "strafe": _tl("warcaster quality text", "one extra attack per strike of a power die on enemies within "
                                            "2″ of the target"),
    "blast": _tl("warcaster quality text", "on a hit the 2 nearest models within 2″ take half its POW; on "
                                           "a miss the target does"),
    "spray": _tl("warcaster quality text", "hits every model on the line through the target; ignores "
                                           "cover"),
    "armor_piercing": _tl("warcaster quality text", "its damage rolls count the target's ARM as 1 less"),
    "fire": _tl("warcaster quality text", "a hit sets the model on fire"),
    "corrosion": _tl("warcaster quality text", "a hit applies corrosion"),
    "lockdown": _tl("warcaster quality text", "a hit locks down the target's unit"),
    "system_failure": _tl("warcaster quality text", "a hit on a warjack applies system failure"),
}


def qualities(values: Any) -> str:
    """["spray", "fire"] -> "Spray, Fire" in the UI language."""
    if not isinstance(values, (list, tuple)):
        return ""
    return _g(", ").join(word(WORDS["quality"], value) for value in values)


def _where(effect: Mapping[str, Any]) -> str:
    """" within 8″", " within 10″ and every model within 3″ of it" (with the space each language puts before it)."""
    parts = []
    if "range" in effect:
        parts.append(_g("within %(n)s″") % {"n": effect["range"]})
    if "area" in effect:
        parts.append(_g("and every model within %(n)s″ of it") % {"n": effect["area"]}
                     if not str(effect.get("target", "")).startswith("all_")
                     else _g("within %(n)s″ of the arc node") % {"n": effect["area"]})
    return _t("before a range", " %(where)s") % {"where": " ".join(parts)} if parts else ""


def effect_text(effect: Mapping[str, Any]) -> str:
    """One Warcaster effect (cypher effect or ability) as a sentence (docs/data-packages.md, effect vocabulary)."""
    kind = effect.get("kind")
    target = worded(TARGETS, effect.get("target", "self")) + _where(effect)
    amount = effect.get("amount")
    if kind == "attack":
        words = (_g("Make one melee attack: RNG %(rng)s, POW %(pow)s.") if effect.get("type") == "melee"
                 else _g("Make one ranged attack: RNG %(rng)s, POW %(pow)s."))
        text = words % {"rng": effect.get("rng"), "pow": effect.get("pow")}
        if effect.get("qualities"):
            text += gap() + _g("Qualities: %(qualities)s.") % {"qualities": qualities(effect["qualities"])}
        return text
    if kind == "damage":
        return _g("%(amount)s damage to %(target)s, straight to health (no roll).") % {
            "amount": amount, "target": target}
    if kind == "apply_effect":
        return _g("%(target)s suffers %(effect)s.") % {
            "target": target, "effect": word(WORDS["effect"], effect.get("effect"))}
    if kind == "remove_effect":
        if effect.get("effect"):
            return _g("Remove %(effect)s from %(target)s.") % {
                "effect": word(WORDS["effect"], effect["effect"]), "target": target}
        return _g("Remove every continuous effect from %(target)s.") % {"target": target}
    if kind == "heal":
        return _g("%(target)s regains up to %(amount)s health.") % {"target": target, "amount": amount}
    if kind == "move":
        words = (_g("%(target)s is placed up to %(n)s″ away.") if effect.get("place")
                 else _g("%(target)s moves up to %(n)s″."))
        return words % {"target": target, "n": effect.get("distance")}
    if kind == "arc":
        if "target" not in effect:
            target = _g("the model the cypher is played through")
        return _g("Put %(amount)s arc on %(target)s.") % {"amount": amount, "target": target}
    if kind == "draw":
        count = effect.get("count", 1)
        return _gn("Draw %(count)s cypher.", "Draw %(count)s cyphers.", count)
    if kind == "shield":
        return _g("Prevent the next %(amount)s damage %(target)s would take this pulse round.") % {
            "amount": amount, "target": target}
    if kind == "stat_mod":
        return _g("%(target)s: %(stat)s %(amount)s, %(duration)s.") % {
            "target": target, "stat": word(WORDS["stat"], effect.get("stat")),
            "amount": signed(amount), "duration": worded(DURATIONS, effect.get("duration", "round"))}
    if kind == "immunity":
        effects = [word(WORDS["effect"], name) for name in effect.get("effects") or []]
        return _g("Cannot suffer %(effects)s.") % {"effects": _g(", ").join(effects)}
    if kind == "flight":
        return _g("Ignores terrain and other models when it moves.")
    if kind == "arc_node":
        return _g("Cyphers may be played through this model (attack cyphers start from it).")
    return own_text(effect) or humanise(kind)


def ability_line(ability: Mapping[str, Any]) -> dict[str, str]:
    name = in_language({"name": ability.get("name"), "name_en": ability.get("name_en")})["main"] \
        if ability.get("name") else humanise(ability.get("kind"))
    default = "static" if ability.get("kind") in ("immunity", "flight", "arc_node") or (
        ability.get("kind") == "stat_mod" and ability.get("duration") == "static") else "action"
    trigger = worded(TRIGGERS, ability.get("trigger", default))
    text = own_text(ability) or effect_text(ability)
    if ability.get("arc_cost"):
        text += gap() + _g("(Costs %(n)s arc.)") % {"n": ability["arc_cost"]}
    return {"title": f"{name} · {trigger}", "text": sentence(text)}


def weapon_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A Warcaster model's fixed weapons for a table: name, type and qualities in words, RNG, POW, and the
    qualities the simulator does not play (`other_qualities`, kept by their names from the data)."""
    return [{"names": in_language({"name": w.get("name"), "name_en": w.get("name_en")}),
             "type": word(WORDS["weapon_type"], w.get("type")), "rng": w.get("rng"),
             "pow": w.get("pow"), "qualities": qualities(w.get("qualities") or []),
             "other_qualities": _other_qualities(w)}
            for w in data.get("weapons") or [] if isinstance(w, Mapping)]


def _other_qualities(item: Mapping[str, Any]) -> list[str]:
    """A weapon's qualities the engine does not know (a BattleScribe import keeps them by name)."""
    found = item.get("other_qualities")
    return [str(q) for q in found if isinstance(q, str) and q] if isinstance(found, list) else []


def stat_rows(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A Warcaster model's stat line: (stat in words, value)."""
    stats = data.get("stats")
    return [(word(WORDS["stat"], key), value) for key, value in stats.items()] \
        if isinstance(stats, Mapping) else []


def describe(data: Mapping[str, Any], names: CardNames, page: bool = False) -> dict[str, Any]:
    kind = data.get("kind")
    facts: list[tuple[str, str]] = [(_g("Kind"), word(WORDS["kind"], kind))]
    if data.get("faction"):
        facts.append((_g("Faction"), _faction(names, data["faction"])))
    if data.get("suit"):
        facts.append((_g("Suit"), word(WORDS["suit"], data["suit"])))
    if data.get("cypher_type"):
        facts.append((_g("Cypher type"), word(WORDS["cypher_type"], data["cypher_type"])))
    if data.get("cst") is not None:
        facts.append((_g("Deployment cost (CST)"), str(data["cst"])))
    if data.get("weapon_points") is not None:
        facts.append((_g("Weapon points"), str(data["weapon_points"])))
    if kind == "weapon":
        # each fact only when the card has it (the card editor previews a weapon while it is typed in)
        for label, value in ((_g("Weapon points cost"), data.get("cost")),
                             (_g("Type"), word(WORDS["weapon_type"], data["type"])
                              if data.get("type") else None),
                             (word(WORDS["stat"], "rng"), data.get("rng")),
                             (word(WORDS["stat"], "pow"), data.get("pow"))):
            if value is not None:
                facts.append((label, str(value)))
        if data.get("qualities"):
            facts.append((_g("Qualities"), qualities(data["qualities"])))
        if _other_qualities(data):
            facts.append((_g("Qualities not modelled"), _g(", ").join(_other_qualities(data))))
    stats = data.get("stats")
    if isinstance(stats, Mapping) and not page:  # the card page shows them as a table
        facts.append((_g("Stats"), " · ".join(f"{word(WORDS['stat'], key)} {value}"
                                             for key, value in stats.items())))
    if data.get("attaches_to"):
        facts.append((_g("Attaches to"), _g(", ").join(names.card(code) for code in data["attaches_to"])))
    lines = [{"title": _g("Effect %(n)s") % {"n": number} if len(data.get("effects") or []) > 1 else _g("Effect"),
              "text": sentence(effect_text(effect))}
             for number, effect in enumerate(data.get("effects") or [], start=1) if isinstance(effect, Mapping)]
    for weapon in [] if page else data.get("weapons") or []:  # the card page shows them as a table
        if isinstance(weapon, Mapping):
            title = in_language({"name": weapon.get("name"), "name_en": weapon.get("name_en")})["main"]
            text = _g("%(type)s, RNG %(rng)s, POW %(pow)s.") % {
                "type": word(WORDS["weapon_type"], weapon.get("type")),
                "rng": weapon.get("rng"), "pow": weapon.get("pow")}
            if weapon.get("qualities"):
                text += gap() + _g("Qualities: %(qualities)s.") % {"qualities": qualities(weapon["qualities"])}
            lines.append({"title": title, "text": text})
    lines += [ability_line(ability) for ability in data.get("abilities") or [] if isinstance(ability, Mapping)]
    for quality in sorted(set(_all_qualities(data))):
        lines.append({"title": word(WORDS["quality"], quality), "text": worded(QUALITY_TEXT, quality)})
    return {"facts": facts, "lines": lines}


def _all_qualities(data: Mapping[str, Any]) -> list[str]:
    found = list(data.get("qualities") or [])
    for item in list(data.get("weapons") or []) + list(data.get("effects") or []) + list(data.get("abilities") or []):
        if isinstance(item, Mapping):
            found += [q for q in item.get("qualities") or [] if isinstance(q, str)]
    return [q for q in found if isinstance(q, str)]


CARD_WORDS = CardWords(describe=describe, weapon_rows=weapon_rows, stat_rows=stat_rows)
