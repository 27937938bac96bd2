"""HAGMI! game state: zones, units and the effect operations skills use (RULES.md §1.3–§1.5).

Every physical card has a `uid` (its index in `StateCore.cards`) and sits in exactly one place: a deck, the
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
from rules_engine.hagmi.skills import Ctx, resolve_all


if TYPE_CHECKING:
    import random

    from rules_engine.hagmi.beasts import BeastSide
    from rules_engine.hagmi.combat import Combat


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
    used: set[str] = field(default_factory=set)  # once-per-turn keys of facilities

    def copy(self) -> Player:
        """An independent copy (HagmiState.clone): zones, units, durability and used keys."""
        return Player(index=self.index, kind=self.kind, weapons=list(self.weapons), tactics=list(self.tactics),
                      damage_deck=list(self.damage_deck), hand=list(self.hand), secret=list(self.secret),
                      units=[unit.copy() for unit in self.units], facilities=list(self.facilities),
                      loose_armaments=list(self.loose_armaments), discard=list(self.discard),
                      removed=list(self.removed), durability=dict(self.durability), used=set(self.used))


class StateCore:
    """Data and effect operations shared by the turn flow (game.py), combat.py, beasts.py and refit.py."""

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

    def _static_skills(self, unit: Unit) -> tuple[Skill, ...] | list[Skill]:
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
                    found.extend(skill for skill in self.cards[facility].static_friendly if self._types_ok(skill, unit))
        return found

    def _types_ok(self, skill: Skill, unit: Unit) -> bool:
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
            statics = self._static_skills(unit)
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
        return any(skill.kind == flag for skill in self._static_skills(unit))

    def cost_of(self, obj: Any) -> int:
        return self.cards[obj.uid].cost if isinstance(obj, Unit) else 99

    # ---- skills support ----------------------------------------------------------------------------------

    def condition_holds(self, ctx: Ctx, skill: Skill) -> bool:
        cond = skill.condition
        if not cond:
            return True
        source = self.find_unit(ctx.source)
        if "min_fuel" in cond and (source is None or len(source.fuel) < cond["min_fuel"]):
            return False
        if "self_types" in cond and (source is None or not set(cond["self_types"]) & set(self.cards[source.uid].types)):
            return False
        if "min_units" in cond and len(self.units_of(ctx.player)) < cond["min_units"]:
            return False
        if "max_damage_deck" in cond and self.is_player_side(ctx.player):
            if len(self.players[ctx.player].damage_deck) > cond["max_damage_deck"]:
                return False
        return True

    def use_once(self, ctx: Ctx, skill: Skill) -> bool:
        """`once_per_turn`: at most once per turn per card on the battlefield. `main` skills are limited by
        the action that uses them (game.py), everything else here. Returns False when already used."""
        if not skill.once_per_turn or skill.trigger == "main":
            return True
        unit = self.find_unit(ctx.source)
        key = f"{skill.trigger}:{skill.kind}"
        used = unit.used if unit is not None else self.players[ctx.player].used
        key = key if unit is not None else f"{ctx.source}:{key}"
        if key in used:
            return False
        used.add(key)
        return True

    def auto_target(self, ctx: Ctx, skill: Skill) -> int | None:
        """A deterministic choice for a triggered skill: the enemy unit with the least armor left, or the
        friendly unit with the most firepower (for a refuel: among those with room for fuel)."""
        if skill.get("target") == "enemy_unit":
            units = self.units_of(self.opponent_of(ctx.player))
            best = min(units, key=lambda u: (self.armor_left(u), u.uid), default=None)
        else:
            units = self.units_of(ctx.player)
            if skill.kind == "refuel":
                units = [u for u in units if len(u.fuel) < self.cards[u.uid].cost]
            best = min(units, key=lambda u: (-self.firepower(u), u.uid), default=None)
        return None if best is None else best.uid

    def resolve_targets(self, ctx: Ctx, skill: Skill, default: str | None = None) -> list[Any]:
        """The objects a skill acts on: Unit objects or ("player", index)."""
        target = skill.get("target", default)
        me, them = ctx.player, self.opponent_of(ctx.player)
        if target == "self":
            found = self.find_unit(ctx.source)
            return [found] if found else []
        if target == "you":
            return [("player", me)]
        if target in ("opponent", "all_opponents"):
            return [("player", them)] if self.is_player_side(them) else []
        if target in ("enemy_unit", "friendly_unit"):
            found = self.find_unit(ctx.chosen)
            side = them if target == "enemy_unit" else me
            return [found] if found is not None and found.owner == side else []
        if target == "attacker":
            found = self.find_unit(ctx.attacker)
            return [found] if found else []
        if target == "target":
            found = self.find_unit(ctx.target) if isinstance(ctx.target, int) else None
            return [found] if found else ([ctx.target] if isinstance(ctx.target, tuple) else [])
        if target == "equipped_unit":
            return [u for u in self.units_of(me) if ctx.source in u.armaments]
        if target == "all_enemy_units":
            return list(self.units_of(them))
        if target == "all_friendly_units":
            return [u for u in self.units_of(me) if self._types_ok(skill, u)]
        if target == "all_units":
            return list(self.all_units())
        return []

    def add_shield(self, obj: Any, kind: str, skill: Skill) -> None:
        if isinstance(obj, Unit):
            value = skill.get("amount", 0) if kind == "reduce" else skill.get("max_damage", 0)
            obj.shields.append((kind, value))

    def add_barrier(self, obj: Any, count: int) -> None:
        if isinstance(obj, Unit):
            obj.barrier += count

    def add_modifier(self, obj: Any, stat: str, amount: int, duration: str) -> None:
        if isinstance(obj, Unit):
            obj.mods.append([stat, amount, duration])
            self._check_destroyed(obj, by_player=None)

    def grant_flag(self, obj: Any, flag: str) -> None:
        if isinstance(obj, Unit):
            obj.flags.add(flag)

    def end_battle_phase(self) -> None:
        self.battle_closed = True  # 照明弾 (H10)
        self.log("end_battle_phase", None, {})

    def set_down(self, obj: Any) -> None:
        if isinstance(obj, Unit):
            obj.down = True
            self.log("down", obj.owner, {"unit": obj.uid})

    # ---- damage (H13) ------------------------------------------------------------------------------------

    def reductions(self, unit: Unit, amount: int) -> int:
        """The damage left after every reducing effect: no_damage, barrier counter, nullify, reduce."""
        if any(kind == "no_damage" for kind, _ in unit.shields):
            return 0
        if unit.barrier:
            unit.barrier -= 1
            return 0
        if any(kind == "nullify" and (not limit or amount <= limit) for kind, limit in unit.shields):
            return 0
        reduce = sum(v for kind, v in unit.shields if kind == "reduce")
        if not unit.down:
            reduce += sum(s.get("amount") for s in self.cards[unit.uid].static_self if s.kind == "reduce_damage")
        return max(0, amount - reduce)

    def damage_unit(self, unit: Unit, amount: int, *, unreducible: bool, by_player: int | None) -> int:
        """Deal damage to a unit; returns the excess over its remaining armor (for 貫通)."""
        if amount <= 0 or self.find_unit(unit.uid) is not unit:
            return 0
        left_before = self.armor_left(unit)
        if unreducible:  # H13: every reduction ignored; a barrier counter is still removed
            if unit.barrier:
                unit.barrier -= 1
            unit.hard_damage += amount
            dealt = amount
        else:
            dealt = self.reductions(unit, amount)
            unit.damage += dealt
        self.log("damage", unit.owner, {"unit": unit.uid, "amount": dealt, "unreducible": unreducible})
        self._check_destroyed(unit, by_player=by_player)
        return max(0, dealt - left_before)

    def _check_destroyed(self, unit: Unit, by_player: int | None) -> None:
        if self.find_unit(unit.uid) is unit and self.armor_left(unit) <= 0 and (unit.damage or unit.hard_damage
                                                                               or self.armor(unit) == 0):
            self.remove_unit(unit, destroyed_by=by_player)

    def deal_damage(self, obj: Any, amount: int, *, unreducible: bool = False, source: int | None = None,
                    by_player: int | None = None, attacker: int | None = None) -> int:
        if isinstance(obj, Unit):
            return self.damage_unit(obj, amount, unreducible=unreducible, by_player=by_player)
        if isinstance(obj, tuple) and obj[0] == "player":
            self.damage_player(obj[1], amount, attacker=attacker if attacker is not None else source)
        return 0

    def damage_player(self, index: int, amount: int, attacker: int | None = None) -> None:
        """Each point turns up a damage card and resolves its counter skill; empty deck → that player loses."""
        if not self.is_player_side(index):
            return
        player = self.players[index]
        for _ in range(amount):
            if self.over:
                return
            if not player.damage_deck:
                self.log("damage_player", index, {"card": None})
                self.finish(self.opponent_of(index), outcome.DAMAGE_DECK_EMPTY)
                return
            uid = player.damage_deck.pop()
            self.log("damage_player", index, {"card": self.cards[uid].code})
            player.discard.append(uid)
            resolve_all(Ctx(self, index, source=uid, attacker=attacker), self.cards[uid].skills_for("counter"))

    # ---- zones -------------------------------------------------------------------------------------------

    def draw_card(self, index: int, deck: str) -> int | None:
        """Draw from 兵器 ("weapons") or 作戦 ("tactics"); "choice" takes the fuller deck. Empty: nothing."""
        if not self.is_player_side(index):
            return None
        player = self.players[index]
        if deck == "choice":
            deck = "weapons" if len(player.weapons) >= len(player.tactics) else "tactics"
        pile = player.weapons if deck == "weapons" else player.tactics
        if not pile:
            return None
        uid = pile.pop()
        player.hand.append(uid)
        self.log("draw", index, {"deck": deck})
        return uid

    def enter_unit(self, index: int, uid: int, fuel: list[int], stored: list[int] | None = None,
                   chosen: int | None = None) -> Unit:
        """A unit enters the battlefield with its fuel; its on_enter skills resolve."""
        self.presence_counter += 1
        unit = Unit(uid=uid, owner=index, presence=self.presence_counter, fuel=list(fuel), stored=list(stored or []))
        self.players[index].units.append(unit)
        self.log("enter", index, {"card": self.cards[uid].code, "uid": uid, "fuel": len(fuel)})
        resolve_all(Ctx(self, index, source=uid, chosen=chosen), self.cards[uid].skills_for("on_enter"))
        return unit

    def remove_unit(self, unit: Unit, *, dismantle: bool = False, destroyed_by: int | None = None) -> None:
        """Destroyed: to discard with its fuel, on_destroyed fires. Dismantled (H12): removed from the game,
        no on_destroyed."""
        if self.find_unit(unit.uid) is not unit:
            return
        if not self.is_player_side(unit.owner):
            from rules_engine.hagmi.beasts import remove_beast

            remove_beast(self, unit, dismantle=dismantle, destroyed_by=destroyed_by)
            return
        player = self.players[unit.owner]
        player.units.remove(unit)
        card = self.cards[unit.uid]
        self.log("dismantled" if dismantle else "destroyed", unit.owner, {"card": card.code, "uid": unit.uid})
        if dismantle:
            player.removed.append(unit.uid)
        else:
            player.discard.append(unit.uid)
        player.discard.extend(unit.fuel + unit.stored + unit.armaments)
        for armament in unit.armaments:
            player.durability.pop(armament, None)
        if not dismantle and not unit.down:
            skills = card.skills_for("on_destroyed")
            resolve_all(Ctx(self, unit.owner, source=unit.uid), skills)

    def return_to_hand(self, obj: Any) -> None:
        """手札に戻す: the unit card to hand; its fuel, stored cards and armaments to discard."""
        if not isinstance(obj, Unit) or not self.is_player_side(obj.owner) or self.find_unit(obj.uid) is not obj:
            return
        player = self.players[obj.owner]
        player.units.remove(obj)
        player.hand.append(obj.uid)
        player.discard.extend(obj.fuel + obj.stored + obj.armaments)
        self.log("return_to_hand", obj.owner, {"card": self.cards[obj.uid].code})

    def refuel(self, index: int, obj: Any, amount: int, source: str) -> None:
        """補給: top cards of `source` become fuel; never above the unit's cost (H23 too)."""
        if not isinstance(obj, Unit) or not self.is_player_side(obj.owner):
            return
        player = self.players[index]
        pile = {"weapons_deck": player.weapons, "tactics_deck": player.tactics, "hand": player.hand,
                "discard": player.discard}[source]
        added = 0
        while added < amount and pile and len(obj.fuel) < self.cards[obj.uid].cost:
            obj.fuel.append(pile.pop())
            added += 1
        if added:
            self.log("refuel", index, {"unit": obj.uid, "amount": added})

    def search_secret(self, index: int, category: str | None, types: tuple[str, ...], to: str) -> None:
        """Take the first matching 秘策 card to hand (or onto the battlefield) (H20)."""
        player = self.players[index]
        for uid in player.secret:
            card = self.cards[uid]
            if (category is None or card.category == category) and (not types or set(types) & set(card.types)):
                player.secret.remove(uid)
                self.log("search_secret", index, {"to": to})
                if to == "battlefield" and card.is_unit:
                    self.enter_unit(index, uid, [])
                else:
                    player.hand.append(uid)
                return

    def pay_cards(self, index: int, exclude: int, cost: int) -> list[int] | None:
        """An automatic payment (緊急生産): the cheapest other hand cards, or None if the hand is too small."""
        hand = [uid for uid in self.players[index].hand if uid != exclude]
        if len(hand) < cost:
            return None
        return sorted(hand, key=lambda uid: (self.cards[uid].cost, uid))[:cost]

    def produce(self, index: int, uid: int, pay_cost: bool = True) -> None:
        """緊急生産: put a unit card from hand or 秘策 onto the battlefield outside the main phase."""
        player = self.players[index]
        zone = player.hand if uid in player.hand else player.secret if uid in player.secret else None
        if zone is None:
            return
        payment: list[int] = []
        if pay_cost:
            found = self.pay_cards(index, uid, self.cards[uid].cost)
            if found is None:
                return
            payment = found
            for paid in payment:
                player.hand.remove(paid)
        zone.remove(uid)
        self.log("produce", index, {"card": self.cards[uid].code})
        self.enter_unit(index, uid, payment)

    # ---- 機獣 side hooks (beasts.py) --------------------------------------------------------------------

    def beast_charge(self, amount: int) -> None:
        from rules_engine.hagmi.beasts import charge

        if self.beasts is not None:
            charge(self, amount)

    def beast_summon(self, count: int, source: str, max_cost: int | None) -> None:
        from rules_engine.hagmi.beasts import summon

        if self.beasts is not None:
            summon(self, count, source, max_cost)
