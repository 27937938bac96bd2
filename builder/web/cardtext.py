"""A card's text in words, in the UI language: what the picker's "card text" disclosure and the card pages show.

The packages describe abilities as data (docs/data-packages.md: HAGMI skills, Warcaster effects and abilities, MWDA
ability names); this module writes each one as a sentence ("When played: refuel a friendly unit with 2 cards from
the top of the 兵器 deck.") and lists the facts a player needs (kind, faction, suit, costs, stats) with words for
every value (builder.web.vocabulary), so that no page shows a slug. A skill or ability that carries its own
`text` / `text_en` (the original wording) is shown with that text.

    describe(system, card_data, card_names) -> {"facts": [(label, value)], "lines": [{"title", "text"}],
                                                "text": the card's own rules text or ""}
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from . import vocabulary
from .presenters import names, ui_lang

Names = Callable[[str], str]  # card code -> its name in the UI language

# --- HAGMI -----------------------------------------------------------------------------------------------------

# The words of a skill (trigger, target, duration, deck, source) are vocabularies (builder/web/vocabulary.py).
HAGMI_TRIGGERS = vocabulary.words("hagmi", "trigger")
HAGMI_TARGETS = vocabulary.words("hagmi", "target")
HAGMI_DURATIONS = vocabulary.words("hagmi", "duration")
HAGMI_DECKS = vocabulary.words("hagmi", "deck")
HAGMI_SOURCES = vocabulary.words("hagmi", "source")


def _gap() -> str:
    """What stands between two sentences: a space in English, nothing in Japanese (「…出す。コスト1以下…」)."""
    return pgettext("two sentences", "%(first)s %(second)s") % {"first": "", "second": ""}


def _own_text(item: Mapping[str, Any]) -> str:
    """An item's own wording in the UI language (text_en in English, text in Japanese), or ""."""
    ja, en = item.get("text"), item.get("text_en")
    first, second = (en, ja) if ui_lang() == "en" else (ja, en)
    return str(first or second or "")


def _sentence(text: str) -> str:
    """Capitalised: "a friendly unit gets ..." -> "A friendly unit gets ..." (Japanese text is unchanged)."""
    return text[:1].upper() + text[1:]


def _titled(title: str, own: str, text: str) -> dict[str, str]:
    """A line; a package's own wording that starts with its own heading ("緊急：...", "Emergency: ...") keeps it
    instead of ours."""
    head = re.split("[:：]", own, maxsplit=1)[0] if own else ""
    if own and head != own and len(head) <= 24:
        return {"title": "", "text": _sentence(text)}
    return {"title": title, "text": _sentence(text)}


def _word(table: Mapping[str, Any], value: Any) -> str:
    return str(table.get(value, vocabulary.humanise(value))) if value is not None else ""


def _signed(amount: Any) -> str:
    return f"{amount:+d}" if isinstance(amount, int) and not isinstance(amount, bool) else str(amount)


def _either(values: Any, table: Mapping[str, Any]) -> str:
    """["hand", "secret"] -> "your hand or 秘策"."""
    words = [_word(table, value) for value in (values if isinstance(values, (list, tuple)) else [values])]
    return _(" or ").join(words) if len(words) > 1 else (words[0] if words else "")


def _type(value: Any) -> str:
    """A unit type in words: "重装" / "Heavy" (a type the table does not know is shown as the package wrote it)."""
    known = vocabulary.words("hagmi", "type").get(value) if isinstance(value, str) else None
    return str(known) if known is not None else str(value)


def _types(types: Any) -> str:
    """["強襲", "近接"] -> "強襲・近接" / "Assault · Close combat"."""
    values = types if isinstance(types, (list, tuple)) else [types]
    return pgettext("between types", " · ").join(_type(t) for t in values)


def _any_type(types: Any) -> str:
    """["重装", "防衛"] -> "重装か防衛" / "Heavy or Defender" (a unit needs one of them)."""
    values = types if isinstance(types, (list, tuple)) else [types]
    return _(" or ").join(_type(t) for t in values)


def _hagmi_condition(condition: Any) -> str:
    if not isinstance(condition, Mapping):
        return ""
    parts = []
    if "min_fuel" in condition:
        parts.append(_("this unit holds at least %(n)s fuel") % {"n": condition["min_fuel"]})
    if "target_types" in condition:
        parts.append(_("the target has the type %(types)s") % {"types": _any_type(condition["target_types"])})
    if "self_types" in condition:
        parts.append(_("this unit has the type %(types)s") % {"types": _any_type(condition["self_types"])})
    if "target_category" in condition:
        category = condition["target_category"]
        word = _("a player") if category == "player" else vocabulary.label("hagmi", "category", category)
        parts.append(_("the target is: %(category)s") % {"category": word})
    if "min_units" in condition:
        parts.append(_("you control at least %(n)s units") % {"n": condition["min_units"]})
    if "max_damage_deck" in condition:
        parts.append(_("your damage deck has at most %(n)s cards") % {"n": condition["max_damage_deck"]})
    if condition.get("range_longer"):
        parts.append(_("this unit's range is longer than its opponent's"))
    return _(" and ").join(parts)


def _limits(skill: Mapping[str, Any]) -> str:
    """" with cost 2 or less, armor 2 or less" for dismantle / destroy / summon / produce."""
    parts = []
    if "max_cost" in skill:
        parts.append(_("cost %(n)s or less") % {"n": skill["max_cost"]})
    if "max_armor" in skill:
        parts.append(_("armor %(n)s or less") % {"n": skill["max_armor"]})
    return _(", ").join(parts)


def hagmi_effect(skill: Mapping[str, Any]) -> str:
    """One HAGMI skill or effect as a sentence, without its trigger (docs/data-packages.md §3.3)."""
    kind = skill.get("kind")
    target = _word(HAGMI_TARGETS, skill.get("target", "self"))
    amount = skill.get("amount")
    count = skill.get("count", 1)
    duration = _word(HAGMI_DURATIONS, skill.get("duration", "turn"))
    limits = _limits(skill)
    if kind == "deal_damage":
        text = _("Deal %(amount)s damage to %(target)s.") % {"amount": amount, "target": target}
        if skill.get("unreducible"):
            text += _gap() + _("This damage cannot be reduced.")
        return text
    if kind == "draw":
        deck = _word(HAGMI_DECKS, skill.get("deck", "choice"))
        return ngettext("Draw %(count)s card from %(deck)s.", "Draw %(count)s cards from %(deck)s.", count) % {
            "count": count, "deck": deck}
    if kind == "charge":
        return _("Charge %(amount)s (run the beast charge procedure %(amount)s times).") % {"amount": amount}
    if kind == "reduce_damage":
        return _("Damage dealt to %(target)s is reduced by %(amount)s.") % {"target": target, "amount": amount}
    if kind == "nullify_damage":
        if "max_damage" in skill:
            return _("Damage of %(max)s or less dealt to %(target)s becomes 0.") % {
                "max": skill["max_damage"], "target": target}
        return _("Damage dealt to %(target)s becomes 0.") % {"target": target}
    if kind == "no_damage":
        return _("%(target)s takes no damage.") % {"target": target}
    if kind == "barrier":
        return ngettext("Put %(count)s barrier counter on %(target)s (it turns one damage to 0).",
                        "Put %(count)s barrier counters on %(target)s (each turns one damage to 0).", count) % {
            "count": count, "target": target}
    if kind == "firepower_mod":
        return _("%(target)s gets firepower %(amount)s %(duration)s.") % {
            "target": target, "amount": _signed(amount), "duration": duration}
    if kind == "armor_mod":
        return _("%(target)s gets armor %(amount)s %(duration)s.") % {
            "target": target, "amount": _signed(amount), "duration": duration}
    if kind == "first_strike":
        return _("%(target)s has first strike (deals its damage before any range).") % {"target": target}
    if kind == "pierce":
        return _("%(target)s has pierce (damage beyond an interceptor's armor carries through to the original "
                 "target).") % {"target": target}
    if kind == "unreducible":
        return _("Damage dealt by %(target)s cannot be reduced.") % {"target": target}
    if kind == "defend":  # H32: a 機獣 that counters / intercepts (engine option beasts_defend = card)
        how = skill.get("how", "both")
        if how == "counter":
            return _("This beast counters when it is attacked.")
        if how == "intercept":
            return _("This beast intercepts attacks on other beasts.")
        return _("This beast counters when it is attacked and intercepts attacks on other beasts.")
    if kind == "end_battle_phase":
        return _("End this battle phase (the remaining attacks of a multi-attack are void).")
    if kind == "dismantle":
        text = _("Dismantle %(target)s: it is removed from the game, not destroyed (no \"when destroyed\").") % {
            "target": target}
        return text + (_gap() + _("Only one with %(limits)s.") % {"limits": limits} if limits else "")
    if kind == "refit":
        if skill.get("into") == "self":  # H22: a 秘策 card that refits a battlefield card directly
            return _("Refit a friendly unit into this card, straight from Secret (same pilot, two shared types "
                     "besides Refit).")
        source = _("this unit") if skill.get("source") == "self" else _("a friendly unit")
        return _("Refit %(source)s into a card from %(from)s (same pilot, two shared types besides Refit).") % {
            "source": source, "from": _either(skill.get("from", ["hand", "secret"]), HAGMI_SOURCES)}
    if kind == "refuel":
        source = _word(HAGMI_SOURCES, skill.get("source", "weapons_deck"))
        return ngettext("Refuel %(target)s with %(amount)s card from %(source)s (never above its cost).",
                        "Refuel %(target)s with %(amount)s cards from %(source)s (never above its cost).",
                        amount if isinstance(amount, int) else 2) % {
            "target": target, "amount": amount, "source": source}
    if kind == "destroy":
        text = _("Destroy %(target)s.") % {"target": target}
        return text + (_gap() + _("Only one with %(limits)s.") % {"limits": limits} if limits else "")
    if kind == "down":
        return _("%(target)s goes down: it loses its skills and cannot act until its controller's next standby "
                 "step.") % {"target": target}
    if kind == "return_to_hand":
        return _("Return %(target)s to its owner's hand; its fuel goes to discard.") % {"target": target}
    if kind == "search_secret":
        where = _word(HAGMI_SOURCES, skill.get("to", "hand"))
        text = _("Take a card from Secret and put it into %(where)s.") % {"where": where}
        kinds = []
        if skill.get("category"):
            kinds.append(vocabulary.label("hagmi", "category", skill["category"]))
        if skill.get("types"):
            kinds.append(_("type %(types)s") % {"types": _any_type(skill["types"])})
        return text + (_gap() + _("Only: %(what)s.") % {"what": _(", ").join(kinds)} if kinds else "")
    if kind == "summon_beast":
        source = _word(HAGMI_SOURCES, skill.get("from", "beast_deck"))
        text = ngettext("Put %(count)s beast from %(source)s onto the battlefield without charging.",
                        "Put %(count)s beasts from %(source)s onto the battlefield without charging.", count) % {
            "count": count, "source": source}
        return text + (_gap() + _("Only one with %(limits)s.") % {"limits": limits} if limits else "")
    if kind == "produce":
        source = _either(skill.get("from", ["hand"]), HAGMI_SOURCES)
        text = _("Emergency production: put a unit from %(source)s onto the battlefield outside your main "
                 "phase.") % {"source": source}
        if limits:
            text += _gap() + _("Only one with %(limits)s.") % {"limits": limits}
        if skill.get("pay_cost") is False:
            text += _gap() + _("Its cost is not paid.")
        return text
    return _own_text(skill) or vocabulary.humanise(kind)


def hagmi_skill(skill: Mapping[str, Any]) -> dict[str, str]:
    """{"title": its trigger in words, "text": the sentence (or the skill's own wording)}."""
    text = _own_text(skill) or hagmi_effect(skill)
    condition = _hagmi_condition(skill.get("condition"))
    if condition and not _own_text(skill):
        text = _("If %(condition)s: %(text)s") % {"condition": condition, "text": text}
    if skill.get("once_per_turn") and skill.get("trigger") != "hidden_mechanism":
        text += _gap() + _("(Once per turn.)")
    return _titled(_word(HAGMI_TRIGGERS, skill.get("trigger")), _own_text(skill), text)


def _hagmi(data: Mapping[str, Any], card_name: Names, page: bool = False) -> dict[str, Any]:
    facts: list[tuple[str, str]] = [(_("Category"), vocabulary.label("hagmi", "category", data.get("category")))]
    if data.get("subtype"):
        facts.append((_("Kind"), vocabulary.label("hagmi", "subtype", data["subtype"])))
    if data.get("frame"):
        facts.append((_("Frame"), vocabulary.label("hagmi", "frame", data["frame"])))
    for field, label in (("cost", _("Cost")), ("firepower", _("Firepower")), ("armor", _("Armor")),
                         ("range", _("Range")), ("fuel_cost", _("Fuel cost")), ("durability", _("Durability")),
                         ("energy", _("Energy")), ("life_cores", _("Life cores")),
                         ("action_order", _("Action order")), ("cores", _("Cores"))):
        value = data.get(field)
        if value is not None:
            shown = str(value).replace("x", "×") if field == "firepower" else str(value)
            facts.append((str(label), shown))
    if data.get("targets"):
        facts.append((_("Targets"), vocabulary.label("hagmi", "targets", data["targets"])))
    if data.get("pilot"):
        facts.append((_("Pilot"), str(data["pilot"])))
    if data.get("types"):
        facts.append((_("Types"), _types(data["types"])))
    if data.get("terrain"):
        facts.append((_("Terrain"), vocabulary.label("hagmi", "terrain", data["terrain"])))
    lines = [hagmi_skill(skill) for skill in data.get("skills") or [] if isinstance(skill, Mapping)]
    equip = data.get("equip")
    if isinstance(equip, Mapping):
        types = equip.get("types")
        text = (_("Equips a unit with the type %(types)s.") % {"types": _any_type(types)} if types
                else _("Equips any unit."))
        lines.insert(0, {"title": _("Equip"), "text": text})
    if data.get("usable_from_secret"):
        lines.append({"title": vocabulary.label("hagmi", "source", "secret"),
                      "text": _("Used from Secret; it cannot be played from your hand.")})
    bounty = data.get("bounty")
    if isinstance(bounty, Mapping):
        lines.append(_titled(_("Bounty"), _own_text(bounty), _own_text(bounty) or hagmi_effect(bounty)))
    for step in data.get("attrition") or []:
        if isinstance(step, Mapping):
            effects = [_sentence(hagmi_effect(effect)) for effect in step.get("effects") or []]
            text = _own_text(step) or _gap().join(effects)
            at = step.get("at") if isinstance(step.get("at"), int) else 0
            title = ngettext("At %(n)s core", "At %(n)s cores", at) % {"n": at}
            lines.append(_titled(title, _own_text(step), text))
    return {"facts": facts, "lines": lines}


# --- MechWarrior: Dark Age -------------------------------------------------------------------------------------

MWDA_ABILITIES = {
    "jump": pgettext_lazy("mwda ability text", "may make death-from-above attacks; moves over other bases and "
                                               "terrain"),
    "capture": pgettext_lazy("mwda ability text", "may capture an enemy infantry unit in base contact"),
    "ecm": pgettext_lazy("mwda ability text", "enemy ranged attacks against this unit or friendly units within 6″ "
                                              "get attack −1"),
    "stealth": pgettext_lazy("mwda ability text", "cannot be targeted by ranged attacks from more than 8″ away"),
    "flight": pgettext_lazy("mwda ability text", "ignores terrain and bases when moving; in base contact only with "
                                                 "other flyers"),
    "hover": pgettext_lazy("mwda ability text", "moves over water as clear terrain"),
    "indirect_fire": pgettext_lazy("mwda ability text", "its ranged attacks need no line of fire (range still "
                                                        "applies)"),
    "transport": pgettext_lazy("mwda ability text", "may carry one friendly infantry unit"),
    "repair": pgettext_lazy("mwda ability text", "an order that turns an adjacent friendly vehicle or mech back one "
                                                 "click"),
}


def _mwda(data: Mapping[str, Any], card_name: Names, page: bool = False) -> dict[str, Any]:
    facts: list[tuple[str, str]] = [(_("Kind"), vocabulary.label("mwda", "kind", data.get("kind")))]
    if data.get("faction"):
        facts.append((_("Faction"), vocabulary.label("mwda", "faction", data["faction"])))
    if data.get("points") is not None:
        facts.append((_("Points"), str(data["points"])))
    if data.get("rank"):
        facts.append((_("Rank"), vocabulary.label("mwda", "rank", data["rank"])))
    if data.get("unique"):
        facts.append((_("Unique"), _("★ at most one per army (M3)")))
    if data.get("order_bonus"):
        facts.append((_("Order bonus"), _("+%(n)s orders per round (M2)") % {"n": data["order_bonus"]}))
    if data.get("base"):
        facts.append((_("Base"), vocabulary.label("mwda", "base", data["base"])))
    for slot, label in (("primary", _("Primary weapon")), ("secondary", _("Secondary weapon"))):
        weapon = data.get(slot)
        if isinstance(weapon, Mapping):
            facts.append((str(label), _("range %(min)s–%(max)s″, %(type)s") % {
                "min": weapon.get("min_range"), "max": weapon.get("max_range"),
                "type": vocabulary.label("mwda", "damage_type", weapon.get("damage_type"))}))
    if data.get("vent") is not None:
        facts.append((_("Vent"), str(data["vent"])))
    dial = data.get("dial")
    if isinstance(dial, list) and dial:
        facts.append((_("Clicks"), str(len(dial))))
    lines = [{"title": vocabulary.label("mwda", "ability", name), "text": _word(MWDA_ABILITIES, name)}
             for name in data.get("abilities") or [] if isinstance(name, str)]
    return {"facts": facts, "lines": lines}


# --- Warcaster -------------------------------------------------------------------------------------------------

WARCASTER_TARGETS = vocabulary.words("warcaster", "target")
WARCASTER_TRIGGERS = vocabulary.words("warcaster", "trigger")
WARCASTER_DURATIONS = vocabulary.words("warcaster", "duration")
QUALITY_TEXT = {
    "strafe": pgettext_lazy("warcaster quality text", "one extra attack per strike of a power die on enemies within "
                                                      "2″ of the target"),
    "blast": pgettext_lazy("warcaster quality text", "on a hit the 2 nearest models within 2″ take half its POW; on "
                                                     "a miss the target does"),
    "spray": pgettext_lazy("warcaster quality text", "hits every model on the line through the target; ignores "
                                                     "cover"),
    "armor_piercing": pgettext_lazy("warcaster quality text", "its damage rolls count the target's ARM as 1 less"),
    "fire": pgettext_lazy("warcaster quality text", "a hit sets the model on fire"),
    "corrosion": pgettext_lazy("warcaster quality text", "a hit applies corrosion"),
    "lockdown": pgettext_lazy("warcaster quality text", "a hit locks down the target's unit"),
    "system_failure": pgettext_lazy("warcaster quality text", "a hit on a warjack applies system failure"),
}


def qualities(values: Any) -> str:
    """["spray", "fire"] -> "Spray, Fire" in the UI language."""
    if not isinstance(values, (list, tuple)):
        return ""
    return _(", ").join(vocabulary.label("warcaster", "quality", value) for value in values)


def _where(effect: Mapping[str, Any]) -> str:
    """" within 8″", " within 10″ and every model within 3″ of it" (with the space each language puts before it)."""
    parts = []
    if "range" in effect:
        parts.append(_("within %(n)s″") % {"n": effect["range"]})
    if "area" in effect:
        parts.append(_("and every model within %(n)s″ of it") % {"n": effect["area"]}
                     if not str(effect.get("target", "")).startswith("all_")
                     else _("within %(n)s″ of the arc node") % {"n": effect["area"]})
    return pgettext("before a range", " %(where)s") % {"where": " ".join(parts)} if parts else ""


def warcaster_effect(effect: Mapping[str, Any]) -> str:
    """One Warcaster effect (cypher effect or ability) as a sentence (docs/data-packages.md, effect vocabulary)."""
    kind = effect.get("kind")
    target = _word(WARCASTER_TARGETS, effect.get("target", "self")) + _where(effect)
    amount = effect.get("amount")
    if kind == "attack":
        words = (_("Make one melee attack: RNG %(rng)s, POW %(pow)s.") if effect.get("type") == "melee"
                 else _("Make one ranged attack: RNG %(rng)s, POW %(pow)s."))
        text = words % {"rng": effect.get("rng"), "pow": effect.get("pow")}
        if effect.get("qualities"):
            text += _gap() + _("Qualities: %(qualities)s.") % {"qualities": qualities(effect["qualities"])}
        return text
    if kind == "damage":
        return _("%(amount)s damage to %(target)s, straight to health (no roll).") % {
            "amount": amount, "target": target}
    if kind == "apply_effect":
        return _("%(target)s suffers %(effect)s.") % {
            "target": target, "effect": vocabulary.label("warcaster", "effect", effect.get("effect"))}
    if kind == "remove_effect":
        if effect.get("effect"):
            return _("Remove %(effect)s from %(target)s.") % {
                "effect": vocabulary.label("warcaster", "effect", effect["effect"]), "target": target}
        return _("Remove every continuous effect from %(target)s.") % {"target": target}
    if kind == "heal":
        return _("%(target)s regains up to %(amount)s health.") % {"target": target, "amount": amount}
    if kind == "move":
        words = (_("%(target)s is placed up to %(n)s″ away.") if effect.get("place")
                 else _("%(target)s moves up to %(n)s″."))
        return words % {"target": target, "n": effect.get("distance")}
    if kind == "arc":
        if "target" not in effect:
            target = _("the model the cypher is played through")
        return _("Put %(amount)s arc on %(target)s.") % {"amount": amount, "target": target}
    if kind == "draw":
        count = effect.get("count", 1)
        return ngettext("Draw %(count)s cypher.", "Draw %(count)s cyphers.", count) % {"count": count}
    if kind == "shield":
        return _("Prevent the next %(amount)s damage %(target)s would take this pulse round.") % {
            "amount": amount, "target": target}
    if kind == "stat_mod":
        return _("%(target)s: %(stat)s %(amount)s, %(duration)s.") % {
            "target": target, "stat": vocabulary.label("warcaster", "stat", effect.get("stat")),
            "amount": _signed(amount), "duration": _word(WARCASTER_DURATIONS, effect.get("duration", "round"))}
    if kind == "immunity":
        effects = [vocabulary.label("warcaster", "effect", name) for name in effect.get("effects") or []]
        return _("Cannot suffer %(effects)s.") % {"effects": _(", ").join(effects)}
    if kind == "flight":
        return _("Ignores terrain and other models when it moves.")
    if kind == "arc_node":
        return _("Cyphers may be played through this model (attack cyphers start from it).")
    return _own_text(effect) or vocabulary.humanise(kind)


def warcaster_ability(ability: Mapping[str, Any]) -> dict[str, str]:
    name = names({"name": ability.get("name"), "name_en": ability.get("name_en")})["main"] if ability.get("name") \
        else vocabulary.humanise(ability.get("kind"))
    default = "static" if ability.get("kind") in ("immunity", "flight", "arc_node") or (
        ability.get("kind") == "stat_mod" and ability.get("duration") == "static") else "action"
    trigger = _word(WARCASTER_TRIGGERS, ability.get("trigger", default))
    text = _own_text(ability) or warcaster_effect(ability)
    if ability.get("arc_cost"):
        text += _gap() + _("(Costs %(n)s arc.)") % {"n": ability["arc_cost"]}
    return {"title": f"{name} · {trigger}", "text": _sentence(text)}


def weapon_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A Warcaster model's fixed weapons for a table: name, type and qualities in words, RNG, POW, and the
    qualities the simulator does not play (`other_qualities`, kept by their names from the data)."""
    return [{"names": names({"name": w.get("name"), "name_en": w.get("name_en")}),
             "type": vocabulary.label("warcaster", "weapon_type", w.get("type")), "rng": w.get("rng"),
             "pow": w.get("pow"), "qualities": qualities(w.get("qualities") or []),
             "other_qualities": other_qualities(w)}
            for w in data.get("weapons") or [] if isinstance(w, Mapping)]


def other_qualities(item: Mapping[str, Any]) -> list[str]:
    """A weapon's qualities the engine does not know (a BattleScribe import keeps them by name)."""
    found = item.get("other_qualities")
    return [str(q) for q in found if isinstance(q, str) and q] if isinstance(found, list) else []


def not_modelled(data: Mapping[str, Any]) -> list[str]:
    """The names of the rules, qualities and cypher effects of a card the simulator plays only in part
    (`not_modelled`, the text is kept), then its weapons' unmodelled qualities not named already."""
    found = data.get("not_modelled")
    out = [str(name) for name in found if isinstance(name, str) and name] if isinstance(found, list) else []
    for weapon in [data, *[w for w in data.get("weapons") or [] if isinstance(w, Mapping)]]:
        out += [q for q in other_qualities(weapon) if q not in out]
    return out


def rules_text(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A card's own rules text as the data gives it (`text`, `text_en`), line by line, in the UI language when the
    data has it, else in the other one: {"lines", "lang": "ja"|"en", "other_language": the page's language is
    missing}. A BattleScribe import keeps the English text in both fields (the data is English only)."""
    ja, en = str(data.get("text") or ""), str(data.get("text_en") or "")
    if not (ja or en):
        return None
    english_only = bool(en) and (not ja or ja == en)
    if ui_lang() == "en":
        shown, lang = (en, "en") if en else (ja, "ja")
    else:
        shown, lang = (en, "en") if english_only else (ja, "ja")
    lines = [line.strip() for line in shown.splitlines() if line.strip()]
    return {"lines": lines, "lang": lang, "other_language": lang != ui_lang()}


def stat_rows(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A Warcaster model's stat line: (stat in words, value)."""
    stats = data.get("stats")
    return [(vocabulary.label("warcaster", "stat", key), value) for key, value in stats.items()] \
        if isinstance(stats, Mapping) else []


def _warcaster(data: Mapping[str, Any], card_name: Names, page: bool = False) -> dict[str, Any]:
    kind = data.get("kind")
    facts: list[tuple[str, str]] = [(_("Kind"), vocabulary.label("warcaster", "kind", kind))]
    if data.get("faction"):
        facts.append((_("Faction"), vocabulary.label("warcaster", "faction", data["faction"])))
    if data.get("suit"):
        facts.append((_("Suit"), vocabulary.label("warcaster", "suit", data["suit"])))
    if data.get("cypher_type"):
        facts.append((_("Cypher type"), vocabulary.label("warcaster", "cypher_type", data["cypher_type"])))
    if data.get("cst") is not None:
        facts.append((_("Deployment cost (CST)"), str(data["cst"])))
    if data.get("weapon_points") is not None:
        facts.append((_("Weapon points"), str(data["weapon_points"])))
    if kind == "weapon":
        # each fact only when the card has it (the card editor previews a weapon while it is typed in)
        for label, value in ((_("Weapon points cost"), data.get("cost")),
                             (_("Type"), vocabulary.label("warcaster", "weapon_type", data["type"])
                              if data.get("type") else None),
                             (vocabulary.label("warcaster", "stat", "rng"), data.get("rng")),
                             (vocabulary.label("warcaster", "stat", "pow"), data.get("pow"))):
            if value is not None:
                facts.append((label, str(value)))
        if data.get("qualities"):
            facts.append((_("Qualities"), qualities(data["qualities"])))
        if other_qualities(data):
            facts.append((_("Qualities not modelled"), _(", ").join(other_qualities(data))))
    stats = data.get("stats")
    if isinstance(stats, Mapping) and not page:  # the card page shows them as a table
        facts.append((_("Stats"), " · ".join(f"{vocabulary.label('warcaster', 'stat', key)} {value}"
                                             for key, value in stats.items())))
    if data.get("attaches_to"):
        facts.append((_("Attaches to"), _(", ").join(card_name(code) for code in data["attaches_to"])))
    lines = [{"title": _("Effect %(n)s") % {"n": number} if len(data.get("effects") or []) > 1 else _("Effect"),
              "text": _sentence(warcaster_effect(effect))}
             for number, effect in enumerate(data.get("effects") or [], start=1) if isinstance(effect, Mapping)]
    for weapon in [] if page else data.get("weapons") or []:  # the card page shows them as a table
        if isinstance(weapon, Mapping):
            title = names({"name": weapon.get("name"), "name_en": weapon.get("name_en")})["main"]
            text = _("%(type)s, RNG %(rng)s, POW %(pow)s.") % {
                "type": vocabulary.label("warcaster", "weapon_type", weapon.get("type")),
                "rng": weapon.get("rng"), "pow": weapon.get("pow")}
            if weapon.get("qualities"):
                text += _gap() + _("Qualities: %(qualities)s.") % {"qualities": qualities(weapon["qualities"])}
            lines.append({"title": title, "text": text})
    lines += [warcaster_ability(ability) for ability in data.get("abilities") or [] if isinstance(ability, Mapping)]
    for quality in sorted(set(_all_qualities(data))):
        lines.append({"title": vocabulary.label("warcaster", "quality", quality), "text": _word(QUALITY_TEXT, quality)})
    return {"facts": facts, "lines": lines}


def _all_qualities(data: Mapping[str, Any]) -> list[str]:
    found = list(data.get("qualities") or [])
    for item in list(data.get("weapons") or []) + list(data.get("effects") or []) + list(data.get("abilities") or []):
        if isinstance(item, Mapping):
            found += [q for q in item.get("qualities") or [] if isinstance(q, str)]
    return [q for q in found if isinstance(q, str)]


DESCRIBERS = {"hagmi": _hagmi, "mwda": _mwda, "warcaster": _warcaster}


def _plain_facts(system: str, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A game with no describer here: its card's plain values (numbers and words), each field named in words."""
    return [(vocabulary.card_field(field), vocabulary.label(system, field, value) if isinstance(value, str)
             else str(value)) for field, value in data.items()
            if field not in ("code", "name", "name_en", "text", "text_en") and isinstance(value, (str, int))
            and not isinstance(value, bool)]


def describe(system: str, data: Mapping[str, Any], card_name: Names | None = None, page: bool = False
             ) -> dict[str, Any]:
    """The card's facts and text in words (see the module docstring). `page`: for the card page, which shows a
    Warcaster model's stats and weapons as tables of their own."""
    describer = DESCRIBERS.get(system)
    found = describer(data, card_name or str, page) if describer else {"facts": _plain_facts(system, data), "lines": []}
    found["text"] = _own_text(data)
    return found
