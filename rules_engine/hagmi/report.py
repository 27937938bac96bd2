"""HAGMI!'s replay report: each event its engine logs (docs/engine-hagmi.md) as a sentence in the reader's
language (rules_engine/core/words.py), naming cards and sides through the report's Namer
(rules_engine/core/naming.py): "Guren-maru attacked the opponent's Hound.", 「相手が兵器デッキからカードを2枚引いた。」.
builder/web/gamereport.py groups the events by turn and asks `REPORT` (the registry's `Presentation.report`) for the
words: `SENTENCES` (one function per event kind; None for an event the reader does not need), `SILENT`, and
`together` (a run of draws from one deck, the damage cards dealt at once, damage that destroys a unit: one
sentence). English sentences are in the past tense."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.gamewords import ReportWords, Sentence
from rules_engine.core.naming import Event, Namer, game_over, join
from rules_engine.core.words import _t, _tn, humanise

from .cardtext import skill_line

__all__ = ["SENTENCES", "SILENT", "together", "REPORT"]


def _deck(deck: Any) -> str:
    if deck == "weapons":
        return _t("replay", "the Weapons deck")
    if deck == "tactics":
        return _t("replay", "the Tactics deck")
    return _t("replay", "a deck")


def _target(n: Namer, side: Any, target: Any) -> str:
    if isinstance(target, list) and len(target) == 2 and target[0] == "player":
        return n.subject(target[1])
    if isinstance(target, list) and len(target) == 2 and target[0] == "mothership":  # 母艦 (H34)
        return _t("replay", "the mothership")
    return n.whose(1 - side if isinstance(side, int) else None, n.card(target))


def _hagmi_skill_text(n: Namer, code: Any, kind: Any) -> str:
    card = n.cards.get(code) if isinstance(code, str) else None
    for skill in (card or {}).get("skills") or []:
        if isinstance(skill, Mapping) and skill.get("kind") == kind:
            return skill_line(skill)["text"]
    return humanise(str(kind or ""))


def _h_draw(n: Namer, e: Mapping[str, Any], count: int = 1) -> str:
    if count == 1:
        return _t("replay",
                  "%(who)s drew a card from %(deck)s.", who=n.subject(e["player"]), deck=_deck(e["data"].get("deck")))
    return _t("replay", "%(who)s drew %(count)s cards from %(deck)s.", who=n.subject(e["player"]), count=count,
              deck=_deck(e["data"].get("deck")))


def _h_logistics(n: Namer, e: Mapping[str, Any]) -> str:
    dice = [str(d) for d in e["data"].get("dice") or []]
    text = _t("replay", "Logistics: %(who)s rolled %(dice)s.", who=n.subject(e["player"]), dice=join(dice))
    if len(dice) == 2 and dice[0] == dice[1]:
        text += _t("replay", " Doubles: one more card.")
    return text


def _h_play(n: Namer, e: Mapping[str, Any]) -> str:
    paid = e["data"].get("paid") or 0
    card = n.card(e["data"].get("card"))
    if not paid:
        return _t("replay", "%(who)s played %(card)s.", who=n.subject(e["player"]), card=card)
    return _tn("replay",
               "%(who)s played %(card)s, paying %(count)s card.", "%(who)s played %(card)s, paying %(count)s cards.",
               paid, who=n.subject(e["player"]), card=card)


def _h_enter(n: Namer, e: Mapping[str, Any]) -> str:
    name = n.whose(e["player"], n.card(e["data"].get("card"), pilot=True))
    fuel = e["data"].get("fuel") or 0
    if not fuel:
        return _t("replay", "%(unit)s entered the battlefield with no fuel.", unit=name)
    return _t("replay", "%(unit)s entered the battlefield with %(fuel)s fuel.", unit=name, fuel=fuel)


def _h_skill(n: Namer, e: Mapping[str, Any]) -> str:
    code = e["data"].get("card")
    return _t("replay", "%(card)s used its skill: %(text)s", card=n.whose(e["player"], n.card(code)),
              text=_hagmi_skill_text(n, code, e["data"].get("skill")))


def _h_attack(n: Namer, e: Mapping[str, Any]) -> str:
    targets = [_target(n, e["player"], t) for t in e["data"].get("targets") or []]
    unit = n.whose(e["player"], n.card(e["data"].get("unit")))
    if not targets:
        return _t("replay", "%(unit)s attacked.", unit=unit)
    return _t("replay", "%(unit)s attacked %(targets)s.", unit=unit, targets=join(targets))


def _h_defend(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.card(e["data"].get("unit")))
    if e["data"].get("how") == "intercept":
        return _t("replay", "%(unit)s intercepted.", unit=unit)
    return _t("replay", "%(unit)s counterattacked.", unit=unit)


def _h_damage(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.uid(e["data"].get("unit")))
    amount = e["data"].get("amount") or 0
    if not amount:
        return _t("replay", "%(unit)s took no damage.", unit=unit)
    if e["data"].get("unreducible"):
        return _t("replay", "%(unit)s took %(amount)s damage that cannot be reduced.", unit=unit, amount=amount)
    return _t("replay", "%(unit)s took %(amount)s damage.", unit=unit, amount=amount)


def _h_damage_player(n: Namer, e: Mapping[str, Any], cards: list[Any] | None = None) -> str:
    cards = cards if cards is not None else [e["data"].get("card")]
    who = n.subject(e["player"])
    shown = [_t("replay", "“%(name)s”", name=n.card(code)) for code in cards if code]
    if not shown:
        return _t("replay", "%(who)s took damage with an empty damage deck.", who=who)
    if len(cards) == 1:
        text = _t("replay", "%(who)s took 1 damage: the damage card %(cards)s was turned up.", who=who, cards=shown[0])
    else:
        text = _t("replay", "%(who)s took %(count)s damage: the damage cards %(cards)s were turned up.", who=who,
                  count=len(shown), cards=join(shown))
    if len(shown) < len(cards):
        text += _t("replay", " Then the damage deck was empty.")
    return text


def _h_destroyed(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.card(e["data"].get("card")))
    cores = e["data"].get("cores") or 0
    if cores:
        return _tn("replay", "%(unit)s was destroyed, and its %(count)s core with it.",
                   "%(unit)s was destroyed, and its %(count)s cores with it.", cores, unit=unit)
    return _t("replay", "%(unit)s was destroyed.", unit=unit)


def _h_dismantled(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.card(e["data"].get("card")))
    cores = e["data"].get("cores") or 0
    if cores:
        return _tn("replay", "%(unit)s was dismantled (removed from the game), and its %(count)s core with it.",
                   "%(unit)s was dismantled (removed from the game), and its %(count)s cores with it.", cores,
                   unit=unit)
    return _t("replay", "%(unit)s was dismantled (removed from the game).", unit=unit)


def _h_game_over(n: Namer, e: Mapping[str, Any]) -> str:
    return game_over(n, e["data"].get("winner"), e["data"].get("reason"))


SENTENCES: dict[str, Sentence] = {
    "turn_start": lambda n, e: None,
    "turn_end": lambda n, e: None,
    "draw": _h_draw,
    "logistics": _h_logistics,
    "play": _h_play,
    "enter": _h_enter,
    "skill": _h_skill,
    "battle_phase": lambda n, e: _t("replay", "%(who)s moved to the battle phase.", who=n.subject(e["player"])),
    "end_battle_phase": lambda n, e: _t("replay", "The battle phase was ended (flare)."),
    "attack": _h_attack,
    "defend": _h_defend,
    "damage": _h_damage,
    "pierce": lambda n, e: _t("replay", "Pierce: %(amount)s damage carried through to the original target.",
                              amount=e["data"].get("amount")),
    "damage_player": _h_damage_player,
    "down": lambda n, e: _t("replay", "%(unit)s went down.", unit=n.whose(e["player"], n.uid(e["data"].get("unit")))),
    "destroyed": _h_destroyed,
    "dismantled": _h_dismantled,
    "armament_broken": lambda n, e: _t("replay", "The armament %(card)s broke.", card=n.card(e["data"].get("card"))),
    "refuel": lambda n, e: _tn("replay",
                               "%(unit)s was refuelled with %(count)s card.", "%(unit)s was refuelled with %(count)s "
                               "cards.", e["data"].get("amount"),
                               unit=n.whose(e["player"], n.uid(e["data"].get("unit")))),
    "return_to_hand": lambda n, e: _t("replay", "%(unit)s returned to its owner's hand.",
                                      unit=n.whose(e["player"], n.card(e["data"].get("card")))),
    "search_secret": lambda n, e: (
        _t("replay", "%(who)s put a card from the Secret onto the battlefield.", who=n.subject(e["player"]))
        if e["data"].get("to") == "battlefield" else
        _t("replay", "%(who)s took a card from the Secret into hand.", who=n.subject(e["player"]))),
    "produce": lambda n, e: _t("replay", "Emergency production: %(who)s put %(card)s onto the battlefield.",
                               who=n.subject(e["player"]), card=n.card(e["data"].get("card"))),
    "refit": lambda n, e: _t("replay", "%(who)s refitted %(source)s into %(card)s.", who=n.subject(e["player"]),
                             source=n.card(e["data"].get("source")), card=n.card(e["data"].get("card"))),
    "design": lambda n, e: _t("replay",
                              "%(who)s built the design %(card)s from %(materials)s.", who=n.subject(e["player"]),
                              card=n.card(e["data"].get("card")),
                              materials=join(n.card(code) for code in e["data"].get("materials") or [])),
    "hidden_mechanism": lambda n, e: _t("replay", "%(card)s used its hidden mechanism.",
                                        card=n.whose(e["player"], n.card(e["data"].get("card")))),
    "charge": lambda n, e: _t("replay", "The beasts charged %(amount)s.", amount=e["data"].get("amount")),
    "charge_reveal": lambda n, e: (
        _t("replay", "Revealed %(card)s (cost %(cost)s against %(chargers)s chargers): it became a charger.",
           card=n.card(e["data"].get("card")), cost=e["data"].get("cost"), chargers=e["data"].get("chargers"))
        if e["data"].get("result") == "charger" else
        _t("replay", "Revealed %(card)s (cost %(cost)s against %(chargers)s chargers): it will appear.",
           card=n.card(e["data"].get("card")), cost=e["data"].get("cost"), chargers=e["data"].get("chargers"))),
    "beast_enter": lambda n, e: _t("replay", "The beast %(card)s appeared.", card=n.card(e["data"].get("card"))),
    "life_cores": lambda n, e: _tn("replay",
                                   "%(card)s took %(count)s life core from the mothership (%(left)s left on it).",
                                   "%(card)s took %(count)s life cores from the mothership (%(left)s left on it).",
                                   e["data"].get("cores"), card=n.card(e["data"].get("card")),
                                   left=e["data"].get("left")),
    "mothership_damage": lambda n, e: _tn("replay",
                                          "The mothership lost %(count)s core to the attack (%(left)s left on it).",
                                          "The mothership lost %(count)s cores to the attack (%(left)s left on it).",
                                          e["data"].get("amount"), left=e["data"].get("left")),
    "attrition": lambda n, e: _t("replay", "Core attrition: the mothership is down to %(cores)s cores; its ability at "
                                 "%(at)s fired.", cores=e["data"].get("cores"), at=e["data"].get("at")),
    "summon_beast": lambda n, e: (
        _t("replay", "The beast %(card)s was summoned from the beast discard.", card=n.card(e["data"].get("card")))
        if e["data"].get("source") == "beast_discard" else
        _t("replay", "The beast %(card)s was summoned from the beast deck.", card=n.card(e["data"].get("card")))),
    "beast_deck_reshuffled": lambda n, e: _t("replay", "The beast deck was reshuffled from its discard."),
    "game_over": _h_game_over,
}


# Kinds with no sentence: the headings say whose turn it is.
SILENT = frozenset({"turn_start", "turn_end"})


def together(events: Sequence[Event], start: int, n: Namer) -> tuple[str, int] | None:
    """Events from `start` that read as one sentence, and how many: a player's run of draws from one deck ("You drew
    3 cards from the Weapons deck."), of damage cards turned up at once, and damage that destroys a unit ("Hound
    took 3 damage and was destroyed.")."""
    event = events[start]
    kind = event.get("kind")
    if kind in ("draw", "damage_player"):
        end = start
        while (end + 1 < len(events) and events[end + 1].get("kind") == kind
               and events[end + 1].get("player") == event.get("player")
               and (kind != "draw" or events[end + 1]["data"].get("deck") == event["data"].get("deck"))):
            end += 1
        if kind == "draw":
            return _h_draw(n, event, count=end - start + 1), end - start + 1
        return _h_damage_player(n, event, [e["data"].get("card") for e in events[start:end + 1]]), end - start + 1
    if start + 1 >= len(events):
        return None
    second = events[start + 1]
    a, b = event["data"], second["data"]
    if kind == "damage" and second["kind"] == "destroyed" and b.get("uid") == a.get("unit") and not b.get("cores") \
            and a.get("amount"):
        unit = n.whose(event["player"], n.uid(a.get("unit")))
        if a.get("unreducible"):
            return _t("replay", "%(unit)s took %(amount)s damage that cannot be reduced and was destroyed.",
                      unit=unit, amount=a.get("amount")), 2
        return _t("replay", "%(unit)s took %(amount)s damage and was destroyed.", unit=unit, amount=a.get("amount")), 2
    return None


REPORT = ReportWords(sentences=SENTENCES, silent=SILENT, together=together)
