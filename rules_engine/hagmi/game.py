"""HAGMI! reference engine: `HagmiGame` and its `HagmiState` (RULES.md §1.3–§1.6, core/game.py protocol).

`HagmiGame` reads the list documents and the opponent; `HagmiState(Table)` (state.py) keeps the state protocol
(current_player, legal_actions, apply, is_terminal, returns, outcome, clone, describe), the turn flow (RULES.md
§1.3: start of turn, standby, 兵站, main and battle phases, end of turn; the 機獣 turn, H32, H33), the legal
actions by decision (listed by legal.py and combat.py) and the dispatch of `apply` to the rules by concern
(zones.py, skills.py, refit.py, combat.py, beasts.py; damage.py).

Player 0 plays the list; player 1 is the opponent: `goldfish` (never acts, only a damage deck), `coop`
(the 機獣 side, run by the rules: beasts.py) or `deck` (another list, played by a policy). The list takes the
first turn unless the option `first_player` says otherwise (先攻, RULES.md §1.3 setup).

The actions are the typed records of actions.py (which lists them all and what they mean).

Automatic choices (no decision point): a triggered skill's target (skills.py), a "choice" draw (the fuller
deck), the payment for a unit produced by 緊急生産 (the cheapest cards), which 秘策 card `search_secret` takes
(the first that matches).
"""
from __future__ import annotations

import random
from typing import Any, Mapping, cast

from rules_engine.core.catalog import CardDataError, entries_of
from rules_engine.core import outcome
from rules_engine.core.events import EventLog
from rules_engine.core.game import TERMINAL, EngineError, IllegalActionError
from rules_engine.hagmi import beasts as beast_rules
from rules_engine.hagmi import combat, legal, zones
from rules_engine.hagmi import policies  # noqa: F401  (registers the HAGMI policies by name)
from rules_engine.hagmi import skill_effects  # noqa: F401  (binds each skill kind's handler)
from rules_engine.hagmi.actions import END, PASS, Action, Attack, Play, ProduceDesign, UseHidden, UseSkill, describe
from rules_engine.hagmi.cards import HagmiCard, cards_from_catalog
from rules_engine.hagmi.refit import produce_design, use_hidden
from rules_engine.hagmi.skills import turn_skills, use_emergency_skill, use_main_skill
from rules_engine.hagmi.state import Player, Table

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "opening_split": "2/2",  # opening hand: 兵器/作戦
    "damage_clears": "end_of_turn",  # or "never"
    "equal_cost": "appears",  # H30 step 2, or "charger"
    "charge_per_turn": 1,  # the 機獣 turn's charge phase
    "beast_deck_reshuffle": True,
    "player_loss": "empty_deck",  # H9: damage taken with the damage deck already empty loses; or "cannot_turn_up"
    "first_player": "list",  # who takes the first turn: "list", "opponent" or "random" (先攻: by the game's dice)
    "attack_on_entry": True,  # a unit may declare an attack in the turn it enters the battlefield
    "first_turn_battle": True,  # the first player has a battle phase in the game's first turn
    "first_turn_draw": True,  # the first player's draw step (兵站) in the game's first turn
    "max_turns": 60,  # a game still running after this many turns is a draw
    "emergency_skill_limit": "window",  # H10: a 緊急 skill on the battlefield once per window, or "turn"
    "direct_refit_cost": "card_cost",  # H22: a 秘策 card refitting directly pays its cost, or "free"
    "beasts_defend": "never",  # H32: no 機獣 defends; "card": one with a `defend` skill counters / intercepts
    "static_reduce_damage": "own_card",  # H13: static reduce_damage on the unit's card only, or "equipped_and_facilities"
    "mothership_attack": "hits",  # H34: the players attack the mothership, a core per hit; "cores": a core per
    # point of damage; "never": the mothership is no target
    "max_payment_options": 12,
    "max_target_options": 12,
}
CHOICES: Mapping[str, tuple[Any, ...]] = {
    "damage_clears": ("end_of_turn", "never"), "equal_cost": ("appears", "charger"),
    "player_loss": ("empty_deck", "cannot_turn_up"), "first_player": ("list", "opponent", "random"),
    "attack_on_entry": (True, False), "first_turn_battle": (True, False), "first_turn_draw": (True, False),
    "emergency_skill_limit": ("window", "turn"), "direct_refit_cost": ("card_cost", "free"),
    "beasts_defend": ("never", "card"), "static_reduce_damage": ("own_card", "equipped_and_facilities"),
    "mothership_attack": ("cores", "hits", "never"),
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
        for name, allowed in CHOICES.items():
            value = self.options[name]
            if not any(value is choice if isinstance(choice, bool) else value == choice for choice in allowed):
                shown = ", ".join(str(c).lower() if isinstance(c, bool) else c for c in allowed)
                raise ValueError(f'option "{name}": expected one of {shown}, got {value!r}')
        self.opening = self._opening_split(self.options["opening_split"])
        self.opponent = dict(opponent or {"kind": "goldfish", "damage_deck": []})
        self.sides = [self._list_side(player_list_doc, "list"), self._opponent_side(self.opponent)]
        if self.sides[1]["kind"] == "coop" and self.options["first_player"] != "list":
            raise ValueError('option "first_player": in 機獣討滅戦線 the players always take their turns first')

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

    def new_initial_state(self, rng: random.Random, first_player: int | None = None,
                          setup_rngs: list[random.Random] | tuple[random.Random, ...] | None = None) -> "HagmiState":
        """A new game: `rng` is its dice. `first_player` (0 the list, 1 the opponent) takes the first turn, else the
        option `first_player` says who; `setup_rngs[p]` shuffles player p's decks (None: `rng`)."""
        if first_player is not None:
            if first_player not in (0, 1):
                raise ValueError(f"first_player: expected 0 or 1, got {first_player!r}")
            if self.sides[1]["kind"] == "coop" and first_player != 0:
                raise ValueError("first_player: in 機獣討滅戦線 the players always take their turns first")
        return HagmiState(self, rng, first_player=first_player, setup_rngs=setup_rngs)


class HagmiState(Table):
    def __init__(self, game: HagmiGame, rng: random.Random, copy_of: HagmiState | None = None,
                 first_player: int | None = None,
                 setup_rngs: list[random.Random] | tuple[random.Random, ...] | None = None) -> None:
        """A new game of `game`, set up and played up to the first decision; or, with `copy_of`, a copy of that
        state (`clone`: compiled classes cannot be deep-copied by `copy`). `first_player` and `setup_rngs`: see
        `HagmiGame.new_initial_state`."""
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
            self._setup_side(index, side, setup_rngs[index] if setup_rngs is not None else rng)
        if first_player is not None:  # 先攻 decided by the run (its seats)
            self._start_turn(first_player)
            return
        first = self.options["first_player"]  # 先攻 (RULES.md §1.3 setup)
        self._start_turn(0 if first == "list" else 1 if first == "opponent" else self.rng.randrange(2))

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

    def _setup_side(self, index: int, side: dict[str, Any], shuffler: random.Random) -> None:
        """Player `index`'s cards, its decks shuffled with `shuffler` (that side's own set-up stream in a run)."""
        if side["kind"] == "coop":
            ship = self.game.card(side["mothership"])
            self.beasts = beast_rules.BeastSide(index=index, mothership=ship, cores=ship.cores,
                                                deck=self._new_uids(side["beast_deck"]))
            shuffler.shuffle(self.beasts.deck)
            self.players.append(Player(index=index, kind="coop"))
            return
        player = Player(index=index, kind=side["kind"])
        for zone in ("weapons", "tactics", "damage_deck", "secret"):
            setattr(player, zone, self._new_uids(side.get(zone, [])))
        for zone in ("weapons", "tactics", "damage_deck"):  # 秘策 is set aside, not shuffled
            shuffler.shuffle(getattr(player, zone))
        self.players.append(player)
        if player.kind == "deck":
            weapons, tactics = self.game.opening
            for _ in range(weapons):
                zones.draw_card(self, index, "weapons")
            for _ in range(tactics):
                zones.draw_card(self, index, "tactics")

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
        listed = self._legal if self._legal is not None else self.legal_actions()
        try:  # the one check; the legal record stands for an equal bare tuple from here on
            action = listed[listed.index(action)]
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
        """An action in words (by index: a record or the bare tuple equal to it; actions.py `describe`)."""
        return describe(self.cards, action)

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
        turn_skills(self, index, "on_turn_start")
        if not self.over:
            if self.turn > 1 or self.options["first_turn_draw"]:  # option first_turn_draw = false: 先攻 skips 兵站
                zones.logistics_draw(self, index)
            self.decision = ("main", index)

    def _end_turn(self) -> None:
        index = self.active
        if self.is_player_side(index) and self.players[index].kind == "deck":
            turn_skills(self, index, "on_turn_end")
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
        """緊急 (H10): the attacked player may use emergency cards and the 緊急 skills of their cards on the
        battlefield before the first exchange and between two."""
        assert self.combat is not None
        defender = self.opponent_of(self.combat.side)
        plays = legal.emergency_actions(self, defender) if self.decides(defender) and not self.battle_closed else None
        if plays:
            self.decision = ("emergency", defender)
            self._legal = plays + [PASS]  # the legal actions of this decision, listed once
        else:
            combat.run_exchange(self)

    # ---- legal actions -----------------------------------------------------------------------------------

    def _compute_legal(self) -> list[Action]:
        if self.over or self.decision is None:
            return []
        kind, player = self.decision
        if kind == "main":
            return legal.main_actions(self, player)
        if kind == "battle":
            return legal.attack_actions(self, player) + [END]
        if kind == "defend":
            return combat.defense_options(self)
        return legal.emergency_actions(self, player) + [PASS]

    # ---- apply -------------------------------------------------------------------------------------------

    def _apply_main(self, player: int, action: Action) -> None:
        kind = action.kind
        if kind == "battle" and self.turn == 1 and not self.options["first_turn_battle"]:
            self._end_turn()  # option first_turn_battle = false: no battle phase in the game's first turn
            return
        if kind == "battle":
            self.log("battle_phase", player, {})
            self.decision = ("battle", player)
            return
        if kind == "play":
            play = cast(Play, action)
            zones.play_card(self, player, play.card, play.payment, play.target, trigger="on_play")
        elif kind == "skill":
            skill = cast(UseSkill, action)
            use_main_skill(self, player, skill.card, skill.skill_index, skill.target)
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
        if action.kind == "skill":  # a 緊急 skill of a card on the battlefield (H10)
            skill = cast(UseSkill, action)
            use_emergency_skill(self, player, skill.card, skill.skill_index, skill.target)
        else:
            play = cast(Play, action)
            zones.play_card(self, player, play.card, play.payment, play.target, trigger="emergency")
        if self.over:
            return
        if self.combat is None:
            return
        if combat.goes_on(self, self.combat):
            self.open_window_or_exchange()
        else:
            combat.run_exchange(self)  # the remaining hits are void (H10): this finishes the fight
