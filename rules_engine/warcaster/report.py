"""Warcaster: Neo-Mechanika's replay report: each event its engine logs (docs/engine-warcaster.md) as a sentence in
the reader's language (rules_engine/core/words.py), naming models, units and sides through the report's Namer
(rules_engine/core/naming.py): "Raider attacked the opponent's Ironclad with Arc Cannon: 4 + 2 strikes against
defence 13, a hit.". builder/web/gamereport.py groups the events by turn and asks `REPORT` (the registry's
`Presentation.report`) for the words: `SENTENCES` (one function per event kind; None for an event the reader does
not need), `SILENT`, `together` (a player's recalls of one charging phase, damage that destroys a model: one
sentence) and `name_pieces` (the models and units of the setup event). English sentences are in the past tense."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.gamewords import ReportWords, Sentence
from rules_engine.core.naming import Event, Namer, game_over, join, number, numbered
from rules_engine.core.words import _t, _tn, language, word

from .vocabulary import WORDS

__all__ = ["SENTENCES", "SILENT", "together", "name_pieces", "REPORT"]



def _w_weapon(n: Namer, model: Any, weapon: Any, origin: Any) -> str:
    """A weapon by its engine name (either language) in the UI language; a cypher attack by the cypher's name."""
    if origin == "cypher":
        return n.card(weapon)
    for item in _model_card(n, model).get("weapons") or []:
        if weapon in (item.get("name"), item.get("name_en")):
            return str((item.get("name_en") if language() == "en" else item.get("name")) or weapon)
    return str(weapon or "")


def _model_card(n: Namer, model: Any) -> Mapping[str, Any]:
    """A model's card by its id (`name_pieces` fills the namer's `codes` with the models' card codes)."""
    code = n.codes.get(model) if isinstance(model, int) else None
    return (n.cards.get(code) if isinstance(code, str) else None) or {}


def _w_ability(n: Namer, model: Any, name: Any) -> str:
    for item in _model_card(n, model).get("abilities") or []:
        if name in (item.get("name"), item.get("name_en")):
            return str((item.get("name_en") if language() == "en" else item.get("name")) or name)
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
                return str((item.get("name_en") if language() == "en" else item.get("name")) or source)
    return str(source or "")


def _w_setup(n: Namer, e: Mapping[str, Any]) -> str:
    width, height = e["data"].get("table") or (30, 30)
    return _t("replay",
              "The battle was set on a %(width)s″ × %(height)s″ table with an objective at its centre; %(who)s "
              "went first.", width=number(width), height=number(height), who=n.subject(e["data"].get("first_player")))


def _w_attack(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    attacker, target = n.piece(data.get("attacker")), n.piece(data.get("target"))
    weapon = _w_weapon(n, data.get("attacker"), data.get("weapon"), data.get("origin"))
    if data.get("origin") == "strafe":
        text = _t("replay",
                  "%(attacker)s strafed %(target)s with %(weapon)s", attacker=attacker, target=target, weapon=weapon)
    else:
        text = _t("replay",
                  "%(attacker)s attacked %(target)s with %(weapon)s", attacker=attacker, target=target, weapon=weapon)
    numbers = _tn("replay", ": %(stat)s + %(count)s strike against defence %(defence)s",
                  ": %(stat)s + %(count)s strikes against defence %(defence)s", data.get("strikes"),
                  stat=data.get("stat"), defence=data.get("defence"))
    if data.get("arc"):
        numbers += _t("replay", " (%(arc)s arc spent)", arc=data["arc"])
    return text + numbers + (_t("replay", ", a hit.") if data.get("hit") else _t("replay", ", a miss."))


def _w_damage(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    model = n.piece(data.get("model"))
    values = {"model": model, "amount": data.get("amount"), "health": data.get("health")}
    source = data.get("source")
    if source in ("fire", "corrosion"):
        return _t("replay", "%(model)s took %(amount)s damage from %(effect)s (%(health)s health left).",
                  effect=word(WORDS["effect"], source), **values)
    if source in ("blast", "spray"):
        return _t("replay", "%(model)s took %(amount)s damage from the %(quality)s (%(health)s health left).",
                  quality=word(WORDS["quality"], source), **values)
    return _t("replay", "%(model)s took %(amount)s damage (%(health)s health left).", **values)


def _w_effect(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    effect = word(WORDS["effect"], data.get("effect"))
    who = n.piece(data["model"]) if "model" in data else n.unit(data.get("unit"))
    change = data.get("change")
    if change == "applied":
        if data.get("blocks") == "melee":
            return _t("replay", "%(who)s suffered %(effect)s: no melee attacks.", who=who, effect=effect)
        if data.get("blocks") == "ranged":
            return _t("replay", "%(who)s suffered %(effect)s: no ranged attacks.", who=who, effect=effect)
        return _t("replay", "%(who)s suffered %(effect)s.", who=who, effect=effect)
    if change == "removed":
        return _t("replay", "%(effect)s was removed from %(who)s.", who=who, effect=effect)
    if change == "kept":
        return _tn("replay", "%(effect)s stayed on %(who)s (%(count)s strike rolled).",
                   "%(effect)s stayed on %(who)s (%(count)s strikes rolled).", data.get("roll"), who=who, effect=effect)
    return _t("replay", "%(effect)s on %(who)s ended (no strike rolled).", who=who, effect=effect)


def _w_holder(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    if data.get("holder") == "unit":
        return n.unit(data.get("uid"))
    return _t("replay", "a void gate")


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
            name = _t("replay", "void gate %(number)s", number=uid + 1)
        else:
            name = _t("replay", "a void gate")
        pieces.append(_t("replay", "%(amount)s arc from %(holder)s", amount=amount, holder=name))
    return _t("replay", "%(who)s recalled %(recalled)s (%(pool)s in the pool).", who=n.subject(run[0]["player"]),
              recalled=join(pieces), pool=run[-1]["data"].get("pool"))


def _w_recall(n: Namer, e: Mapping[str, Any]) -> str:
    if "amount" not in e["data"]:  # a log from before recalls of any amount: all the holder's arc
        return _t("replay", "%(who)s recalled the arc of %(holder)s (%(pool)s in the pool).",
                  who=n.subject(e["player"]), holder=_w_holder(n, e), pool=e["data"].get("pool"))
    return _w_recalls(n, [e])


def _w_move(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    unit = n.unit(data.get("unit"))
    if data.get("source"):
        source = _w_source(n, data["source"])
        if not data.get("models"):
            return _t("replay", "%(source)s moved no model.", source=source)
        if data.get("place"):
            return _t("replay", "%(source)s placed %(unit)s.", source=source, unit=unit)
        return _t("replay", "%(source)s moved %(unit)s.", source=source, unit=unit)
    if not data.get("models"):
        return _t("replay", "%(unit)s stood still.", unit=unit)
    if data.get("mode") == "objective":
        return _t("replay", "%(unit)s moved towards the objective.", unit=unit)
    return _t("replay", "%(unit)s advanced.", unit=unit)


def _w_game_over(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    vp = data.get("vp") or [0, 0]
    return game_over(n, data.get("winner"), data.get("reason")) + _t("replay", 
        " Victory points after round %(round)s: you %(mine)s, the opponent %(theirs)s.", round=data.get("round"),
        mine=vp[0], theirs=vp[1])


SENTENCES: dict[str, Sentence] = {
    "setup": _w_setup,
    "turn_start": lambda n, e: None,
    "after_attack": lambda n, e: None,  # its triggered abilities are logged as abilities
    "ready": lambda n, e: _t("replay", "%(who)s readied %(units)s.", who=n.subject(e["player"]),
                             units=join(n.unit(u) for u in e["data"].get("units") or [])),
    "charge": lambda n, e: _t("replay",
                              "%(who)s charged %(holder)s with arc (%(arc)s on it, %(pool)s left in the pool).",
                              who=n.subject(e["player"]), holder=_w_holder(n, e), arc=e["data"].get("arc"),
                              pool=e["data"].get("pool")),
    "recall": _w_recall,
    "gate": lambda n, e: _t("replay", "%(who)s opened a void gate with %(arc)s arc.", who=n.subject(e["player"]),
                            arc=e["data"].get("arc")),
    "gate_paid": lambda n, e: _t("replay", "%(who)s spent %(amount)s arc of a void gate to bring in a unit.",
                                 who=n.subject(e["player"]), amount=e["data"].get("amount")),
    "deploy": lambda n, e: _t("replay", "%(who)s deployed %(unit)s through the gate.", who=n.subject(e["player"]),
                              unit=n.units.get(e["data"].get("unit"), (0, n.card(e["data"].get("code"))))[1]),
    "activate": lambda n, e: (_t("replay", "%(unit)s activated on its own (solo).", unit=n.unit(e["data"].get("unit")))
                              if e["data"].get("solo") else
                              _t("replay", "%(unit)s activated.", unit=n.unit(e["data"].get("unit")))),
    "move": _w_move,
    "attack": _w_attack,
    "strafe": lambda n, e: (
        _tn("replay",
            "Strafe: %(count)s extra attack, on %(targets)s.", "Strafe: %(count)s extra attacks, on %(targets)s.",
            len(e["data"]["extra"]), targets=join(n.piece(m) for m in e["data"]["extra"]))
        if e["data"].get("extra") else _t("replay", "Strafe: no extra attack.")),
    "damage_roll": lambda n, e: _tn("replay",
                                    "Damage roll: POW %(pow)s + %(count)s strike against ARM %(arm)s, %(amount)s "
                                    "damage.", "Damage roll: POW %(pow)s + %(count)s strikes against ARM %(arm)s, "
                                    "%(amount)s damage.", e["data"].get("strikes"), pow=e["data"].get("pow"),
                                    arm=e["data"].get("arm"), amount=e["data"].get("amount")),
    "blast": lambda n, e: (
        _t("replay", "The blast hit %(models)s.", models=join(n.piece(m) for m in e["data"]["victims"]))
        if e["data"].get("victims") else _t("replay", "The blast hit no one.")),
    "spray": lambda n, e: (
        _t("replay", "The spray hit %(models)s.", models=join(n.piece(m) for m in e["data"]["models"]))
        if e["data"].get("models") else _t("replay", "The spray hit no one else.")),
    "damage": _w_damage,
    "shield_absorbed": lambda n, e: _t("replay", "A shield absorbed %(amount)s damage to %(model)s.",
                                       model=n.piece(e["data"].get("model")), amount=e["data"].get("amount")),
    "destroyed": lambda n, e: _t("replay", "%(model)s was destroyed.", model=n.piece(e["data"].get("model"))),
    "unit_destroyed": lambda n, e: _t("replay", 
        "%(unit)s was wiped out: %(scorer)s scored %(vp)s victory points.", unit=n.unit(e["data"].get("unit")),
        scorer=n.subject(e["data"].get("vp_to")), vp=e["data"].get("cst")),
    "cypher": lambda n, e: (
        _t("replay", "%(who)s played the cypher %(card)s through %(node)s, at %(target)s.", who=n.subject(e["player"]),
           card=n.card(e["data"].get("card")), node=n.piece(e["data"].get("node")),
           target=n.piece(e["data"]["target"]))
        if e["data"].get("target") is not None else
        _t("replay", "%(who)s played the cypher %(card)s through %(node)s.", who=n.subject(e["player"]),
           card=n.card(e["data"].get("card")), node=n.piece(e["data"].get("node")))),
    "ability": lambda n, e: (
        _t("replay", "%(model)s used %(ability)s on %(target)s.", model=n.piece(e["data"].get("model")),
           ability=_w_ability(n, e["data"].get("model"), e["data"].get("name")), target=n.piece(e["data"]["target"]))
        if e["data"].get("target") is not None else
        _t("replay", "%(model)s used %(ability)s.", model=n.piece(e["data"].get("model")),
           ability=_w_ability(n, e["data"].get("model"), e["data"].get("name")))),
    "heal": lambda n, e: _t("replay", "%(model)s was repaired by %(amount)s (%(health)s health).",
                            model=n.piece(e["data"].get("model")), amount=e["data"].get("amount"),
                            health=e["data"].get("health")),
    "arc": lambda n, e: _t("replay", "%(unit)s got %(amount)s arc (%(arc)s on it).", unit=n.unit(e["data"].get("unit")),
                           amount=e["data"].get("amount"), arc=e["data"].get("arc")),
    "draw": lambda n, e: (
        None if not e["data"].get("count") else
        _tn("replay",
            "%(who)s drew %(count)s cypher (%(hand)s in hand).", "%(who)s drew %(count)s cyphers (%(hand)s in hand).",
            e["data"].get("count"), who=n.subject(e["player"]), hand=e["data"].get("hand"))),
    "shield": lambda n, e: _t("replay", "%(model)s got a shield (%(shield)s).", model=n.piece(e["data"].get("model")),
                              shield=e["data"].get("shield")),
    "stat_mod": lambda n, e: _w_stat_mod(n, e),
    "effect": _w_effect,
    "discard": lambda n, e: _t("replay", "%(who)s discarded the cypher %(card)s.", who=n.subject(e["player"]),
                               card=n.card(e["data"].get("card"))),
    "reshuffle": lambda n, e: _t("replay", "%(who)s reshuffled the cypher discard into a new deck (%(cards)s cards).",
                                 who=n.subject(e["player"]), cards=e["data"].get("cards")),
    "round_end": lambda n, e: _t("replay", "Round %(round)s ended.", round=e["data"].get("round")),
    "score": lambda n, e: _t("replay", "%(who)s held the objective: %(points)s victory points (%(vp)s in all).",
                             who=n.subject(e["player"]), points=e["data"].get("points"), vp=e["data"].get("vp")),
    "game_over": _w_game_over,
}


def _w_stat_mod(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    amount = data.get("amount") or 0
    values = {"model": n.piece(data.get("model")), "stat": word(WORDS["stat"], data.get("stat")),
              "amount": f"+{amount}" if amount >= 0 else str(amount)}
    if data.get("duration") == "turn":
        return _t("replay", "%(model)s got %(stat)s %(amount)s until the end of the turn.", **values)
    if data.get("duration") == "round":
        return _t("replay", "%(model)s got %(stat)s %(amount)s until the end of the round.", **values)
    return _t("replay", "%(model)s got %(stat)s %(amount)s.", **values)


# Kinds with no sentence: the headings say whose turn it is; an attack's triggered abilities are logged as abilities.
SILENT = frozenset({"turn_start", "after_attack"})


def name_pieces(n: Namer, events: Sequence[Event]) -> None:
    """The models and units of the setup event by their cards' names ("Raider 1", "Raider 2" where a side has two),
    and each model's card code (its weapons and abilities are named from the card)."""
    setup: Mapping[str, Any] = next((e["data"] for e in events if e["kind"] == "setup"), {})
    models: list[tuple[int, int, str]] = []
    units: list[tuple[int, int, str]] = []
    codes: dict[int, Any] = {}
    for side, info in enumerate(setup.get("sides") or []):
        for unit in info.get("units") or []:
            units.append((unit["unit"], side, n.card(unit.get("code"))))
            for model in unit.get("models") or []:
                models.append((model["model"], side, n.card(model.get("code"))))
                codes[model["model"]] = model.get("code")
    n.pieces, n.units, n.codes = numbered(models), numbered(units), codes


def together(events: Sequence[Event], start: int, n: Namer) -> tuple[str, int] | None:
    """A player's recalls of one charging phase (W10) and damage of a weapon, cypher or strafe that destroys a model
    ("Raider took 3 damage and was destroyed."), each as one sentence, and how many events it says."""
    event = events[start]
    kind = event.get("kind")
    if kind == "recall" and "amount" in event["data"]:
        end = start
        while (end + 1 < len(events) and events[end + 1].get("kind") == kind and "amount" in events[end + 1]["data"]
               and events[end + 1].get("player") == event.get("player")):
            end += 1
        return _w_recalls(n, list(events[start:end + 1])), end - start + 1
    if start + 1 >= len(events):
        return None
    second = events[start + 1]
    a, b = event["data"], second["data"]
    if kind == "damage" and second["kind"] == "destroyed" and b.get("model") == a.get("model") \
            and a.get("source") in ("weapon", "cypher", "strafe"):
        return _t("replay", "%(model)s took %(amount)s damage and was destroyed.", model=n.piece(a.get("model")),
                  amount=a.get("amount")), 2
    return None


REPORT = ReportWords(sentences=SENTENCES, silent=SILENT, together=together, name_pieces=name_pieces)
