"""A replayed game as a game report: every event of the engines' logs as a sentence in the page's language.

`report(system, game, cards)` groups the events (rules_engine.replay) by turn under a heading in words
("ターン3（あなた）", "Round 2 · Turn 3 (you)") and writes each event as a sentence with the cards' and units' names:
"Guren-maru attacked the opponent's Hound.", 「相手の鋼狼突撃歩兵 1が3ダメージを受けた（残り3/6クリック）。」.
The sides are "you" (the list, player 0) and "the opponent" (player 1; "the beasts" in a HAGMI co-op game). A unit
of the side whose turn it is goes by its name alone, the other side's with its owner ("the opponent's Hound").

One function per event kind and game (`_HAGMI`, `_MWDA`, `_WARCASTER`, the kinds the engines log:
docs/engine-*.md); a function returns None for an event the reader does not need (a turn's start, an action
token). A kind no table knows yet still gets a worded sentence (`_unknown`), never the engine's key=value text.
English sentences are in the past tense (no verb agrees with "you" or "the opponent").
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import npgettext, pgettext

from . import cardtext, vocabulary
from .presenters import presentation, ui_lang

__all__ = ["table_name", "Namer", "report", "sentence", "heading", "outcome", "piece_labels", "KNOWN_KINDS", "SILENT"]


def _t(context: str, message: str, **values: Any) -> str:
    """A sentence of the report in the UI language: `_t("replay","replay", "...")`, pgettext with its values filled in
    (makemessages extracts it: builder/management/commands/makemessages.py adds the keyword)."""
    text = pgettext(context, message)
    return text % values if values else text


def _tn(context: str, singular: str, plural: str, count: Any, **values: Any) -> str:
    """A sentence with a count in it: "1 card" / "2 cards" (Japanese has one form)."""
    number = count if isinstance(count, int) else 2
    return npgettext(context, singular, plural, number) % {"count": count, **values}


def _join(items: Iterable[str]) -> str:
    items = [item for item in items if item]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return pgettext("replay list", ", ").join(items[:-1]) + pgettext("replay list", " and ") + items[-1]


def _number(value: Any) -> str:
    """A measure in inches or a count: 9.0 -> "9", 12.5 -> "12.5"."""
    if isinstance(value, float):
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return str(value)


# --- names --------------------------------------------------------------------------------------------------


@dataclass
class Namer:
    """The names a report uses: cards by code, the sides, and MWDA units / Warcaster models by their log ids."""

    system: str
    cards: Mapping[str, Any]
    coop: bool = False
    codes: Mapping[int, str] = field(default_factory=dict)  # HAGMI: every card's uid -> code
    pieces: dict[int, tuple[int, str]] = field(default_factory=dict)  # MWDA unit / Warcaster model -> (side, name)
    units: dict[int, tuple[int, str]] = field(default_factory=dict)  # Warcaster unit -> (side, name)
    active: int | None = None  # whose turn it is: that side's units go by their names alone

    # sides
    def subject(self, side: Any) -> str:
        """"you" / "the opponent" / "the beasts" (no capital: capfirst makes a sentence start)."""
        if side == 0:
            return _t("replay","you")
        if side == 1 and self.coop:
            return _t("replay","the beasts")
        return _t("replay","the opponent")

    def whose(self, side: Any, name: str) -> str:
        """A unit's name as the report writes it: alone for the side whose turn it is and for 機獣."""
        if side is None or side == self.active or (self.coop and side == 1):
            return name
        if side == 0:
            return _t("replay","your %(name)s", name=name)
        return _t("replay","the opponent's %(name)s", name=name)

    # cards
    def card(self, code: Any, *, pilot: bool = False) -> str:
        card = self.cards.get(code) if isinstance(code, str) else None
        if not card:
            return _t("replay","a card") if code is None else _t("replay","an unknown card")
        ja, en = card.get("name") or "", card.get("name_en") or ""
        if ui_lang() == "en":
            return str(en or ja)
        if pilot and card.get("pilot"):
            return _t("replay","%(pilot)s's %(name)s", pilot=card["pilot"], name=ja)
        return str(ja or en)

    def uid(self, uid: Any) -> str:
        """A HAGMI card on the battlefield, by its uid."""
        return self.card(self.codes.get(uid) if isinstance(uid, int) else None)

    def piece(self, pid: Any) -> str:
        found = self.pieces.get(pid) if isinstance(pid, int) else None
        return self.whose(found[0], found[1]) if found else _t("replay","a unit")

    def piece_side(self, pid: Any) -> Any:
        found = self.pieces.get(pid) if isinstance(pid, int) else None
        return found[0] if found else None

    def unit(self, uid: Any) -> str:
        found = self.units.get(uid) if isinstance(uid, int) else None
        return self.whose(found[0], found[1]) if found else _t("replay","a unit")


def _numbered(entries: list[tuple[int, int, str]]) -> dict[int, tuple[int, str]]:
    """(id, side, name) -> id: (side, name), with "Hound 1", "Hound 2" where one side has two of a name."""
    counts = Counter((side, name) for _, side, name in entries)
    seen: Counter = Counter()
    named: dict[int, tuple[int, str]] = {}
    for pid, side, name in entries:
        if counts[(side, name)] > 1:
            seen[(side, name)] += 1
            name = f"{name} {seen[(side, name)]}"
        named[pid] = (side, name)
    return named


def namer_for(system: str, game: Mapping[str, Any], cards: Mapping[str, Any], *, coop: bool = False) -> Namer:
    namer = Namer(system=system, cards=cards, coop=coop, codes=game.get("codes") or {})
    events = game.get("events") or []
    pieces_from = presentation(system).pieces_from
    if pieces_from == "deploy":
        entries = [(e["data"]["unit"], e["player"], namer.card(e["data"].get("code")))
                   for e in events if e["kind"] == "deploy"]
        namer.pieces = _numbered(entries)
    elif pieces_from == "setup":
        setup = next((e["data"] for e in events if e["kind"] == "setup"), {})
        models, units, codes = [], [], {}
        for side, info in enumerate(setup.get("sides") or []):
            for unit in info.get("units") or []:
                units.append((unit["unit"], side, namer.card(unit.get("code"))))
                for model in unit.get("models") or []:
                    models.append((model["model"], side, namer.card(model.get("code"))))
                    codes[model["model"]] = model.get("code")
        namer.pieces, namer.units, namer.codes = _numbered(models), _numbered(units), codes
    return namer


def piece_labels(names: Mapping[int, tuple[int, str]]) -> dict[int, str]:
    """A short label for each token (at most 4 characters): initials of an English name, the trailing katakana
    name or the first characters of a Japanese one, with the number of "Hound 2" kept; labels that would be the
    same get numbers."""
    def short(name: str) -> str:
        base, number = name, ""
        head, _, tail = name.rpartition(" ")
        if head and tail.isdigit():
            base, number = head, tail
        words = [w for w in base.replace("-", " ").split() if w]
        if words and all(w.isascii() for w in words):
            letters = "".join(w[0] for w in words if w[0].isalnum()).upper()
            letters = letters[:3] if len(letters) > 1 else base[:3]
        else:  # a Japanese name: its trailing katakana (the unit's own name: 重戦車ケアン -> ケアン), or its start
            tail = re.search(r"[\u30a0-\u30ff]{2,}$", base.split()[-1] if base.split() else base)
            name = tail.group(0).strip("・ー").split("・")[0] if tail else ""  # アヤ・クロガネ -> アヤ
            letters = name[:4 - len(number) if number else 4] if len(name) >= 2 else base.replace(" ", "")[:2]
        return (letters + number)[:4] if number else letters[:4]

    labels = {pid: short(name) for pid, (_side, name) in names.items()}
    clashes = Counter(labels.values())
    seen: Counter = Counter()
    for pid in sorted(labels):
        label = labels[pid]
        if clashes[label] > 1:
            seen[label] += 1
            labels[pid] = f"{label[:3]}{seen[label]}"
    return labels


# --- HAGMI! -------------------------------------------------------------------------------------------------

def _deck(deck: Any) -> str:
    if deck == "weapons":
        return _t("replay","the Weapons deck")
    if deck == "tactics":
        return _t("replay","the Tactics deck")
    return _t("replay","a deck")


def _target(n: Namer, side: Any, target: Any) -> str:
    if isinstance(target, list) and len(target) == 2 and target[0] == "player":
        return n.subject(target[1])
    if isinstance(target, list) and len(target) == 2 and target[0] == "mothership":  # 母艦 (H34)
        return _t("replay","the mothership")
    return n.whose(1 - side if isinstance(side, int) else None, n.card(target))


def _hagmi_skill_text(n: Namer, code: Any, kind: Any) -> str:
    card = n.cards.get(code) if isinstance(code, str) else None
    for skill in (card or {}).get("skills") or []:
        if isinstance(skill, Mapping) and skill.get("kind") == kind:
            return cardtext.hagmi_skill(skill)["text"]
    return vocabulary.humanise(str(kind or ""))


def _h_draw(n: Namer, e: Mapping[str, Any], count: int = 1) -> str:
    if count == 1:
        return _t("replay","%(who)s drew a card from %(deck)s.", who=n.subject(e["player"]), deck=_deck(e["data"].get("deck")))
    return _t("replay","%(who)s drew %(count)s cards from %(deck)s.", who=n.subject(e["player"]), count=count,
              deck=_deck(e["data"].get("deck")))


def _h_logistics(n: Namer, e: Mapping[str, Any]) -> str:
    dice = [str(d) for d in e["data"].get("dice") or []]
    text = _t("replay","Logistics: %(who)s rolled %(dice)s.", who=n.subject(e["player"]), dice=_join(dice))
    if len(dice) == 2 and dice[0] == dice[1]:
        text += _t("replay"," Doubles: one more card.")
    return text


def _h_play(n: Namer, e: Mapping[str, Any]) -> str:
    paid = e["data"].get("paid") or 0
    card = n.card(e["data"].get("card"))
    if not paid:
        return _t("replay","%(who)s played %(card)s.", who=n.subject(e["player"]), card=card)
    return _tn("replay","%(who)s played %(card)s, paying %(count)s card.", "%(who)s played %(card)s, paying %(count)s cards.",
               paid, who=n.subject(e["player"]), card=card)


def _h_enter(n: Namer, e: Mapping[str, Any]) -> str:
    name = n.whose(e["player"], n.card(e["data"].get("card"), pilot=True))
    fuel = e["data"].get("fuel") or 0
    if not fuel:
        return _t("replay","%(unit)s entered the battlefield with no fuel.", unit=name)
    return _t("replay","%(unit)s entered the battlefield with %(fuel)s fuel.", unit=name, fuel=fuel)


def _h_skill(n: Namer, e: Mapping[str, Any]) -> str:
    code = e["data"].get("card")
    return _t("replay","%(card)s used its skill: %(text)s", card=n.whose(e["player"], n.card(code)),
              text=_hagmi_skill_text(n, code, e["data"].get("skill")))


def _h_attack(n: Namer, e: Mapping[str, Any]) -> str:
    targets = [_target(n, e["player"], t) for t in e["data"].get("targets") or []]
    unit = n.whose(e["player"], n.card(e["data"].get("unit")))
    if not targets:
        return _t("replay","%(unit)s attacked.", unit=unit)
    return _t("replay","%(unit)s attacked %(targets)s.", unit=unit, targets=_join(targets))


def _h_defend(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.card(e["data"].get("unit")))
    if e["data"].get("how") == "intercept":
        return _t("replay","%(unit)s intercepted.", unit=unit)
    return _t("replay","%(unit)s counterattacked.", unit=unit)


def _h_damage(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.uid(e["data"].get("unit")))
    amount = e["data"].get("amount") or 0
    if not amount:
        return _t("replay","%(unit)s took no damage.", unit=unit)
    if e["data"].get("unreducible"):
        return _t("replay","%(unit)s took %(amount)s damage that cannot be reduced.", unit=unit, amount=amount)
    return _t("replay","%(unit)s took %(amount)s damage.", unit=unit, amount=amount)


def _h_damage_player(n: Namer, e: Mapping[str, Any], cards: list[Any] | None = None) -> str:
    cards = cards if cards is not None else [e["data"].get("card")]
    who = n.subject(e["player"])
    shown = [_t("replay","“%(name)s”", name=n.card(code)) for code in cards if code]
    if not shown:
        return _t("replay","%(who)s took damage with an empty damage deck.", who=who)
    if len(cards) == 1:
        text = _t("replay","%(who)s took 1 damage: the damage card %(cards)s was turned up.", who=who, cards=shown[0])
    else:
        text = _t("replay","%(who)s took %(count)s damage: the damage cards %(cards)s were turned up.", who=who,
                  count=len(shown), cards=_join(shown))
    if len(shown) < len(cards):
        text += _t("replay"," Then the damage deck was empty.")
    return text


def _h_destroyed(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.card(e["data"].get("card")))
    cores = e["data"].get("cores") or 0
    if cores:
        return _tn("replay","%(unit)s was destroyed, and its %(count)s core with it.",
                   "%(unit)s was destroyed, and its %(count)s cores with it.", cores, unit=unit)
    return _t("replay","%(unit)s was destroyed.", unit=unit)


def _h_dismantled(n: Namer, e: Mapping[str, Any]) -> str:
    unit = n.whose(e["player"], n.card(e["data"].get("card")))
    cores = e["data"].get("cores") or 0
    if cores:
        return _tn("replay","%(unit)s was dismantled (removed from the game), and its %(count)s core with it.",
                   "%(unit)s was dismantled (removed from the game), and its %(count)s cores with it.", cores,
                   unit=unit)
    return _t("replay","%(unit)s was dismantled (removed from the game).", unit=unit)


def _h_game_over(n: Namer, e: Mapping[str, Any]) -> str:
    return _game_over(n, e["data"].get("winner"), e["data"].get("reason"))


_HAGMI: dict[str, Callable[[Namer, Mapping[str, Any]], str | None]] = {
    "turn_start": lambda n, e: None,
    "turn_end": lambda n, e: None,
    "draw": _h_draw,
    "logistics": _h_logistics,
    "play": _h_play,
    "enter": _h_enter,
    "skill": _h_skill,
    "battle_phase": lambda n, e: _t("replay","%(who)s moved to the battle phase.", who=n.subject(e["player"])),
    "end_battle_phase": lambda n, e: _t("replay","The battle phase was ended (flare)."),
    "attack": _h_attack,
    "defend": _h_defend,
    "damage": _h_damage,
    "pierce": lambda n, e: _t("replay","Pierce: %(amount)s damage carried through to the original target.",
                              amount=e["data"].get("amount")),
    "damage_player": _h_damage_player,
    "down": lambda n, e: _t("replay","%(unit)s went down.", unit=n.whose(e["player"], n.uid(e["data"].get("unit")))),
    "destroyed": _h_destroyed,
    "dismantled": _h_dismantled,
    "armament_broken": lambda n, e: _t("replay","The armament %(card)s broke.", card=n.card(e["data"].get("card"))),
    "refuel": lambda n, e: _tn("replay","%(unit)s was refuelled with %(count)s card.", "%(unit)s was refuelled with %(count)s "
                               "cards.", e["data"].get("amount"),
                               unit=n.whose(e["player"], n.uid(e["data"].get("unit")))),
    "return_to_hand": lambda n, e: _t("replay","%(unit)s returned to its owner's hand.",
                                      unit=n.whose(e["player"], n.card(e["data"].get("card")))),
    "search_secret": lambda n, e: (
        _t("replay","%(who)s put a card from the Secret onto the battlefield.", who=n.subject(e["player"]))
        if e["data"].get("to") == "battlefield" else
        _t("replay","%(who)s took a card from the Secret into hand.", who=n.subject(e["player"]))),
    "produce": lambda n, e: _t("replay","Emergency production: %(who)s put %(card)s onto the battlefield.",
                               who=n.subject(e["player"]), card=n.card(e["data"].get("card"))),
    "refit": lambda n, e: _t("replay","%(who)s refitted %(source)s into %(card)s.", who=n.subject(e["player"]),
                             source=n.card(e["data"].get("source")), card=n.card(e["data"].get("card"))),
    "design": lambda n, e: _t("replay","%(who)s built the design %(card)s from %(materials)s.", who=n.subject(e["player"]),
                              card=n.card(e["data"].get("card")),
                              materials=_join(n.card(code) for code in e["data"].get("materials") or [])),
    "hidden_mechanism": lambda n, e: _t("replay","%(card)s used its hidden mechanism.",
                                        card=n.whose(e["player"], n.card(e["data"].get("card")))),
    "charge": lambda n, e: _t("replay","The beasts charged %(amount)s.", amount=e["data"].get("amount")),
    "charge_reveal": lambda n, e: (
        _t("replay","Revealed %(card)s (cost %(cost)s against %(chargers)s chargers): it became a charger.",
           card=n.card(e["data"].get("card")), cost=e["data"].get("cost"), chargers=e["data"].get("chargers"))
        if e["data"].get("result") == "charger" else
        _t("replay","Revealed %(card)s (cost %(cost)s against %(chargers)s chargers): it will appear.",
           card=n.card(e["data"].get("card")), cost=e["data"].get("cost"), chargers=e["data"].get("chargers"))),
    "beast_enter": lambda n, e: _t("replay","The beast %(card)s appeared.", card=n.card(e["data"].get("card"))),
    "life_cores": lambda n, e: _tn("replay","%(card)s took %(count)s life core from the mothership (%(left)s left on it).",
                                   "%(card)s took %(count)s life cores from the mothership (%(left)s left on it).",
                                   e["data"].get("cores"), card=n.card(e["data"].get("card")),
                                   left=e["data"].get("left")),
    "mothership_damage": lambda n, e: _tn("replay","The mothership lost %(count)s core to the attack (%(left)s left on it).",
                                          "The mothership lost %(count)s cores to the attack (%(left)s left on it).",
                                          e["data"].get("amount"), left=e["data"].get("left")),
    "attrition": lambda n, e: _t("replay","Core attrition: the mothership is down to %(cores)s cores; its ability at "
                                 "%(at)s fired.", cores=e["data"].get("cores"), at=e["data"].get("at")),
    "summon_beast": lambda n, e: (
        _t("replay","The beast %(card)s was summoned from the beast discard.", card=n.card(e["data"].get("card")))
        if e["data"].get("source") == "beast_discard" else
        _t("replay","The beast %(card)s was summoned from the beast deck.", card=n.card(e["data"].get("card")))),
    "beast_deck_reshuffled": lambda n, e: _t("replay","The beast deck was reshuffled from its discard."),
    "game_over": _h_game_over,
}


# --- MechWarrior: Dark Age ----------------------------------------------------------------------------------


def table_name(name: Any) -> str:
    """An MWDA terrain layout (rules_engine/mwda/geometry.py LAYOUTS) in words."""
    return {
        "crossroads": _t("replay","Crossroads"), "river-woods": _t("replay","River and woods"), "ruined-town": _t("replay","Ruined town"),
        "open-plain": _t("replay","Open plain"),
    }.get(name, vocabulary.humanise(str(name or "")))


def _m_setup(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    table = data.get("table") or {}
    text = _t("replay","The battle was set on the %(table)s table (%(size)s″ square); %(who)s went first.",
              table=table_name(table.get("name")), size=_number(table.get("size") or 36), who=n.subject(data.get("first")))
    if data.get("max_rounds"):
        text += _t("replay"," The game lasts at most %(rounds)s rounds.", rounds=data["max_rounds"])
    return text


def _m_deploy(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    kind = vocabulary.label("mwda", "kind", data.get("unit_kind"))
    return _t("replay","%(who)s deployed %(unit)s (%(kind)s, %(points)s points, %(clicks)s clicks).",
              who=n.subject(e["player"]), unit=n.pieces.get(data.get("unit"), (0, n.card(data.get("code"))))[1],
              kind=kind.lower() if ui_lang() == "en" else kind, points=data.get("points"), clicks=data.get("clicks"))


def _m_move(n: Namer, e: Mapping[str, Any]) -> str | None:
    data = e["data"]
    unit = n.piece(data.get("unit"))
    if data.get("blocked"):
        return _t("replay","%(unit)s could not move (the way was blocked).", unit=unit)
    length = _number(data.get("length") or 0)
    if data.get("order") == "charge":
        return _t("replay","%(unit)s charged %(length)s″.", unit=unit, length=length)
    if data.get("order") == "dfa":
        return _t("replay","%(unit)s jumped %(length)s″ for a death from above.", unit=unit, length=length)
    if data.get("run"):
        return _t("replay","%(unit)s ran %(length)s″.", unit=unit, length=length)
    return _t("replay","%(unit)s moved %(length)s″.", unit=unit, length=length)


def _m_attack_roll(n: Namer, e: Mapping[str, Any]) -> str:
    """An attack and its roll, without the result: "X shot at Y: attack 9 + dice 6+1+2, 18 in all, against …"."""
    data = e["data"]
    unit, target = n.piece(data.get("unit")), n.piece(data.get("target"))
    kind = data.get("attack_kind")
    if kind == "close":
        text = _t("replay","%(unit)s attacked %(target)s in close combat", unit=unit, target=target)
    elif kind == "charge":
        text = _t("replay","%(unit)s rammed %(target)s at the end of its charge", unit=unit, target=target)
    elif kind == "dfa":
        text = _t("replay","%(unit)s came down on %(target)s from above", unit=unit, target=target)
    elif data.get("weapon") == "secondary":
        text = _t("replay","%(unit)s shot at %(target)s with its secondary weapon", unit=unit, target=target)
    else:
        text = _t("replay","%(unit)s shot at %(target)s", unit=unit, target=target)
    roll = [int(d) for d in data.get("roll") or []]
    return text + _t("replay",": attack %(attack)s + dice %(dice)s, %(total)s in all, against defense %(defense)s",
                     attack=data.get("attack"), dice="+".join(str(d) for d in roll),
                     total=(data.get("attack") or 0) + sum(roll), defense=data.get("defense"))


def _m_attack(n: Namer, e: Mapping[str, Any]) -> str:
    if e["data"].get("hit"):
        return _m_attack_roll(n, e) + _t("replay",", a hit for %(damage)s damage.", damage=e["data"].get("damage"))
    return _m_attack_roll(n, e) + _t("replay",", a miss.")


def _m_damage(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    unit = n.piece(data.get("unit"))
    left = max(0, (data.get("clicks") or 0) - (data.get("click") or 0))
    values = {"unit": unit, "amount": data.get("amount"), "left": left, "clicks": data.get("clicks")}
    if data.get("reason") == "push":
        return _t("replay","%(unit)s took %(amount)s damage from pushing (%(left)s of %(clicks)s clicks left).", **values)
    if data.get("reason") == "dfa_miss":
        return _t("replay","%(unit)s took %(amount)s damage from its missed death from above (%(left)s of %(clicks)s "
                  "clicks left).", **values)
    return _t("replay","%(unit)s took %(amount)s damage (%(left)s of %(clicks)s clicks left).", **values)


def _m_game_over(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    points = data.get("points_destroyed") or [0, 0]
    text = _game_over(n, data.get("winner"), data.get("reason"))
    return text + _t("replay"," After %(rounds)s rounds, you had destroyed %(mine)s points and lost %(theirs)s.",
                           rounds=data.get("rounds"), mine=points[0], theirs=points[1])


_MWDA: dict[str, Callable[[Namer, Mapping[str, Any]], str | None]] = {
    "setup": _m_setup,
    "deploy": _m_deploy,
    "turn_start": lambda n, e: None,
    "turn_end": lambda n, e: None,
    "order": lambda n, e: None,  # the move, attack or vent that follows says what the order was
    "token": lambda n, e: None,
    "tokens_removed": lambda n, e: None,
    "push": lambda n, e: _t("replay","%(unit)s was pushed (an order two turns running).", unit=n.piece(e["data"].get("unit"))),
    "breakaway": lambda n, e: (
        _t("replay","%(unit)s broke away (rolled %(roll)s).", unit=n.piece(e["data"].get("unit")), roll=e["data"].get("roll"))
        if e["data"].get("success") else
        _t("replay","%(unit)s failed to break away (rolled %(roll)s) and stayed put.", unit=n.piece(e["data"].get("unit")),
           roll=e["data"].get("roll"))),
    "move": _m_move,
    "attack": _m_attack,
    "damage": _m_damage,
    "heat": lambda n, e: _t("replay","%(unit)s gained %(change)s heat (heat %(heat)s).", unit=n.piece(e["data"].get("unit")),
                            change=e["data"].get("change"), heat=e["data"].get("heat")),
    "shutdown": lambda n, e: _t("replay","%(unit)s overheated and shut down.", unit=n.piece(e["data"].get("unit"))),
    "vent": lambda n, e: _t("replay","%(unit)s vented %(change)s heat (heat %(heat)s).", unit=n.piece(e["data"].get("unit")),
                            change=abs(e["data"].get("change") or 0), heat=e["data"].get("heat")),
    "eliminated": lambda n, e: _t("replay","%(unit)s was eliminated (%(points)s points).",
                                  unit=n.piece(e["data"].get("unit")), points=e["data"].get("points")),
    "game_over": _m_game_over,
}


# --- Warcaster: Neo-Mechanika -------------------------------------------------------------------------------


def _w_weapon(n: Namer, model: Any, weapon: Any, origin: Any) -> str:
    """A weapon by its engine name (either language) in the UI language; a cypher attack by the cypher's name."""
    if origin == "cypher":
        return n.card(weapon)
    code = _model_codes(n).get(model)
    for item in (n.cards.get(code) or {}).get("weapons") or []:
        if weapon in (item.get("name"), item.get("name_en")):
            return str((item.get("name_en") if ui_lang() == "en" else item.get("name")) or weapon)
    return str(weapon or "")


def _model_codes(n: Namer) -> Mapping[int, str]:
    """Warcaster: a model's card code by its id (namer_for fills `codes` with them)."""
    return n.codes


def _w_ability(n: Namer, model: Any, name: Any) -> str:
    code = _model_codes(n).get(model)
    for item in (n.cards.get(code) or {}).get("abilities") or []:
        if name in (item.get("name"), item.get("name_en")):
            return str((item.get("name_en") if ui_lang() == "en" else item.get("name")) or name)
    return str(name or "")


def _w_source(n: Namer, source: Any) -> str:
    """What caused an effect: a cypher (by code), a weapon's quality, an ability (by name)."""
    if isinstance(source, str) and source in n.cards:
        return n.card(source)
    if isinstance(source, str) and ":" in source:
        source = source.split(":", 1)[1]
    for card in n.cards.values():
        for item in list(card.get("abilities") or []) + list(card.get("weapons") or []):
            if source in (item.get("name"), item.get("name_en")):
                return str((item.get("name_en") if ui_lang() == "en" else item.get("name")) or source)
    return str(source or "")


def _w_setup(n: Namer, e: Mapping[str, Any]) -> str:
    width, height = e["data"].get("table") or (30, 30)
    return _t("replay","The battle was set on a %(width)s″ × %(height)s″ table with an objective at its centre; %(who)s "
              "went first.", width=_number(width), height=_number(height), who=n.subject(e["data"].get("first_player")))


def _w_attack(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    attacker, target = n.piece(data.get("attacker")), n.piece(data.get("target"))
    weapon = _w_weapon(n, data.get("attacker"), data.get("weapon"), data.get("origin"))
    if data.get("origin") == "strafe":
        text = _t("replay","%(attacker)s strafed %(target)s with %(weapon)s", attacker=attacker, target=target, weapon=weapon)
    else:
        text = _t("replay","%(attacker)s attacked %(target)s with %(weapon)s", attacker=attacker, target=target, weapon=weapon)
    numbers = _tn("replay",": %(stat)s + %(count)s strike against defence %(defence)s",
                  ": %(stat)s + %(count)s strikes against defence %(defence)s", data.get("strikes"),
                  stat=data.get("stat"), defence=data.get("defence"))
    if data.get("arc"):
        numbers += _t("replay"," (%(arc)s arc spent)", arc=data["arc"])
    return text + numbers + (_t("replay",", a hit.") if data.get("hit") else _t("replay",", a miss."))


def _w_damage(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    model = n.piece(data.get("model"))
    values = {"model": model, "amount": data.get("amount"), "health": data.get("health")}
    source = data.get("source")
    if source in ("fire", "corrosion"):
        return _t("replay","%(model)s took %(amount)s damage from %(effect)s (%(health)s health left).",
                  effect=vocabulary.label("warcaster", "effect", source), **values)
    if source in ("blast", "spray"):
        return _t("replay","%(model)s took %(amount)s damage from the %(quality)s (%(health)s health left).",
                  quality=vocabulary.label("warcaster", "quality", source), **values)
    return _t("replay","%(model)s took %(amount)s damage (%(health)s health left).", **values)


def _w_effect(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    effect = vocabulary.label("warcaster", "effect", data.get("effect"))
    who = n.piece(data["model"]) if "model" in data else n.unit(data.get("unit"))
    change = data.get("change")
    if change == "applied":
        if data.get("blocks") == "melee":
            return _t("replay","%(who)s suffered %(effect)s: no melee attacks.", who=who, effect=effect)
        if data.get("blocks") == "ranged":
            return _t("replay","%(who)s suffered %(effect)s: no ranged attacks.", who=who, effect=effect)
        return _t("replay","%(who)s suffered %(effect)s.", who=who, effect=effect)
    if change == "removed":
        return _t("replay","%(effect)s was removed from %(who)s.", who=who, effect=effect)
    if change == "kept":
        return _tn("replay","%(effect)s stayed on %(who)s (%(count)s strike rolled).",
                   "%(effect)s stayed on %(who)s (%(count)s strikes rolled).", data.get("roll"), who=who, effect=effect)
    return _t("replay","%(effect)s on %(who)s ended (no strike rolled).", who=who, effect=effect)


def _w_holder(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    if data.get("holder") == "unit":
        return n.unit(data.get("uid"))
    return _t("replay","a void gate")


def _w_recalls(n: Namer, run: list[Mapping[str, Any]]) -> str:
    """A player's recalls of one charging phase (W10 phase 2: any amount, from several units and gates, an event
    per arc) as one sentence: the arc from each holder, in the order first recalled, and the pool after."""
    totals: dict[tuple[Any, Any], int] = {}
    for event in run:
        key = (event["data"].get("holder"), event["data"].get("uid"))
        totals[key] = totals.get(key, 0) + (event["data"].get("amount") or 0)
    several_gates = sum(1 for holder, _ in totals if holder != "unit") > 1
    pieces = []
    for (holder, uid), amount in totals.items():
        if holder == "unit":
            name = n.unit(uid)
        elif several_gates and isinstance(uid, int):
            name = _t("replay","void gate %(number)s", number=uid + 1)
        else:
            name = _t("replay","a void gate")
        pieces.append(_t("replay","%(amount)s arc from %(holder)s", amount=amount, holder=name))
    return _t("replay","%(who)s recalled %(recalled)s (%(pool)s in the pool).", who=n.subject(run[0]["player"]),
              recalled=_join(pieces), pool=run[-1]["data"].get("pool"))


def _w_recall(n: Namer, e: Mapping[str, Any]) -> str:
    if "amount" not in e["data"]:  # a log from before recalls of any amount: all the holder's arc
        return _t("replay","%(who)s recalled the arc of %(holder)s (%(pool)s in the pool).",
                  who=n.subject(e["player"]), holder=_w_holder(n, e), pool=e["data"].get("pool"))
    return _w_recalls(n, [e])


def _w_move(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    unit = n.unit(data.get("unit"))
    if data.get("source"):
        source = _w_source(n, data["source"])
        if not data.get("models"):
            return _t("replay","%(source)s moved no model.", source=source)
        if data.get("place"):
            return _t("replay","%(source)s placed %(unit)s.", source=source, unit=unit)
        return _t("replay","%(source)s moved %(unit)s.", source=source, unit=unit)
    if not data.get("models"):
        return _t("replay","%(unit)s stood still.", unit=unit)
    if data.get("mode") == "objective":
        return _t("replay","%(unit)s moved towards the objective.", unit=unit)
    return _t("replay","%(unit)s advanced.", unit=unit)


def _w_game_over(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    vp = data.get("vp") or [0, 0]
    return _game_over(n, data.get("winner"), data.get("reason")) + _t("replay",
        " Victory points after round %(round)s: you %(mine)s, the opponent %(theirs)s.", round=data.get("round"),
        mine=vp[0], theirs=vp[1])


_WARCASTER: dict[str, Callable[[Namer, Mapping[str, Any]], str | None]] = {
    "setup": _w_setup,
    "turn_start": lambda n, e: None,
    "after_attack": lambda n, e: None,  # its triggered abilities are logged as abilities
    "ready": lambda n, e: _t("replay","%(who)s readied %(units)s.", who=n.subject(e["player"]),
                             units=_join(n.unit(u) for u in e["data"].get("units") or [])),
    "charge": lambda n, e: _t("replay","%(who)s charged %(holder)s with arc (%(arc)s on it, %(pool)s left in the pool).",
                              who=n.subject(e["player"]), holder=_w_holder(n, e), arc=e["data"].get("arc"),
                              pool=e["data"].get("pool")),
    "recall": _w_recall,
    "gate": lambda n, e: _t("replay","%(who)s opened a void gate with %(arc)s arc.", who=n.subject(e["player"]),
                            arc=e["data"].get("arc")),
    "gate_paid": lambda n, e: _t("replay","%(who)s spent %(amount)s arc of a void gate to bring in a unit.",
                                 who=n.subject(e["player"]), amount=e["data"].get("amount")),
    "deploy": lambda n, e: _t("replay","%(who)s deployed %(unit)s through the gate.", who=n.subject(e["player"]),
                              unit=n.units.get(e["data"].get("unit"), (0, n.card(e["data"].get("code"))))[1]),
    "activate": lambda n, e: (_t("replay","%(unit)s activated on its own (solo).", unit=n.unit(e["data"].get("unit")))
                              if e["data"].get("solo") else
                              _t("replay","%(unit)s activated.", unit=n.unit(e["data"].get("unit")))),
    "move": _w_move,
    "attack": _w_attack,
    "strafe": lambda n, e: (
        _tn("replay","Strafe: %(count)s extra attack, on %(targets)s.", "Strafe: %(count)s extra attacks, on %(targets)s.",
            len(e["data"]["extra"]), targets=_join(n.piece(m) for m in e["data"]["extra"]))
        if e["data"].get("extra") else _t("replay","Strafe: no extra attack.")),
    "damage_roll": lambda n, e: _tn("replay","Damage roll: POW %(pow)s + %(count)s strike against ARM %(arm)s, %(amount)s "
                                    "damage.", "Damage roll: POW %(pow)s + %(count)s strikes against ARM %(arm)s, "
                                    "%(amount)s damage.", e["data"].get("strikes"), pow=e["data"].get("pow"),
                                    arm=e["data"].get("arm"), amount=e["data"].get("amount")),
    "blast": lambda n, e: (
        _t("replay","The blast hit %(models)s.", models=_join(n.piece(m) for m in e["data"]["victims"]))
        if e["data"].get("victims") else _t("replay","The blast hit no one.")),
    "spray": lambda n, e: (
        _t("replay","The spray hit %(models)s.", models=_join(n.piece(m) for m in e["data"]["models"]))
        if e["data"].get("models") else _t("replay","The spray hit no one else.")),
    "damage": _w_damage,
    "shield_absorbed": lambda n, e: _t("replay","A shield absorbed %(amount)s damage to %(model)s.",
                                       model=n.piece(e["data"].get("model")), amount=e["data"].get("amount")),
    "destroyed": lambda n, e: _t("replay","%(model)s was destroyed.", model=n.piece(e["data"].get("model"))),
    "unit_destroyed": lambda n, e: _t("replay",
        "%(unit)s was wiped out: %(scorer)s scored %(vp)s victory points.", unit=n.unit(e["data"].get("unit")),
        scorer=n.subject(e["data"].get("vp_to")), vp=e["data"].get("cst")),
    "cypher": lambda n, e: (
        _t("replay","%(who)s played the cypher %(card)s through %(node)s, at %(target)s.", who=n.subject(e["player"]),
           card=n.card(e["data"].get("card")), node=n.piece(e["data"].get("node")),
           target=n.piece(e["data"]["target"]))
        if e["data"].get("target") is not None else
        _t("replay","%(who)s played the cypher %(card)s through %(node)s.", who=n.subject(e["player"]),
           card=n.card(e["data"].get("card")), node=n.piece(e["data"].get("node")))),
    "ability": lambda n, e: (
        _t("replay","%(model)s used %(ability)s on %(target)s.", model=n.piece(e["data"].get("model")),
           ability=_w_ability(n, e["data"].get("model"), e["data"].get("name")), target=n.piece(e["data"]["target"]))
        if e["data"].get("target") is not None else
        _t("replay","%(model)s used %(ability)s.", model=n.piece(e["data"].get("model")),
           ability=_w_ability(n, e["data"].get("model"), e["data"].get("name")))),
    "heal": lambda n, e: _t("replay","%(model)s was repaired by %(amount)s (%(health)s health).",
                            model=n.piece(e["data"].get("model")), amount=e["data"].get("amount"),
                            health=e["data"].get("health")),
    "arc": lambda n, e: _t("replay","%(unit)s got %(amount)s arc (%(arc)s on it).", unit=n.unit(e["data"].get("unit")),
                           amount=e["data"].get("amount"), arc=e["data"].get("arc")),
    "draw": lambda n, e: (
        None if not e["data"].get("count") else
        _tn("replay","%(who)s drew %(count)s cypher (%(hand)s in hand).", "%(who)s drew %(count)s cyphers (%(hand)s in hand).",
            e["data"].get("count"), who=n.subject(e["player"]), hand=e["data"].get("hand"))),
    "shield": lambda n, e: _t("replay","%(model)s got a shield (%(shield)s).", model=n.piece(e["data"].get("model")),
                              shield=e["data"].get("shield")),
    "stat_mod": lambda n, e: _w_stat_mod(n, e),
    "effect": _w_effect,
    "discard": lambda n, e: _t("replay","%(who)s discarded the cypher %(card)s.", who=n.subject(e["player"]),
                               card=n.card(e["data"].get("card"))),
    "reshuffle": lambda n, e: _t("replay","%(who)s reshuffled the cypher discard into a new deck (%(cards)s cards).",
                                 who=n.subject(e["player"]), cards=e["data"].get("cards")),
    "round_end": lambda n, e: _t("replay","Round %(round)s ended.", round=e["data"].get("round")),
    "score": lambda n, e: _t("replay","%(who)s held the objective: %(points)s victory points (%(vp)s in all).",
                             who=n.subject(e["player"]), points=e["data"].get("points"), vp=e["data"].get("vp")),
    "game_over": _w_game_over,
}


def _w_stat_mod(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    amount = data.get("amount") or 0
    values = {"model": n.piece(data.get("model")), "stat": vocabulary.label("warcaster", "stat", data.get("stat")),
              "amount": f"+{amount}" if amount >= 0 else str(amount)}
    if data.get("duration") == "turn":
        return _t("replay","%(model)s got %(stat)s %(amount)s until the end of the turn.", **values)
    if data.get("duration") == "round":
        return _t("replay","%(model)s got %(stat)s %(amount)s until the end of the round.", **values)
    return _t("replay","%(model)s got %(stat)s %(amount)s.", **values)


# --- every game ---------------------------------------------------------------------------------------------

TABLES: dict[str, dict[str, Callable[[Namer, Mapping[str, Any]], str | None]]] = {
    "hagmi": _HAGMI, "mwda": _MWDA, "warcaster": _WARCASTER}
KNOWN_KINDS = {system: frozenset(table) for system, table in TABLES.items()}
# Kinds with no sentence: the headings say whose turn it is; tokens and orders show in what follows.
SILENT = {"hagmi": frozenset({"turn_start", "turn_end"}),
          "mwda": frozenset({"turn_start", "turn_end", "order", "token", "tokens_removed"}),
          "warcaster": frozenset({"turn_start", "after_attack"})}


def _game_over(n: Namer, winner: Any, reason: Any) -> str:
    """Who won, and how the game ended (vocabulary `end_reason`, rules_engine/core/outcome.py)."""
    why = vocabulary.label(n.system, "end_reason", reason) if reason else ""
    if winner == 0:
        return _t("replay","You won: %(why)s.", why=why) if why else _t("replay","You won.")
    if winner == 1 and n.coop:
        return _t("replay","The beasts won: %(why)s.", why=why) if why else _t("replay","The beasts won.")
    if winner == 1:
        return _t("replay","The opponent won: %(why)s.", why=why) if why else _t("replay","The opponent won.")
    return _t("replay","The game was a draw: %(why)s.", why=why) if why else _t("replay","The game was a draw.")


def _unknown(n: Namer, e: Mapping[str, Any]) -> str:
    what = vocabulary.humanise(str(e.get("kind") or ""))
    if e.get("player") is None:
        return _t("replay","Something the report cannot put in words yet happened (%(what)s).", what=what)
    return _t("replay","%(who)s did something the report cannot put in words yet (%(what)s).", who=n.subject(e["player"]),
              what=what)


def sentence(system: str, event: Mapping[str, Any], namer: Namer) -> str | None:
    """One event in words, or None for an event the reader does not need."""
    write = TABLES.get(system, {}).get(event.get("kind"), _unknown)
    text = write(namer, event)
    return capfirst(text) if text else None


def _merged(system: str, events: list[Mapping[str, Any]], namer: Namer) -> list[str]:
    """The sentences of one turn; runs of HAGMI draws from one deck and of damage cards become one sentence, so do
    a Warcaster player's recalls of one charging phase, and an attack with its damage and a kill (`_together`)."""
    lines: list[str] = []
    merges = presentation(system).report_merges
    i = 0
    while i < len(events):
        event = events[i]
        kind = event.get("kind")
        if "draw_runs" in merges and kind in ("draw", "damage_player"):
            j = i
            while (j + 1 < len(events) and events[j + 1].get("kind") == kind
                   and events[j + 1].get("player") == event.get("player")
                   and (kind != "draw" or events[j + 1]["data"].get("deck") == event["data"].get("deck"))):
                j += 1
            if kind == "draw":
                text = _h_draw(namer, event, count=j - i + 1)
            else:
                text = _h_damage_player(namer, event, [e["data"].get("card") for e in events[i:j + 1]])
            lines.append(capfirst(text))
            i = j + 1
            continue
        if "recall_runs" in merges and kind == "recall" and "amount" in event["data"]:
            j = i
            while (j + 1 < len(events) and events[j + 1].get("kind") == kind and "amount" in events[j + 1]["data"]
                   and events[j + 1].get("player") == event.get("player")):
                j += 1
            lines.append(capfirst(_w_recalls(namer, list(events[i:j + 1]))))
            i = j + 1
            continue
        paired = _together(system, events[i:i + 3], namer)
        if paired is not None:
            text, used = paired
            lines.append(capfirst(text))
            i += used
            continue
        text = sentence(system, event, namer)
        if text:
            lines.append(text)
        i += 1
    return lines


def _together(system: str, events: list[Mapping[str, Any]], n: Namer) -> tuple[str, int] | None:
    """Events that read as one sentence: a hit with its damage and the kill ("… a hit for 3 damage: Hound 1 was
    eliminated (26 points)."), damage that destroys ("Hound took 3 damage and was destroyed."). Returns the
    sentence and how many events it says, or None."""
    if len(events) < 2:
        return None
    first, second = events[0], events[1]
    third = events[2] if len(events) > 2 else None
    a, b = first["data"], second["data"]
    merges = presentation(system).report_merges
    if "hit_with_damage" in merges and first["kind"] == "attack" and a.get("hit") and second["kind"] == "damage" \
            and b.get("unit") == a.get("target") and b.get("source") == a.get("unit"):
        if third is not None and third["kind"] == "eliminated" and third["data"].get("unit") == a.get("target"):
            return _m_attack_roll(n, first) + _t("replay",", a hit for %(damage)s damage: %(target)s was eliminated "
                                                 "(%(points)s points).", damage=b.get("amount"),
                                                 target=n.piece(a.get("target")),
                                                 points=third["data"].get("points")), 3
        left = max(0, (b.get("clicks") or 0) - (b.get("click") or 0))
        return _m_attack_roll(n, first) + _t("replay",", a hit for %(damage)s damage (%(left)s of %(clicks)s clicks left).",
                                             damage=b.get("amount"), left=left, clicks=b.get("clicks")), 2
    if "damage_destroys_unit" in merges and first["kind"] == "damage" and second["kind"] == "destroyed" \
            and b.get("uid") == a.get("unit") and not b.get("cores") and a.get("amount"):
        unit = n.whose(first["player"], n.uid(a.get("unit")))
        if a.get("unreducible"):
            return _t("replay","%(unit)s took %(amount)s damage that cannot be reduced and was destroyed.", unit=unit,
                      amount=a.get("amount")), 2
        return _t("replay","%(unit)s took %(amount)s damage and was destroyed.", unit=unit, amount=a.get("amount")), 2
    if "damage_destroys_model" in merges and first["kind"] == "damage" and second["kind"] == "destroyed" \
            and b.get("model") == a.get("model") and a.get("source") in ("weapon", "cypher", "strafe"):
        return _t("replay","%(model)s took %(amount)s damage and was destroyed.", model=n.piece(a.get("model")),
                  amount=a.get("amount")), 2
    return None


def heading(system: str, turn: int, player: Any, round_: Any, namer: Namer) -> str:
    if turn == 0:
        return _t("replay","Setup")
    if player is None:
        return _t("replay","Turn %(turn)s", turn=turn)
    who = namer.subject(player)
    if round_:
        return _t("replay","Round %(round)s · Turn %(turn)s (%(who)s)", round=round_, turn=turn, who=who)
    return _t("replay","Turn %(turn)s (%(who)s)", turn=turn, who=who)


def report(system: str, game: Mapping[str, Any], cards: Mapping[str, Any], *, coop: bool = False,
           namer: Namer | None = None) -> list[dict[str, Any]]:
    """Per turn: {"turn", "player", "heading", "lines"}: the turn's events as sentences."""
    namer = namer or namer_for(system, game, cards, coop=coop)
    groups: list[tuple[int, list[Mapping[str, Any]]]] = []
    for event in game.get("events") or []:
        if not groups or groups[-1][0] != event["turn"]:
            groups.append((event["turn"], []))
        groups[-1][1].append(event)
    turns = []
    for turn, events in groups:
        start = next((e for e in events if e["kind"] == "turn_start"), None)
        player = start["player"] if start else None
        round_ = (start["data"].get("round") if start and presentation(system).has_rounds else None)
        namer.active = player
        turns.append({"turn": turn, "player": player, "heading": heading(system, turn, player, round_, namer),
                      "lines": _merged(system, events, namer)})
    namer.active = None
    return turns


def outcome(system: str, game: Mapping[str, Any], *, coop: bool = False) -> dict[str, str]:
    """{"result": win/loss/draw for the list, "words": who won, "reason": how the game ended, in words}."""
    result = game.get("outcome") or "draw"
    if result == "win":
        words = _t("replay","You won")
    elif result == "loss":
        words = _t("replay","The beasts won") if coop else _t("replay","The opponent won")
    else:
        words = _t("replay","A draw")
    reason = (game.get("record") or {}).get("ended_by")
    return {"result": result, "words": words,
            "reason": vocabulary.label(system, "end_reason", reason) if reason else ""}
