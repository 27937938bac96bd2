"""HAGMI!'s card text in words, in the reader's language (rules_engine/core/words.py): what the picker's "card text",
the card page and the card editor's preview show. The packages describe skills as data (docs/data-packages.md
§3.3); `skill_line` writes each one as a sentence ("When played: refuel a friendly unit with 2 cards from the top of the
兵器 deck.") and `describe` lists the facts a player needs (category, frame, cost, firepower, ...) with words for
every value (vocabulary.py), so that no page shows a slug. A skill that carries its own `text` / `text_en` (the
original wording) is shown with that text. The registry carries it as `Presentation.card_text` (CARD_WORDS)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.cardtext import gap, own_text, sentence, signed, titled, worded
from rules_engine.core.gamewords import CardNames, CardWords
from rules_engine.core.words import _g, _gn, _t, humanise, word

from .vocabulary import WORDS

__all__ = ["effect_text", "skill_line", "describe", "CARD_WORDS"]

# The words of a skill (trigger, target, duration, deck, source) are the game's vocabulary (vocabulary.py).
TRIGGERS = WORDS["trigger"]
TARGETS = WORDS["target"]
DURATIONS = WORDS["duration"]
DECKS = WORDS["deck"]
SOURCES = WORDS["source"]
COUNTED_TARGETS = "multi-"  # "multi-3": up to 3 targets (presentation.py counted_values)


def _label(field: str, value: Any) -> str:
    """A card field's value in words; HAGMI's counted targets ("multi-3") read "Up to 3 targets"."""
    if field == "targets" and isinstance(value, str) and value not in WORDS[field] \
            and value.startswith(COUNTED_TARGETS):
        return _t("hagmi targets", "Up to %(count)s targets") % {"count": value.removeprefix(COUNTED_TARGETS)}
    return word(WORDS[field], value)


def _either(values: Any, table: Mapping[str, Any]) -> str:
    """["hand", "secret"] -> "your hand or 秘策"."""
    words = [worded(table, value) for value in (values if isinstance(values, (list, tuple)) else [values])]
    return _g(" or ").join(words) if len(words) > 1 else (words[0] if words else "")


def _type(value: Any) -> str:
    """A unit type in words: "重装" / "Heavy" (a type the table does not know is shown as the package wrote it)."""
    known = WORDS["type"].get(value) if isinstance(value, str) else None
    return str(known) if known is not None else str(value)


def _types(types: Any) -> str:
    """["強襲", "近接"] -> "強襲・近接" / "Assault · Close combat"."""
    values = types if isinstance(types, (list, tuple)) else [types]
    return _t("between types", " · ").join(_type(t) for t in values)


def _any_type(types: Any) -> str:
    """["重装", "防衛"] -> "重装か防衛" / "Heavy or Defender" (a unit needs one of them)."""
    values = types if isinstance(types, (list, tuple)) else [types]
    return _g(" or ").join(_type(t) for t in values)


def _condition(condition: Any) -> str:
    if not isinstance(condition, Mapping):
        return ""
    parts = []
    if "min_fuel" in condition:
        parts.append(_g("this unit holds at least %(n)s fuel") % {"n": condition["min_fuel"]})
    if "target_types" in condition:
        parts.append(_g("the target has the type %(types)s") % {"types": _any_type(condition["target_types"])})
    if "self_types" in condition:
        parts.append(_g("this unit has the type %(types)s") % {"types": _any_type(condition["self_types"])})
    if "target_category" in condition:
        category = condition["target_category"]
        word = _g("a player") if category == "player" else _label("category", category)
        parts.append(_g("the target is: %(category)s") % {"category": word})
    if "min_units" in condition:
        parts.append(_g("you control at least %(n)s units") % {"n": condition["min_units"]})
    if "max_damage_deck" in condition:
        parts.append(_g("your damage deck has at most %(n)s cards") % {"n": condition["max_damage_deck"]})
    if condition.get("range_longer"):
        parts.append(_g("this unit's range is longer than its opponent's"))
    return _g(" and ").join(parts)


def _limits(skill: Mapping[str, Any]) -> str:
    """" with cost 2 or less, armor 2 or less" for dismantle / destroy / summon / produce."""
    parts = []
    if "max_cost" in skill:
        parts.append(_g("cost %(n)s or less") % {"n": skill["max_cost"]})
    if "max_armor" in skill:
        parts.append(_g("armor %(n)s or less") % {"n": skill["max_armor"]})
    return _g(", ").join(parts)


def effect_text(skill: Mapping[str, Any]) -> str:
    """One HAGMI skill or effect as a sentence, without its trigger (docs/data-packages.md §3.3)."""
    kind = skill.get("kind")
    target = worded(TARGETS, skill.get("target", "self"))
    amount = skill.get("amount")
    count = skill.get("count", 1)
    duration = worded(DURATIONS, skill.get("duration", "turn"))
    limits = _limits(skill)
    if kind == "deal_damage":
        text = _g("Deal %(amount)s damage to %(target)s.") % {"amount": amount, "target": target}
        if skill.get("unreducible"):
            text += gap() + _g("This damage cannot be reduced.")
        return text
    if kind == "draw":
        deck = worded(DECKS, skill.get("deck", "choice"))
        return _gn("Draw %(count)s card from %(deck)s.", "Draw %(count)s cards from %(deck)s.", count, deck=deck)
    if kind == "charge":
        return _g("Charge %(amount)s (run the beast charge procedure %(amount)s times).") % {"amount": amount}
    if kind == "reduce_damage":
        return _g("Damage dealt to %(target)s is reduced by %(amount)s.") % {"target": target, "amount": amount}
    if kind == "nullify_damage":
        if "max_damage" in skill:
            return _g("Damage of %(max)s or less dealt to %(target)s becomes 0.") % {
                "max": skill["max_damage"], "target": target}
        return _g("Damage dealt to %(target)s becomes 0.") % {"target": target}
    if kind == "no_damage":
        return _g("%(target)s takes no damage.") % {"target": target}
    if kind == "barrier":
        return _gn("Put %(count)s barrier counter on %(target)s (it turns one damage to 0).",
                   "Put %(count)s barrier counters on %(target)s (each turns one damage to 0).", count, target=target)
    if kind == "firepower_mod":
        return _g("%(target)s gets firepower %(amount)s %(duration)s.") % {
            "target": target, "amount": signed(amount), "duration": duration}
    if kind == "armor_mod":
        return _g("%(target)s gets armor %(amount)s %(duration)s.") % {
            "target": target, "amount": signed(amount), "duration": duration}
    if kind == "first_strike":
        return _g("%(target)s has first strike (deals its damage before any range).") % {"target": target}
    if kind == "pierce":
        return _g("%(target)s has pierce (damage beyond an interceptor's armor carries through to the original "
                 "target).") % {"target": target}
    if kind == "unreducible":
        return _g("Damage dealt by %(target)s cannot be reduced.") % {"target": target}
    if kind == "defend":  # H32: a 機獣 that counters / intercepts (engine option beasts_defend = card)
        how = skill.get("how", "both")
        if how == "counter":
            return _g("This beast counters when it is attacked.")
        if how == "intercept":
            return _g("This beast intercepts attacks on other beasts.")
        return _g("This beast counters when it is attacked and intercepts attacks on other beasts.")
    if kind == "end_battle_phase":
        return _g("End this battle phase (the remaining attacks of a multi-attack are void).")
    if kind == "dismantle":
        text = _g("Dismantle %(target)s: it is removed from the game, not destroyed (no \"when destroyed\").") % {
            "target": target}
        return text + (gap() + _g("Only one with %(limits)s.") % {"limits": limits} if limits else "")
    if kind == "refit":
        if skill.get("into") == "self":  # H22: a 秘策 card that refits a battlefield card directly
            return _g("Refit a friendly unit into this card, straight from Secret (same pilot, two shared types "
                     "besides Refit).")
        source = _g("this unit") if skill.get("source") == "self" else _g("a friendly unit")
        return _g("Refit %(source)s into a card from %(from)s (same pilot, two shared types besides Refit).") % {
            "source": source, "from": _either(skill.get("from", ["hand", "secret"]), SOURCES)}
    if kind == "refuel":
        source = worded(SOURCES, skill.get("source", "weapons_deck"))
        return _gn("Refuel %(target)s with %(amount)s card from %(source)s (never above its cost).",
                   "Refuel %(target)s with %(amount)s cards from %(source)s (never above its cost).",
                   amount, target=target, amount=amount, source=source)
    if kind == "destroy":
        text = _g("Destroy %(target)s.") % {"target": target}
        return text + (gap() + _g("Only one with %(limits)s.") % {"limits": limits} if limits else "")
    if kind == "down":
        return _g("%(target)s goes down: it loses its skills and cannot act until its controller's next standby "
                 "step.") % {"target": target}
    if kind == "return_to_hand":
        return _g("Return %(target)s to its owner's hand; its fuel goes to discard.") % {"target": target}
    if kind == "search_secret":
        where = worded(SOURCES, skill.get("to", "hand"))
        text = _g("Take a card from Secret and put it into %(where)s.") % {"where": where}
        kinds = []
        if skill.get("category"):
            kinds.append(_label("category", skill["category"]))
        if skill.get("types"):
            kinds.append(_g("type %(types)s") % {"types": _any_type(skill["types"])})
        return text + (gap() + _g("Only: %(what)s.") % {"what": _g(", ").join(kinds)} if kinds else "")
    if kind == "summon_beast":
        source = worded(SOURCES, skill.get("from", "beast_deck"))
        text = _gn("Put %(count)s beast from %(source)s onto the battlefield without charging.",
                   "Put %(count)s beasts from %(source)s onto the battlefield without charging.", count, source=source)
        return text + (gap() + _g("Only one with %(limits)s.") % {"limits": limits} if limits else "")
    if kind == "produce":
        source = _either(skill.get("from", ["hand"]), SOURCES)
        text = _g("Emergency production: put a unit from %(source)s onto the battlefield outside your main "
                 "phase.") % {"source": source}
        if limits:
            text += gap() + _g("Only one with %(limits)s.") % {"limits": limits}
        if skill.get("pay_cost") is False:
            text += gap() + _g("Its cost is not paid.")
        return text
    return own_text(skill) or humanise(kind)


def skill_line(skill: Mapping[str, Any]) -> dict[str, str]:
    """{"title": its trigger in words, "text": the sentence (or the skill's own wording)}."""
    text = own_text(skill) or effect_text(skill)
    condition = _condition(skill.get("condition"))
    if condition and not own_text(skill):
        text = _g("If %(condition)s: %(text)s") % {"condition": condition, "text": text}
    if skill.get("once_per_turn") and skill.get("trigger") != "hidden_mechanism":
        text += gap() + _g("(Once per turn.)")
    return titled(worded(TRIGGERS, skill.get("trigger")), own_text(skill), text)


def describe(data: Mapping[str, Any], names: CardNames, page: bool = False) -> dict[str, Any]:
    facts: list[tuple[str, str]] = [(_g("Category"), _label("category", data.get("category")))]
    if data.get("subtype"):
        facts.append((_g("Kind"), _label("subtype", data["subtype"])))
    if data.get("frame"):
        facts.append((_g("Frame"), _label("frame", data["frame"])))
    for field, label in (("cost", _g("Cost")), ("firepower", _g("Firepower")), ("armor", _g("Armor")),
                         ("range", _g("Range")), ("fuel_cost", _g("Fuel cost")), ("durability", _g("Durability")),
                         ("energy", _g("Energy")), ("life_cores", _g("Life cores")),
                         ("action_order", _g("Action order")), ("cores", _g("Cores"))):
        value = data.get(field)
        if value is not None:
            shown = str(value).replace("x", "×") if field == "firepower" else str(value)
            facts.append((str(label), shown))
    if data.get("targets"):
        facts.append((_g("Targets"), _label("targets", data["targets"])))
    if data.get("pilot"):
        facts.append((_g("Pilot"), str(data["pilot"])))
    if data.get("types"):
        facts.append((_g("Types"), _types(data["types"])))
    if data.get("terrain"):
        facts.append((_g("Terrain"), _label("terrain", data["terrain"])))
    lines = [skill_line(skill) for skill in data.get("skills") or [] if isinstance(skill, Mapping)]
    equip = data.get("equip")
    if isinstance(equip, Mapping):
        types = equip.get("types")
        text = (_g("Equips a unit with the type %(types)s.") % {"types": _any_type(types)} if types
                else _g("Equips any unit."))
        lines.insert(0, {"title": _g("Equip"), "text": text})
    if data.get("usable_from_secret"):
        lines.append({"title": _label("source", "secret"),
                      "text": _g("Used from Secret; it cannot be played from your hand.")})
    bounty = data.get("bounty")
    if isinstance(bounty, Mapping):
        lines.append(titled(_g("Bounty"), own_text(bounty), own_text(bounty) or effect_text(bounty)))
    for step in data.get("attrition") or []:
        if isinstance(step, Mapping):
            effects = [sentence(effect_text(effect)) for effect in step.get("effects") or []]
            text = own_text(step) or gap().join(effects)
            at = step.get("at") if isinstance(step.get("at"), int) else 0
            title = _gn("At %(n)s core", "At %(n)s cores", at, n=at)
            lines.append(titled(title, own_text(step), text))
    return {"facts": facts, "lines": lines}


CARD_WORDS = CardWords(describe=describe)
