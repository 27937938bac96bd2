"""HAGMI! pieces and the table: `Unit`, `Player` and `Table`, the cards on the table and the queries about them
(RULES.md §1.3–§1.5: zones, units, statistics; H13's armor without plus modifications; H20 秘策 as a zone).

`Table` is the base of `HagmiState` (game.py): what is where (`find_unit`, `units_of`, `all_units`,
`card_locations`), a unit's statistics with its modifications and static skills (`stat`, `firepower`, `armor`,
`armor_left`, `has_flag`), and the primitives everything uses (`log`, `finish`). The rules that change the
table are module functions by concern: damage.py, zones.py, skills.py, combat.py, refit.py, beasts.py.

Every physical card has a `uid` (its index in `Table.cards`) and sits in exactly one place: a deck, the
hand, 秘策, the discard (廃棄), removed from the game, a facility, an unequipped armament, or on the battlefield
as a unit, a unit's fuel (燃料), a card stored under a unit (refit / design), an equipped armament, or on the
機獣 side. `card_locations()` lists them all; the playout tests check that no card is lost or duplicated.

Tops of decks are the *end* of their lists.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, Iterator

from rules_engine.core import outcome
from rules_engine.core.outcome import Outcome
from rules_engine.core.events import EventLog
from rules_engine.hagmi.cards import HagmiCard, Skill

if TYPE_CHECKING:
    import random

    from rules_engine.hagmi.beasts import BeastSide
    from rules_engine.hagmi.combat import Combat

ENTERED = "entered"  # a `Unit.used` key: entered since its controller's last standby (option attack_on_entry)


@dataclass(slots=True)
class Unit:
    """A unit (兵装, 設計兵装) or 機獣 on the battlefield."""

    uid: int
    owner: int
    presence: int  # new every time it enters: 秘匿機構 is once per turn per presence (H24)
    fuel: list[int] = field(default_factory=list)  # 燃料, newest last
    stored: list[int] = field(default_factory=list)  # cards under it (refit source, design materials)
    armaments: list[int] = field(default_factory=list)  # equipped 武装
    damage: int = 0
    hard_damage: int = 0  # unreducible damage: ignores plus armor modifications (H13)
    mods: list[list] = field(default_factory=list)  # [stat, amount, duration]
    shields: list[tuple[str, int]] = field(default_factory=list)  # this attack's reductions (kind, value)
    barrier: int = 0  # バリアカウンター
    flags: set[str] = field(default_factory=set)  # first_strike / pierce / unreducible granted this turn
    down: bool = False  # ダウン
    attacked: bool = False
    used: set[str] = field(default_factory=set)  # once-per-turn skill keys used this turn
    cores: int = 0  # 機獣核 held by a 機獣 (H30 step 5)

    def copy(self) -> Unit:
        """An independent copy (HagmiState.clone): every list and set copied, the uids shared."""
        return Unit(uid=self.uid, owner=self.owner, presence=self.presence, fuel=list(self.fuel),
                    stored=list(self.stored), armaments=list(self.armaments), damage=self.damage,
                    hard_damage=self.hard_damage, mods=[list(mod) for mod in self.mods], shields=list(self.shields),
                    barrier=self.barrier, flags=set(self.flags), down=self.down, attacked=self.attacked,
                    used=set(self.used), cores=self.cores)


@dataclass
class Player:
    """One player's zones. `kind`: "deck" (plays its list), "goldfish" (never acts)."""

    index: int
    kind: str = "deck"
    weapons: list[int] = field(default_factory=list)  # 兵器デッキ
    tactics: list[int] = field(default_factory=list)  # 作戦デッキ
    damage_deck: list[int] = field(default_factory=list)  # ダメージデッキ
    hand: list[int] = field(default_factory=list)
    secret: list[int] = field(default_factory=list)  # 秘策 (H20)
    units: list[Unit] = field(default_factory=list)
    facilities: list[int] = field(default_factory=list)  # 設備
    loose_armaments: list[int] = field(default_factory=list)  # 武装 on the battlefield, unequipped (H22, H23)
    discard: list[int] = field(default_factory=list)  # 廃棄
    removed: list[int] = field(default_factory=list)  # removed from the game (解体, H12)
    durability: dict[int, int] = field(default_factory=dict)  # armament uid → 耐久 left
    used: set[str] = field(default_factory=set)  # once-per-turn keys of facilities, armaments; this 緊急 window's uses (H10)

    def copy(self) -> Player:
        """An independent copy (HagmiState.clone): zones, units, durability and used keys."""
        return Player(index=self.index, kind=self.kind, weapons=list(self.weapons), tactics=list(self.tactics),
                      damage_deck=list(self.damage_deck), hand=list(self.hand), secret=list(self.secret),
                      units=[unit.copy() for unit in self.units], facilities=list(self.facilities),
                      loose_armaments=list(self.loose_armaments), discard=list(self.discard),
                      removed=list(self.removed), durability=dict(self.durability), used=set(self.used))


class Table:
    """The pieces on the table and the queries about them; the base of HagmiState (game.py). The rule modules
    (damage.py, zones.py, skills.py, combat.py, refit.py, beasts.py) take it as their first argument."""

    cards: list[HagmiCard]
    players: list[Player]
    beasts: "BeastSide | None"
    combat: "Combat | None"
    rng: "random.Random"
    events: EventLog
    turn: int
    active: int
    options: dict[str, Any]
    winner: int | None
    end_reason: str | None  # one of rules_engine/core/outcome.py's END_REASONS once over
    over: bool
    battle_closed: bool
    presence_counter: int

    # ---- bookkeeping --------------------------------------------------------------------------------------

    def log(self, kind: str, player: int | None, data: dict[str, Any]) -> None:
        """Log an event (~400 a game; EventLog.record)."""
        self.events.record(kind, self.turn, player, data)

    def is_over(self) -> bool:
        return self.over

    def finish(self, winner: int | None, reason: str) -> None:
        if not self.over:
            self.over, self.winner, self.end_reason = True, winner, reason
            self.log("game_over", None, {"winner": winner, "reason": reason})

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        return Outcome(self.winner, self.end_reason or outcome.STEP_LIMIT) if self.over else None

    def card(self, uid: int) -> HagmiCard:
        return self.cards[uid]

    def opponent_of(self, player: int) -> int:
        return 1 - player

    def units_of(self, player: int) -> list[Unit]:
        if self.beasts is not None and player == self.beasts.index:
            return self.beasts.beasts
        return self.players[player].units

    def _unit_lists(self) -> tuple[list[Unit], list[Unit]]:
        """Player 0's and player 1's unit lists (the 機獣 side's beasts in co-op)."""
        beasts, players = self.beasts, self.players
        if beasts is None:
            return players[0].units, players[1].units
        return (beasts.beasts, players[1].units) if beasts.index == 0 else (players[0].units, beasts.beasts)

    def all_units(self) -> Iterator[Unit]:
        return chain(*self._unit_lists())  # lazy, like iterating both lists: sees units added meanwhile

    def find_unit(self, uid: int | None) -> Unit | None:
        # The hottest query of the engine (~3 000 calls a game): plain loops, no generator, no helper call.
        beasts, players = self.beasts, self.players
        first = beasts.beasts if beasts is not None and beasts.index == 0 else players[0].units
        for unit in first:
            if unit.uid == uid:
                return unit
        second = beasts.beasts if beasts is not None and beasts.index == 1 else players[1].units
        for unit in second:
            if unit.uid == uid:
                return unit
        return None

    def is_player_side(self, index: int) -> bool:
        return self.beasts is None or index != self.beasts.index

    def owner_discard(self, index: int) -> list[int]:
        """The discard (廃棄) of a side: a player's, or the 機獣 side's."""
        beasts = self.beasts  # not is_player_side(index): the 機獣 side's
        return beasts.discard if beasts is not None and index == beasts.index else self.players[index].discard

    def card_locations(self) -> dict[int, list[str]]:
        """uid → every place it is found (for the invariant: exactly one place each)."""
        places: dict[int, list[str]] = {}

        def put(uids: list[int], where: str) -> None:
            for uid in uids:
                places.setdefault(uid, []).append(where)

        for p, player in enumerate(self.players):
            if player is None:
                continue
            for name in ("weapons", "tactics", "damage_deck", "hand", "secret", "facilities", "loose_armaments",
                         "discard", "removed"):
                put(getattr(player, name), f"p{p}.{name}")
        for unit in self.all_units():
            put([unit.uid], f"p{unit.owner}.unit")
            put(unit.fuel, f"p{unit.owner}.fuel")
            put(unit.stored, f"p{unit.owner}.stored")
            put(unit.armaments, f"p{unit.owner}.armament")
        if self.beasts is not None:
            for name in ("deck", "chargers", "discard", "removed", "appearing"):
                put(getattr(self.beasts, name), f"beasts.{name}")
        return places

    # ---- card statistics ---------------------------------------------------------------------------------

    def static_skills(self, unit: Unit) -> tuple[Skill, ...] | list[Skill]:
        """Every static skill that applies to `unit`, in order: its own unless down, its armaments' with
        `equipped_unit`, its controller's facilities' with `all_friendly_units` / `all_units`.
        (Performance: the per-card lists are precomputed by HagmiCard; most units have none of them.)"""
        found: tuple[Skill, ...] | list[Skill] = () if unit.down else self.cards[unit.uid].static_self
        if unit.armaments:
            found = list(found)
            for armament in unit.armaments:
                found.extend(self.cards[armament].static_equipped)
        if self.is_player_side(unit.owner):
            facilities = self.players[unit.owner].facilities
            if facilities:
                found = list(found)
                for facility in facilities:
                    found.extend(skill for skill in self.cards[facility].static_friendly if self.types_ok(skill, unit))
        return found

    def types_ok(self, skill: Skill, unit: Unit) -> bool:
        """A skill's `target_types` condition: the unit has one of them (none listed: any unit)."""
        wanted = skill.condition.get("target_types")
        return not wanted or not self.cards[unit.uid].type_set.isdisjoint(wanted)

    def stat(self, unit: Unit, stat: str, *, plus_mods: bool = True) -> int:
        card = self.cards[unit.uid]
        total = card.firepower if stat == "firepower" else card.armor
        for mod_stat, amount, _ in unit.mods:
            if mod_stat == stat and (plus_mods or amount < 0):
                total += amount
        # most units have no static skill, armament or facility to look at: skip the listing then
        if unit.armaments or card.static_self or self.players[unit.owner].facilities:
            statics = self.static_skills(unit)
            kind = f"{stat}_mod"
            for skill in statics:
                if skill.kind == kind:
                    amount = skill.get("amount")
                    if plus_mods or amount < 0:
                        total += amount
        return total if total > 0 else 0

    def firepower(self, unit: Unit) -> int:
        return self.stat(unit, "firepower")

    def armor(self, unit: Unit) -> int:
        return self.stat(unit, "armor")

    def armor_left(self, obj: Any) -> int:
        """装甲 left; unreducible damage is measured against the armor without plus modifications (H13)."""
        if not isinstance(obj, Unit):
            return 99
        left = self.stat(obj, "armor", plus_mods=obj.hard_damage == 0) - obj.damage - obj.hard_damage
        return left if left > 0 else 0

    def has_flag(self, unit: Unit, flag: str) -> bool:
        """first_strike / pierce / unreducible, from static skills or granted this turn."""
        if flag in unit.flags and not unit.down:
            return True
        return any(skill.kind == flag for skill in self.static_skills(unit))

    def cost_of(self, obj: Any) -> int:
        return self.cards[obj.uid].cost if isinstance(obj, Unit) else 99
