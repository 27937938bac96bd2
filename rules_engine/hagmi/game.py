"""HAGMI! reference engine: `HagmiGame` and its `HagmiState` (RULES.md §1.3–§1.6, core/game.py protocol).

Player 0 plays the list; player 1 is the opponent: `goldfish` (never acts, only a damage deck), `coop`
(the 機獣 side, run by the rules: beasts.py) or `deck` (another list, played by a policy).

The actions are the typed records of actions.py (which lists them all and what they mean).

Automatic choices (no decision point): a triggered skill's target (skills.py), a "choice" draw (the fuller
deck), the payment for a unit produced by 緊急生産 (the cheapest cards), which 秘策 card `search_secret` takes
(the first that matches).
"""
from __future__ import annotations

import random
from itertools import chain, combinations, islice
from typing import Any, Iterable, Mapping, cast

from rules_engine.core.catalog import CardDataError, entries_of
from rules_engine.core import outcome
from rules_engine.core.dice import roll
from rules_engine.core.events import EventLog
from rules_engine.core.game import TERMINAL, EngineError, IllegalActionError
from rules_engine.hagmi import actions as actions_of
from rules_engine.hagmi import beasts as beast_rules
from rules_engine.hagmi import combat
from rules_engine.hagmi import policies  # noqa: F401  (registers the HAGMI policies by name)
from rules_engine.hagmi.actions import BATTLE, END, PASS, Action, Attack, Play, ProduceDesign, UseHidden, UseSkill
from rules_engine.hagmi.cards import HagmiCard, cards_from_catalog
from rules_engine.hagmi.refit import design_materials, equip_ok, hidden_ready, produce_design, refit_choices, use_hidden
from rules_engine.hagmi.skills import CHOSEN_TARGETS, Ctx, resolve_all
from rules_engine.hagmi.state import Player, StateCore, Unit

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "opening_split": "2/2",  # opening hand: 兵器/作戦
    "damage_clears": "end_of_turn",  # or "never"
    "equal_cost": "appears",  # H30 step 2, or "charger"
    "charge_per_turn": 1,  # the 機獣 turn's charge phase
    "beast_deck_reshuffle": True,
    "max_turns": 60,  # a game still running after this many turns is a draw
    "max_payment_options": 12,
    "max_target_options": 12,
}
SECTIONS = {"weapons": "weapons", "tactics": "tactics", "damage": "damage_deck", "secret": "secret"}
DECK_OF_CATEGORY = {"unit": "兵器", "armament": "兵器", "design": "兵器", "tactic": "作戦", "damage": "ダメージ"}


class HagmiGame:
    """The HAGMI! ruleset bound to a list (player 0) and an opponent (player 1)."""

    name = "hagmi"
    num_players = 2

    def __init__(self, player_list_doc: Mapping[str, Any], catalog: Any, opponent: Mapping[str, Any] | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self._raw_cards: Mapping[str, Mapping[str, Any]] = catalog.cards if hasattr(catalog, "cards") else catalog
        self.cards: dict[str, HagmiCard] = {}  # only the cards this game uses, parsed once
        unknown = set(options or {}) - set(DEFAULT_OPTIONS)
        if unknown:
            raise ValueError(f"unknown HAGMI engine options: {', '.join(sorted(unknown))}")
        self.options = {**DEFAULT_OPTIONS, **(options or {})}
        self.opening = self._opening_split(self.options["opening_split"])
        self.opponent = dict(opponent or {"kind": "goldfish", "damage_deck": []})
        self.sides = [self._list_side(player_list_doc, "list"), self._opponent_side(self.opponent)]

    def _load(self, code: Any) -> bool:
        """Parse a catalog card into `self.cards` (CardDataError names a bad field); False if unknown."""
        if code in self.cards:
            return True
        if not isinstance(code, str) or code not in self._raw_cards:
            return False
        self.cards.update(cards_from_catalog([self._raw_cards[code]]))
        return True

    def card(self, code: str) -> HagmiCard:
        """The engine card for `code` (parsed on first use); an unknown code raises CardDataError."""
        if not self._load(code):
            raise CardDataError(str(code), "code", "unknown card code")
        return self.cards[code]

    @staticmethod
    def _opening_split(value: Any) -> tuple[int, int]:
        try:
            weapons, tactics = (int(x) for x in str(value).split("/"))
        except ValueError:
            raise ValueError(f'option "opening_split": expected "W/T" such as "2/2", got {value!r}') from None
        return weapons, tactics

    def _entries(self, entries: Any, where: str) -> list[str]:
        codes: list[str] = []
        if entries is None:
            return codes
        for at, code, qty, _entry in entries_of(entries, where):
            if not isinstance(code, str) or not self._load(code):  # (_load refuses a non-string too)
                raise CardDataError(str(code), f"{at}.card", "unknown card code")
            codes += [code] * qty
        return codes

    def _list_side(self, doc: Mapping[str, Any], where: str) -> dict[str, Any]:
        sections = doc.get("sections", {}) if isinstance(doc, Mapping) else {}
        if not isinstance(sections, Mapping):
            raise ValueError(f"{where}.sections: expected an object of sections, got {type(sections).__name__}")
        side: dict[str, Any] = {"kind": "deck"}
        for section, zone in SECTIONS.items():
            side[zone] = self._entries(sections.get(section, ()), f"{where}.sections.{section}")
        return side

    def _opponent_side(self, opponent: Mapping[str, Any]) -> dict[str, Any]:
        kind = opponent.get("kind")
        if kind == "goldfish":
            return {"kind": "goldfish", "damage_deck": self._entries(opponent.get("damage_deck", ()), "opponent.damage_deck")}
        if kind == "deck":
            return self._list_side(opponent.get("list", {}), "opponent.list")
        if kind == "coop":
            ship = opponent.get("mothership")
            if not isinstance(ship, str) or not self._load(ship) or self.cards[ship].category != "mothership":
                raise CardDataError(str(ship), "opponent.mothership", "not a mothership (母艦) card")
            deck = self._entries(opponent.get("beast_deck", ()), "opponent.beast_deck")
            for code in deck:
                if self.cards[code].category != "beast":
                    raise CardDataError(code, "opponent.beast_deck", "not a 機獣 card")
            return {"kind": "coop", "mothership": ship, "beast_deck": deck}
        raise ValueError(f'opponent "kind": expected goldfish, coop or deck, got {kind!r}')

    def new_initial_state(self, rng: random.Random) -> "HagmiState":
        return HagmiState(self, rng)


class HagmiState(StateCore):
    def __init__(self, game: HagmiGame, rng: random.Random, copy_of: HagmiState | None = None) -> None:
        """A new game of `game`, set up and played up to the first decision; or, with `copy_of`, a copy of that
        state (`clone`: compiled classes cannot be deep-copied by `copy`)."""
        self.game = game
        self.options = game.options
        self.rng = rng
        self.events = EventLog()
        self.turn, self.active = 0, 0
        self.winner, self.over, self.battle_closed = None, False, False
        self.end_reason = None
        self.presence_counter = 0
        self.combat = None
        self.decision: tuple[str, int] | None = None
        self.beast_queue: list[int] = []
        self.cards = []
        self.players = []
        self.beasts = None
        self._legal: list[Action] | None = None
        if copy_of is not None:
            self._copy_from(copy_of)
            return
        for index, side in enumerate(game.sides):
            self._setup_side(index, side)
        self._start_turn(0)

    def _copy_from(self, source: HagmiState) -> None:
        """Everything that changes during play is copied; the cards (immutable) and the options are shared."""
        self.options = source.options
        self.events = source.events.copy()
        self.turn, self.active = source.turn, source.active
        self.winner, self.over, self.battle_closed = source.winner, source.over, source.battle_closed
        self.end_reason = source.end_reason
        self.presence_counter = source.presence_counter
        self.combat = source.combat.copy() if source.combat is not None else None
        self.decision = source.decision
        self.beast_queue = list(source.beast_queue)
        self.cards = list(source.cards)
        self.players = [player.copy() for player in source.players]
        self.beasts = source.beasts.copy() if source.beasts is not None else None
        self._legal = list(source._legal) if source._legal is not None else None

    # ---- setup -------------------------------------------------------------------------------------------

    def _new_uids(self, codes: list[str]) -> list[int]:
        start = len(self.cards)
        self.cards.extend(self.game.card(code) for code in codes)
        return list(range(start, len(self.cards)))

    def _setup_side(self, index: int, side: dict[str, Any]) -> None:
        if side["kind"] == "coop":
            ship = self.game.card(side["mothership"])
            self.beasts = beast_rules.BeastSide(index=index, mothership=ship, cores=ship.cores,
                                                deck=self._new_uids(side["beast_deck"]))
            self.rng.shuffle(self.beasts.deck)
            self.players.append(Player(index=index, kind="coop"))
            return
        player = Player(index=index, kind=side["kind"])
        for zone in ("weapons", "tactics", "damage_deck", "secret"):
            setattr(player, zone, self._new_uids(side.get(zone, [])))
        for zone in ("weapons", "tactics", "damage_deck"):  # 秘策 is set aside, not shuffled
            self.rng.shuffle(getattr(player, zone))
        self.players.append(player)
        if player.kind == "deck":
            weapons, tactics = self.game.opening
            for _ in range(weapons):
                self.draw_card(index, "weapons")
            for _ in range(tactics):
                self.draw_card(index, "tactics")

    def create_card(self, code: str) -> int:
        """A new physical card of `code` in no zone yet (scenario set-up: the caller puts the uid somewhere)."""
        return self._new_uids([code])[0]

    # ---- protocol ----------------------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.over or self.decision is None else self.decision[1]

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> tuple[float, ...]:
        if not self.over or self.winner is None:
            return (0.0, 0.0)
        return tuple(1.0 if p == self.winner else -1.0 for p in range(2))

    def clone(self) -> HagmiState:
        """An independent copy: zones, units, the combat in progress, the log and the random generator's state."""
        twin = random.Random()
        twin.setstate(self.rng.getstate())
        return HagmiState(self.game, twin, copy_of=self)

    def decides(self, player: int) -> bool:
        """Whether `player` makes decisions (goldfish and the 機獣 side never do)."""
        return self.players[player].kind == "deck"

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def apply(self, action: Any) -> None:  # any value: one that is not legal is refused below
        if self.over or self.decision is None:
            raise IllegalActionError(f"the game is over; cannot apply {action!r}")
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:  # the one check; the legal record stands for an equal bare tuple from here on
            action = legal[legal.index(action)]
        except ValueError:
            raise IllegalActionError(f"illegal action {action!r} on turn {self.turn}") from None
        self._legal = None
        kind, player = self.decision
        self.decision = None
        if kind == "main":  # a plain chain, not getattr(f"_apply_{kind}"): native calls once compiled
            self._apply_main(player, action)
        elif kind == "battle":
            self._apply_battle(player, action)
        elif kind == "defend":
            self._apply_defend(player, action)
        elif kind == "emergency":
            self._apply_emergency(player, action)
        else:
            raise EngineError(f"turn {self.turn}: no rule for a {kind!r} decision")
        if self.over:
            self.decision, self._legal = None, None

    def describe(self, action: Any) -> str:
        """An action in words (by index: a record or the bare tuple equal to it, actions.py)."""
        def name(x: Any) -> str:
            return self.cards[x].name if isinstance(x, int) else repr(x)

        if action[0] in ("play", "attack", "skill", "hidden", "design", "intercept"):
            return f"{action[0]} {name(action[1])} " + " ".join(repr(a) for a in action[2:])
        return action[0]

    def secret_view(self, viewer: int, owner: int) -> list[str]:
        """H20: its owner sees the 秘策 cards; the opponent sees only each card's deck kind (兵器/作戦/ダメージ)."""
        cards = [self.cards[uid] for uid in self.players[owner].secret]
        if viewer == owner:
            return [c.code for c in cards]
        return sorted(DECK_OF_CATEGORY.get(c.category, "兵器") for c in cards)

    # ---- turn structure (RULES.md §1.3) ------------------------------------------------------------------

    def _start_turn(self, index: int) -> None:
        self.turn += 1
        self.active, self.battle_closed = index, False
        if self.turn > int(self.options["max_turns"]):
            self.finish(None, outcome.TURN_LIMIT)
            return
        self.log("turn_start", index, {})
        if not self.is_player_side(index):
            self.beast_queue = beast_rules.beast_turn_start(self)
            if not self.over:
                self._next_beast_attack()
            return
        player = self.players[index]
        if player.kind == "goldfish":
            self._end_turn()
            return
        player.used.clear()
        for unit in player.units:  # standby: ダウン ends
            unit.down = False
            unit.used.clear()
        self._turn_skills(index, "on_turn_start")
        if not self.over:
            self._logistics_draw(index)
            self.decision = ("main", index)

    def _logistics_draw(self, index: int) -> None:
        """兵站: 2 dice; 1–3 draws from 作戦, 4–6 from 兵器; doubles draw 1 more from that deck."""
        dice = roll(self.rng, 6, 2)
        self.log("logistics", index, {"dice": list(dice)})
        decks = ["weapons" if die >= 4 else "tactics" for die in dice]
        if dice[0] == dice[1]:
            decks.append(decks[0])
        for deck in decks:
            self.draw_card(index, deck)

    def _turn_skills(self, index: int, trigger: str) -> None:
        # Runs twice a turn for every card in play, and most cards have no such skill: look at the skills first.
        player = self.players[index]
        for uid in list(player.facilities):
            skills = self.cards[uid].skills_for(trigger)
            if skills:
                resolve_all(Ctx(self, index, source=uid), skills)
        for unit in list(player.units):
            skills = self.cards[unit.uid].skills_for(trigger)
            if skills and self.find_unit(unit.uid) is unit and not unit.down:
                resolve_all(Ctx(self, index, source=unit.uid), skills)

    def _end_turn(self) -> None:
        index = self.active
        if self.is_player_side(index) and self.players[index].kind == "deck":
            self._turn_skills(index, "on_turn_end")
        if self.over:
            return
        clear_damage = self.options["damage_clears"] == "end_of_turn"
        for unit in self.all_units():
            if clear_damage:
                unit.damage = unit.hard_damage = 0
            if unit.mods:
                unit.mods = [m for m in unit.mods if m[2] == "permanent"]
            unit.flags.clear()
            unit.shields.clear()
            unit.attacked = False
        self.log("turn_end", index, {})
        self._start_turn(self.opponent_of(index))

    def _next_beast_attack(self) -> None:
        """H32, H33: beasts attack in action order, each against one player, never units."""
        while self.beast_queue and not self.over and not self.battle_closed:
            unit = self.find_unit(self.beast_queue.pop(0))
            if unit is None or unit.down:
                continue
            combat.declare_attack(self, unit.uid, (("player", beast_rules.beast_target(self)),))
            return
        if not self.over:
            self._end_turn()

    def after_combat(self) -> None:
        if self.over:
            return
        if not self.is_player_side(self.active):
            self._next_beast_attack()
        elif self.battle_closed:
            self._end_turn()
        else:
            self.decision = ("battle", self.active)

    def open_window_or_exchange(self) -> None:
        """緊急: the attacked player may use emergency cards before the first exchange and between two."""
        assert self.combat is not None
        defender = self.opponent_of(self.combat.side)
        plays = self._emergency_plays(defender) if self.decides(defender) and not self.battle_closed else None
        if plays:
            self.decision = ("emergency", defender)
            self._legal = plays + [PASS]  # the legal actions of this decision, listed once
        else:
            combat.run_exchange(self)

    # ---- zones used by combat ----------------------------------------------------------------------------

    def owner_discard(self, index: int) -> list[int]:
        beasts = self.beasts  # not is_player_side(index): the 機獣 side's
        return beasts.discard if beasts is not None and index == beasts.index else self.players[index].discard

    def wear_armament(self, unit: Unit, armament: int) -> None:
        player = self.players[unit.owner]
        player.durability[armament] = player.durability.get(armament, 1) - 1
        if player.durability[armament] <= 0 and armament in unit.armaments:
            unit.armaments.remove(armament)
            del player.durability[armament]
            player.discard.append(armament)
            self.log("armament_broken", unit.owner, {"card": self.cards[armament].code})

    # ---- legal actions -----------------------------------------------------------------------------------

    def _compute_legal(self) -> list[Action]:
        if self.over or self.decision is None:
            return []
        kind, player = self.decision
        if kind == "main":
            return self._main_actions(player)
        if kind == "battle":
            return self._attack_actions(player) + [END]
        if kind == "defend":
            return combat.defense_options(self)
        return self._emergency_plays(player) + [PASS]

    def _payment_order(self, player: int) -> list[int]:
        """The hand cheapest first (ties: code, then uid), the order payments are listed in."""
        cards = self.cards
        return sorted(self.players[player].hand, key=lambda uid: (cards[uid].cost, cards[uid].code, uid))

    def _payments(self, player: int, exclude: int, cost: int,
                  ordered: list[int] | None = None) -> list[tuple[int, ...]]:
        """Up to `max_payment_options` ways to pay `cost` with hand cards other than `exclude`, no two with the
        same codes. `ordered`: `_payment_order(player)` when the caller already has it (one sort per listing)."""
        if cost == 0:
            return [()]
        if ordered is None:
            ordered = self._payment_order(player)
        code = {uid: self.cards[uid].code for uid in ordered if uid != exclude}
        limit = int(self.options["max_payment_options"])
        seen: set[tuple[str, ...]] = set()
        found: list[tuple[int, ...]] = []
        for combo in combinations(code, cost):  # dicts keep `ordered`'s order
            key = tuple(map(code.__getitem__, combo))
            if key not in seen:
                seen.add(key)
                found.append(combo)
                if len(found) >= limit:
                    break
        return found

    def _playable_cards(self, player: int, emergency: bool) -> list[int]:
        """One card per code: from hand (not 秘策-only cards, H20) and 秘策 cards usable from 秘策."""
        me, all_cards = self.players[player], self.cards
        seen: set[str] = set()
        cards = []
        window = "emergency" if emergency else "main"
        for zone, from_secret in ((me.hand, False), (me.secret, True)):
            for uid in zone:
                card = all_cards[uid]
                if card.play_window == window and card.usable_from_secret == from_secret and card.code not in seen:
                    seen.add(card.code)
                    cards.append(uid)
        return cards

    def _targets_for(self, player: int, uid: int, trigger: str) -> list[Any] | None:
        """The choices a card's first targeted skill offers; None when it cannot be played now."""
        card = self.cards[uid]
        if card.category == "unit":
            return [None]
        if card.category == "armament":
            return [u.uid for u in self.players[player].units if equip_ok(card, self.cards[u.uid])] or None
        skills = card.skills_for(trigger)
        if not skills:
            return [None] if card.subtype == "facility" and trigger == "on_play" else None
        return self._skill_targets(player, uid, skills)

    def _skill_targets(self, player: int, uid: int, skills: tuple) -> list[Any] | None:
        for skill in skills:
            if skill.kind == "refit":
                zones = tuple(skill.get("from", ("hand", "secret")))
                return refit_choices(self, player, zones, exclude=uid) or None
            if skill.kind == "produce":
                zones = tuple(skill.get("from", ("hand",)))
                return self._produce_choices(player, uid, zones, skill) or None
            target = skill.get("target")
            if target in CHOSEN_TARGETS:
                units = self.units_of(player if target == "friendly_unit" else self.opponent_of(player))
                valid = [u.uid for u in units if self._valid_target(u, skill)]
                return valid or None
        return [None]

    def _valid_target(self, unit: Unit, skill: Any) -> bool:
        if skill.kind == "refuel":
            return len(unit.fuel) < self.cards[unit.uid].cost
        if skill.kind in ("destroy", "dismantle"):
            return (self.cards[unit.uid].cost <= skill.get("max_cost", 99)
                    and self.armor_left(unit) <= skill.get("max_armor", 99))
        return True

    def _produce_choices(self, player: int, uid: int, zones: tuple[str, ...], skill: Any) -> list[int]:
        me = self.players[player]
        seen: set[str] = set()
        choices = []
        for zone in zones:
            for unit_uid in getattr(me, zone):
                card = self.cards[unit_uid]
                if card.category != "unit" or card.cost > skill.get("max_cost", 99) or card.code in seen:
                    continue
                spare = len(me.hand) - (1 if uid in me.hand else 0) - self.cards[uid].cost - (1 if zone == "hand" else 0)
                if not skill.get("pay_cost", True) or spare >= card.cost:
                    seen.add(card.code)
                    choices.append(unit_uid)
        return choices

    def _card_plays(self, player: int, emergency: bool) -> list[Action]:
        actions: list[Action] = []
        trigger = "emergency" if emergency else "on_play"
        ordered = None  # the hand in payment order, sorted once for all the cards listed
        max_targets = int(self.options["max_target_options"])
        for uid in self._playable_cards(player, emergency):
            card = self.cards[uid]
            if card.category == "tactic" and not emergency and card.subtype != "facility" and not card.skills_for("on_play"):
                continue
            targets = self._targets_for(player, uid, trigger)
            if targets is None:
                continue
            if ordered is None and card.cost:
                ordered = self._payment_order(player)
            payments = self._payments(player, uid, card.cost, ordered)
            if targets == [None] and max_targets > 0:  # the common case: no target to check against the payment
                actions.extend(actions_of.play(uid, payment, None) for payment in payments)
                continue
            for payment in payments:
                for target in targets[:max_targets]:
                    chosen_card = target[1] if isinstance(target, tuple) else target
                    if chosen_card not in payment:  # a refit / produce card cannot also pay the cost
                        actions.append(actions_of.play(uid, payment, target))
        return actions

    def _emergency_plays(self, player: int) -> list[Action]:
        return self._card_plays(player, emergency=True)

    def _main_actions(self, player: int) -> list[Action]:
        actions = self._card_plays(player, emergency=False)
        me = self.players[player]
        seen_designs: set[str] = set()
        for uid in me.secret:
            card = self.cards[uid]
            if card.category == "design" and card.code not in seen_designs:
                seen_designs.add(card.code)
                actions += [actions_of.produce_design(uid, materials) for materials in design_materials(self, player, uid)]
        for source, skill_index, skill, used in self._main_skills(player):
            if skill.once_per_turn and used:
                continue
            for target in self._skill_targets(player, source, (skill,)) or []:
                actions.append(actions_of.use_skill(source, skill_index, target))
        for unit in me.units:
            hidden = self.cards[unit.uid].skills_for("hidden_mechanism")
            if hidden and hidden_ready(self, unit):
                for target in self._skill_targets(player, unit.uid, hidden) or []:
                    actions.append(actions_of.use_hidden(unit.uid, target))
        actions.append(BATTLE)
        return actions

    def _main_skills(self, player: int) -> Iterable[tuple[int, int, Any, bool]]:
        me = self.players[player]
        for unit in me.units:
            if not unit.down:
                for i, skill in self.cards[unit.uid].main_skills:
                    yield unit.uid, i, skill, f"main{i}" in unit.used
        for uid in me.facilities:
            for i, skill in self.cards[uid].main_skills:
                yield uid, i, skill, f"{uid}:main{i}" in me.used

    def _attack_actions(self, player: int) -> list[Action]:
        """RULES §1.3 battle phase: each unit attacks once, paying 燃費; targets by 攻撃範囲."""
        them = self.opponent_of(player)
        candidates: list[Any] = [u.uid for u in self.units_of(them)]
        if self.is_player_side(them):
            candidates.append(("player", them))
        actions: list[Action] = []
        cut = int(self.options["max_target_options"])
        for unit in self.players[player].units:
            card = self.cards[unit.uid]
            if unit.attacked or unit.down or len(unit.fuel) < card.fuel_cost or not candidates:
                continue
            limit = card.max_targets
            if limit is None:
                actions.append(actions_of.attack(unit.uid, tuple(candidates)))
                continue
            # target sets by size, then in order, cut at max_target_options: only the first `cut` are generated
            sizes = range(1, min(limit, len(candidates)) + 1)
            sets = chain.from_iterable(combinations(candidates, size) for size in sizes)
            options = list(islice(sets, cut)) if cut >= 0 else list(sets)[:cut]
            actions += [actions_of.attack(unit.uid, targets) for targets in options]
        return actions

    # ---- apply -------------------------------------------------------------------------------------------

    def _apply_main(self, player: int, action: Action) -> None:
        kind = action.kind
        if kind == "battle":
            self.log("battle_phase", player, {})
            self.decision = ("battle", player)
            return
        if kind == "play":
            play = cast(Play, action)
            self._play(player, play.card, play.payment, play.target, trigger="on_play")
        elif kind == "skill":
            skill = cast(UseSkill, action)
            self._use_main_skill(player, skill.card, skill.skill_index, skill.target)
        elif kind == "hidden":
            hidden = cast(UseHidden, action)
            use_hidden(self, player, hidden.unit, hidden.target)
        elif kind == "design":
            design = cast(ProduceDesign, action)
            produce_design(self, player, design.design, design.materials)
        if not self.over:
            self.decision = ("main", player)

    def _apply_battle(self, player: int, action: Action) -> None:
        if action.kind == "end":
            self._end_turn()
        else:
            attack = cast(Attack, action)
            combat.declare_attack(self, attack.unit, attack.targets)

    def _apply_defend(self, player: int, action: Action) -> None:
        combat.apply_defense(self, action)

    def _apply_emergency(self, player: int, action: Action) -> None:
        if action.kind == "pass":
            combat.run_exchange(self)
            return
        play = cast(Play, action)
        self._play(player, play.card, play.payment, play.target, trigger="emergency")
        if self.over:
            return
        if self.combat is None:
            return
        if combat.goes_on(self, self.combat):
            self.open_window_or_exchange()
        else:
            combat.run_exchange(self)  # the remaining hits are void (H10): this finishes the fight

    def _play(self, player: int, uid: int, payment: tuple[int, ...], target: Any, trigger: str) -> None:
        me = self.players[player]
        zone = me.hand if uid in me.hand else me.secret
        zone.remove(uid)
        for paid in payment:
            me.hand.remove(paid)
        card = self.cards[uid]
        self.log("play", player, {"card": card.code, "paid": len(payment)})
        if card.category == "unit":
            self.enter_unit(player, uid, list(payment))  # the paid cards become its fuel (燃料)
            return
        me.discard.extend(payment)
        if card.category == "armament":
            unit = self.find_unit(target)
            assert unit is not None
            unit.armaments.append(uid)
            me.durability[uid] = card.durability
            resolve_all(Ctx(self, player, source=uid), card.skills_for("on_enter"))
            return
        if card.subtype == "facility":
            me.facilities.append(uid)
            resolve_all(Ctx(self, player, source=uid), card.skills_for("on_enter"))
            return
        ctx = Ctx(self, player, source=uid, chosen=target if isinstance(target, int) else None)
        if isinstance(target, tuple) and len(target) == 2 and all(isinstance(x, int) for x in target):
            ctx.data["refit"] = target
        if any(s.kind == "produce" for s in card.skills_for(trigger)):
            ctx.chosen, ctx.data["produce"] = None, target
        me.discard.append(uid)  # an order (指令) resolves, then goes to discard (廃棄)
        resolve_all(ctx, card.skills_for(trigger))

    def _use_main_skill(self, player: int, source: int, index: int, target: Any) -> None:
        skill = self.cards[source].skills[index]
        unit = self.find_unit(source)
        if unit is not None:
            unit.used.add(f"main{index}")
        else:
            self.players[player].used.add(f"{source}:main{index}")
        self.log("skill", player, {"card": self.cards[source].code, "skill": skill.kind})
        resolve_all(Ctx(self, player, source=source, chosen=target), (skill,))
