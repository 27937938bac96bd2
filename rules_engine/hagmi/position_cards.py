"""HAGMI! positions, the cards and the pieces: reading and writing "CODE#UID" card references, the zones they may
sit in, and units (a helper of position.py; docs/positions.md "HAGMI!").

A card is written "CODE#UID" (its uid is its index in `Table.cards`, the number action ids use); a hand-written
position may give a bare "CODE" and `CardReader` numbers it after the highest explicit uid. A uid no card uses is
filled with `NO_CARD` (a placeholder no zone holds). Each zone accepts only the cards the rules let it hold (H3,
H7 for the decks; units are unit or design cards, 機獣 only on the 機獣 side, ...); a bad one raises a
PositionError naming its path.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules_engine.core.catalog import CardDataError
from rules_engine.hagmi.cards import HagmiCard
from rules_engine.hagmi.construction import home_section
from rules_engine.hagmi.skills import DURATIONS
from rules_engine.hagmi.state import Unit
from rules_engine.position_fields import (
    PositionError, key_path, need_bool, need_int, need_list, need_object, need_strings,
)

NO_CARD = HagmiCard(code="", name="(no card)", category="damage")  # a uid that no card of the position uses
PARSED: dict[int, tuple[Any, HagmiCard]] = {}  # id(catalog card document) -> (the document, its engine card)
REF = re.compile(r"^(.+)#([0-9]+)$")
DECK_HOMES = {"weapons": "weapons", "tactics": "tactics", "damage_deck": "damage"}  # zone -> home deck (H3)
FLAGS = frozenset({"first_strike", "pierce", "unreducible"})  # 先制攻撃 / 貫通 / 軽減できないダメージ granted this turn
SHIELDS = frozenset({"reduce", "nullify", "no_damage"})  # 軽減 / ダメージを0に / ダメージを受けない, this attack
STATS = frozenset({"firepower", "armor"})
UNIT_KEYS = ("card", "presence", "fuel", "stored", "armaments", "damage", "hard_damage", "barrier", "mods",
             "shields", "flags", "down", "attacked", "used", "cores")


def ref(state: Any, uid: int) -> str:
    """A card as the position writes it: "CODE#UID"."""
    return f"{state.cards[uid].code}#{uid}"


def refs(state: Any, uids: list[int]) -> list[str]:
    return [ref(state, uid) for uid in uids]


def unit_doc(state: Any, unit: Unit, durability: Mapping[int, int]) -> dict[str, Any]:
    """A unit (or 機獣) with every field written (`durability`: its player's armament uid → 耐久 left)."""
    return {
        "card": ref(state, unit.uid), "presence": unit.presence, "fuel": refs(state, unit.fuel),
        "stored": refs(state, unit.stored),
        "armaments": [{"card": ref(state, uid), "durability": durability.get(uid)} for uid in unit.armaments],
        "damage": unit.damage, "hard_damage": unit.hard_damage, "barrier": unit.barrier,
        "mods": [list(mod) for mod in unit.mods], "shields": [list(shield) for shield in unit.shields],
        "flags": sorted(unit.flags), "down": unit.down, "attacked": unit.attacked, "used": sorted(unit.used),
        "cores": unit.cores,
    }


def max_explicit_uid(value: Any) -> int:
    """The highest uid written "CODE#UID" anywhere in `value` (-1 if none): bare codes are numbered after it."""
    if isinstance(value, str):
        match = REF.match(value)
        return int(match.group(2)) if match else -1
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list):
        return max((max_explicit_uid(item) for item in value), default=-1)
    return -1


class CardReader:
    """Reads the cards of one position: each reference becomes a uid, checked against the zone it is in."""

    def __init__(self, game: Any, raw_cards: Mapping[str, Any], first_free: int) -> None:
        self.game = game
        self.raw_cards = raw_cards
        self.cards: dict[int, HagmiCard] = {}  # uid -> card
        self.where: dict[int, str] = {}  # uid -> the path it was read at
        self.next_uid = first_free
        self.durability: list[dict[int, int]] = [{}, {}]  # per player: equipped armament uid -> 耐久 left

    def card_of(self, value: Any, path: str) -> tuple[str, HagmiCard, int | None]:
        """A reference's code, engine card and explicit uid (None for a bare code)."""
        if not isinstance(value, str):
            raise PositionError(path, f'expected a card "CODE#UID" or "CODE", got {value!r}')
        match = REF.match(value)
        code, uid = (match.group(1), int(match.group(2))) if match else (value, None)
        if code not in self.raw_cards:
            raise PositionError(path, f"unknown card code {code!r}")
        card = self.game.cards.get(code)
        if card is None:
            card = self._parse(code, path)
        return code, card, uid

    def _parse(self, code: str, path: str) -> HagmiCard:
        """The engine card of `code`, parsed once per catalog card document (simulate_position loads a position
        once a game with the same `cards`); the game keeps it as if it had parsed it."""
        raw = self.raw_cards[code]
        known = PARSED.get(id(raw))
        if known is not None and known[0] is raw:
            self.game.cards[code] = known[1]
            return known[1]
        try:
            card: HagmiCard = self.game.card(code)
        except CardDataError as error:
            raise PositionError(path, f"card {code!r} cannot be read: {error}") from None
        if len(PARSED) >= 4096:
            PARSED.clear()
        PARSED[id(raw)] = (raw, card)  # the document is held, so its id is not reused while it is here
        return card

    def read(self, value: Any, path: str, zone: str) -> int:
        """A new card in `zone` (a deck name, "unit", "beast", "armament", "facility", "beast_card" or "card")."""
        code, card, uid = self.card_of(value, path)
        problem = zone_problem(zone, card, self.raw_cards[code])
        if problem:
            raise PositionError(path, problem)
        if uid is None:
            uid, self.next_uid = self.next_uid, self.next_uid + 1
        elif uid in self.where:
            raise PositionError(path, f"uid {uid} is already used at {self.where[uid]}: every card has its own uid")
        self.cards[uid], self.where[uid] = card, path
        return uid

    def read_list(self, doc: Mapping[str, Any], key: str, path: str, zone: str) -> list[int]:
        listed = need_list(doc.get(key, []), key_path(path, key))
        return [self.read(value, f"{path}.{key}[{i}]", zone) for i, value in enumerate(listed)]

    def find(self, value: Any, path: str, units: list[Unit]) -> int:
        """A reference to a card read already ("CODE#UID"), or a bare "CODE" naming exactly one of `units`."""
        code, card, uid = self.card_of(value, path)
        if uid is None:
            matching = [unit.uid for unit in units if self.cards[unit.uid].code == code]
            if len(matching) != 1:
                raise PositionError(path, f"{len(matching)} units on the battlefield are {code!r}: write it "
                                          '"CODE#UID" to say which')
            return matching[0]
        if uid not in self.cards:
            raise PositionError(path, f"no card of this position has uid {uid}")
        if self.cards[uid].code != code:
            raise PositionError(path, f"uid {uid} is {self.cards[uid].code!r}, not {code!r}")
        return uid

    def card_list(self) -> list[HagmiCard]:
        """Table.cards: the card of every uid 0 … highest, `NO_CARD` where no card has that uid."""
        top = max(self.cards, default=-1)
        return [self.cards.get(uid, NO_CARD) for uid in range(top + 1)]

    def unit(self, doc: Any, path: str, owner: int, beast: bool) -> tuple[Unit, bool]:
        """A unit (or 機獣) and whether its presence was given (a missing one is numbered by position.py)."""
        doc = need_object(doc, path, UNIT_KEYS) if isinstance(doc, Mapping) else {"card": doc}
        if "card" not in doc:
            raise PositionError(f"{path}.card", "missing: the unit's card")
        uid = self.read(doc["card"], f"{path}.card", "beast" if beast else "unit")
        card = self.cards[uid]
        unit = Unit(uid=uid, owner=owner, presence=need_int(doc.get("presence", 0), key_path(path, "presence")))
        unit.fuel = self.read_list(doc, "fuel", path, "card")
        unit.stored = self.read_list(doc, "stored", path, "card")
        for index, armament in enumerate(need_list(doc.get("armaments", []), key_path(path, "armaments"))):
            unit.armaments.append(self._armament(armament, f"{path}.armaments[{index}]", owner))
        if beast and (unit.fuel or unit.stored or unit.armaments):
            key = "fuel" if unit.fuel else "stored" if unit.stored else "armaments"
            raise PositionError(key_path(path, key), "a 機獣 has no fuel, stored cards or armaments (H32)")
        if not beast and card.category != "design" and not unit.stored and len(unit.fuel) > card.cost:
            raise PositionError(f"{path}.fuel", f"{len(unit.fuel)} fuel cards on a unit of cost {card.cost}: fuel is "
                                                "never above the cost (only a design's or a refitted unit's, H22, H23)")
        unit.damage = need_int(doc.get("damage", 0), key_path(path, "damage"))
        unit.hard_damage = need_int(doc.get("hard_damage", 0), key_path(path, "hard_damage"))
        unit.barrier = need_int(doc.get("barrier", 0), key_path(path, "barrier"))
        unit.cores = need_int(doc.get("cores", 0), key_path(path, "cores"), high=None if beast else 0)
        mods = need_list(doc.get("mods", []), key_path(path, "mods"))
        unit.mods = [self._mod(mod, f"{path}.mods[{i}]") for i, mod in enumerate(mods)]
        shields = need_list(doc.get("shields", []), key_path(path, "shields"))
        unit.shields = [self._shield(shield, f"{path}.shields[{i}]") for i, shield in enumerate(shields)]
        unit.flags = need_strings(doc.get("flags", []), key_path(path, "flags"), FLAGS)
        unit.used = need_strings(doc.get("used", []), key_path(path, "used"))
        unit.down = need_bool(doc.get("down", False), key_path(path, "down"))
        unit.attacked = need_bool(doc.get("attacked", False), key_path(path, "attacked"))
        return unit, "presence" in doc

    def _armament(self, doc: Any, path: str, owner: int) -> int:
        """An equipped armament: "CODE#UID" (耐久 full) or {"card", "durability"} (null: none recorded)."""
        doc = need_object(doc, path, ("card", "durability")) if isinstance(doc, Mapping) else {"card": doc}
        uid = self.read(doc.get("card"), f"{path}.card", "armament")
        full = self.cards[uid].durability
        if doc.get("durability", full) is not None:
            self.durability[owner][uid] = need_int(doc.get("durability", full), f"{path}.durability", high=full)
        return uid

    @staticmethod
    def _mod(value: Any, path: str) -> list[Any]:
        """[stat, amount, duration]: a firepower / armor modification until the attack, battle or turn ends."""
        if (not isinstance(value, list) or len(value) != 3 or value[0] not in STATS or isinstance(value[1], bool)
                or not isinstance(value[1], int) or value[2] not in DURATIONS):
            raise PositionError(path, "expected [stat, amount, duration]: stat firepower or armor, an integer, "
                                      f"duration one of {', '.join(sorted(DURATIONS))}; got {value!r}")
        return list(value)

    @staticmethod
    def _shield(value: Any, path: str) -> tuple[str, int]:
        """[kind, value]: this attack's reduction (reduce by value; nullify up to value, 0 = any; no_damage)."""
        if (not isinstance(value, list) or len(value) != 2 or value[0] not in SHIELDS or isinstance(value[1], bool)
                or not isinstance(value[1], int) or value[1] < 0):
            raise PositionError(path, f"expected [kind, value]: kind one of {', '.join(sorted(SHIELDS))}, value an "
                                      f"integer ≥ 0; got {value!r}")
        return (str(value[0]), int(value[1]))


def zone_problem(zone: str, card: HagmiCard, raw: Mapping[str, Any]) -> str | None:
    """Why `card` cannot be in `zone` (None if it can)."""
    category = card.category
    if category == "mothership":
        return "a mothership (母艦) is not a card in play: name it in opponent.mothership"
    if zone in ("beast", "beast_card"):
        return None if category == "beast" else f"only 機獣 cards are on the 機獣 side, not a {category} card"
    if category == "beast":
        return "a 機獣 card is only on the 機獣 side (co-op)"
    if zone in DECK_HOMES:
        home = home_section(raw)
        if home != DECK_HOMES[zone]:
            where = f"the {home} deck" if home else "秘策 only"
            return f"a {category} card of frame {card.frame or '-'} belongs in {where}, not in {zone} (H3, H7)"
    if zone == "unit" and not card.is_unit:
        return f"a {category} card is not a unit (units are unit and design cards)"
    if zone == "armament" and category != "armament":
        return f"a {category} card is not an armament (武装)"
    if zone == "facility" and (category != "tactic" or card.subtype != "facility"):
        return f"a {category} card is not a facility (設備)"
    return None
