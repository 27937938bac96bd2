"""One game's entry in the registry of game systems (rules_engine/systems.py collects them): what the site needs
to know about a game. Each game declares its own in `rules_engine/<game>/system.py`; this module is apart from the
registry so that a game's system.py and the registry, which imports it, do not import each other."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules_engine.bounds import PlayBounds
from rules_engine.core.construction import RuleSet
from rules_engine.core.messages import Label


@dataclass(frozen=True)
class Presentation:
    """What a game shows on the site, as plain data: capability flags, field names, keys of words that builder/web
    turns into sentences in the reader's language, and the names of the game's own templates (kept in
    `templates/games/<game>/`). Each game declares its own in `rules_engine/<game>/presentation.py`; builder/ and
    templates read these instead of comparing a system's slug (tests/test_game_boundaries.py)."""

    # The card field that says what a card is: "category" (HAGMI's 兵器/作戦/…) or "kind" (a unit's kind).
    category_field: str = "kind"
    # Card data fields beyond category and faction that the catalogue filters by (HAGMI's frame).
    filter_fields: tuple[str, ...] = ()
    # Opponent kinds that play beside the player against the game (HAGMI's co-op against 機獣): the replay names
    # the sides "you" and "your ally" instead of "you" and "the opponent".
    coop_opponent_kinds: tuple[str, ...] = ()
    # The editor's cost chart: "curve" (how many cards of each cost in `curve_sections`) or "per_unit" (each unit's
    # cost times its number); `cost_chart_title` is the key of its title: "cost_curve", "points", "deployment_cost".
    cost_chart: str = "per_unit"
    curve_sections: tuple[str, ...] = ()
    cost_chart_title: str = "points"
    # The key of the goldfish's name: "never_plays" (an opponent who never plays a card) or "stationary" (targets).
    goldfish: str = "stationary"
    # How a replay or a position shows the state: "cards" (each side's frames and cards, HAGMI) or "table" (a drawing
    # of the table with its pieces, rules_engine/replay.py).
    board: str = "table"
    # Where the replay report reads the names of the pieces on the table: "deploy" (the deploy events, MWDA's units)
    # or "setup" (the setup event's units and their models, Warcaster); "" for none (HAGMI names cards).
    pieces_from: str = ""
    # Runs and groups of events the replay report says as one sentence (builder/web/gamereport.py `_merged`):
    # "draw_runs" (HAGMI's draws from one deck, damage cards dealt to a player), "recall_runs" (a Warcaster player's
    # recalls), "hit_with_damage" (an MWDA hit, its damage and the kill), "damage_destroys_unit" (HAGMI: damage that
    # destroys a unit), "damage_destroys_model" (Warcaster: damage of a weapon, cypher or strafe that destroys a model).
    report_merges: tuple[str, ...] = ()
    # What a position's page says beside the table for each side (builder/web/positionboard.py): "victory_points"
    # (and the arc pool), "cyphers_in_hand", "rack_and_discard" (Warcaster), "points_destroyed" (MWDA).
    side_notes: tuple[str, ...] = ()
    # Whether a turn gives a number of orders (MWDA): a position in the orders phase says how many are left.
    orders_per_turn: bool = False
    # Actions whose words depend on the position or the result (Warcaster's "ability": its name in the result;
    # "end": what it closes, by the phase): builder/web/positionboard.py `action_words` says them.
    positional_actions: tuple[str, ...] = ()
    # Card field values that count: field -> prefix, "<prefix><n>" reads "up to n" (HAGMI's targets "multi-3").
    counted_values: Mapping[str, str] = field(default_factory=dict)
    # Whether the game's turns are grouped in rounds (a replay's heading says "Round 2 · Turn 3").
    has_rounds: bool = True
    # The card editor: text fields it offers as a select of the words the site knows for them (the game's vocabulary,
    # and for "faction" the factions its packages declare), values it offers besides those (`field_values`), and
    # fields drawn by a widget of their own (`field_widgets`: field -> widget, "firepower": HAGMI's "2 × 2";
    # "known_words": a list of words, the known ones as checkboxes and a box for any other, HAGMI's types).
    worded_fields: tuple[str, ...] = ()
    field_values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    field_widgets: Mapping[str, str] = field(default_factory=dict)
    # The words for the values of the game's card fields and policies (its rules_engine/<game>/vocabulary.py):
    # field -> value -> word, translated when shown (rules_engine/core/words.py); builder/web/vocabulary.py reads them.
    words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # The card editor: the vocabulary table that says the values of a field (`value_words`: field -> table of `words`;
    # the card's own kind excepted, a nested "kind" is a skill's or an effect's).
    value_words: Mapping[str, str] = field(default_factory=dict)
    # The list editor: a section the picker offers a second "add" button for, beside each card's own section (HAGMI's
    # secret section, H5: any card of the main deck may be kept there instead), and whether an entry offers its
    # loadout (Warcaster W5: a warjack's cortex and weapons, a hero's, solo's or vehicle's weapon choice).
    picker_also_adds_to: str = ""
    entry_loadouts: bool = False
    # The game's own templates: a card's page and the body of a card as the catalogue and the editor draw it.
    card_template: str = ""
    card_body_template: str = ""


@dataclass(frozen=True)
class SystemEntry:
    """Everything the site needs to know about one game, and nothing of its internals."""

    slug: str
    name: str  # in English (and the game's own name)
    name_ja: str
    ruleset: RuleSet  # construction rules: sections, rule IDs, validate()
    section_labels: Mapping[str, Label]  # short section names for lists and pages (兵器 / Weapons)
    cost_fields: tuple[str, ...]  # the card field the cost chart counts, first present wins
    _default_section: Callable[[Mapping[str, Any]], str]
    opponent_categories: Mapping[str, Label] = field(default_factory=dict)  # card categories no list may hold
    odds: Callable[..., Any] | None = None  # exact draw odds of a list (HAGMI), see rules_engine/hagmi/odds.py
    odds_error: type[Exception] | None = None
    sample_hand: Callable[..., Any] | None = None  # an opening hand dealt from a seed (HAGMI), hagmi/odds.py
    # exact odds of a card's weapon against a target card (Warcaster W11), warcaster/odds.py: weapon_odds(attacker,
    # weapon, target), typical_target(cards) -> a code, can_be_targeted(card)
    weapon_odds: Callable[..., Any] | None = None
    typical_target: Callable[..., Any] | None = None
    can_be_targeted: Callable[..., Any] | None = None
    simulator_module: str = ""
    # The module that draws the game's table for a replay or a position (rules_engine/replay.py): board_events(state,
    # add), table_of(setup), ability_names(state). "" for a card game (HAGMI: its board is read from the state).
    table_module: str = ""
    # The opponent kind of "another list, played by a policy" (HAGMI deck, MWDA army, Warcaster force): a gauntlet's
    # opponent made from any list is {"kind": this, "list": the hangar.list/1 document}.
    list_opponent_kind: str = ""
    # The engine's own reader of one card: raises CardDataError (rules_engine.core.catalog) when the engine could
    # not play it. The package importer runs it on every card, so a skill, effect or weapon is defined once.
    check_card: Callable[[Mapping[str, Any]], Any] | None = None
    # Sections whose entries are units on the table (counted 体 / "units"), not cards: the list doctor's wording.
    unit_sections: tuple[str, ...] = ()
    # The per-card tally of a simulation's summary that tells how much each card (unit) of the list was used, and the
    # sections it covers: the list doctor names the cards used (almost) never as the first candidates to cut.
    use_tally: tuple[str, tuple[str, ...]] = ("", ())
    # The real maxima of the game's formats (a game's length, a zone, a side, a position) and the measured cost of
    # its games by policy (rules_engine/bounds.py): positions past them are refused, every entry that plays games
    # estimates its work from them (builder/services/budget.py).
    bounds: PlayBounds | None = None
    # Which cards a section of a list may hold by the game's placement rules (HAGMI H3/H7, Warcaster's force and
    # rack): the text importer's "did you mean" offers only those. None: any card of the game.
    _section_takes: Callable[[str, Mapping[str, Any]], bool] | None = None
    # The list formats of other tools the game's lists are written in besides Hangar's own: "battlescribe" (a
    # BattleScribe roster against the game's BattleScribe data, Warcaster), builder/listio/roster.py.
    roster_formats: tuple[str, ...] = ()
    # The game's part of each data format it is read or written in (rules_engine/formats/__init__.py): format name ->
    # the module that says what the game makes of it, imported on first use ("battlescribe": how its cards look in
    # the BattleScribe data Hangar exports; Warcaster's also reads the community's data).
    data_formats: Mapping[str, str] = field(default_factory=dict)
    # What the game shows (its rules_engine/<game>/presentation.py): flags, field names, keys of words, templates.
    presentation: Presentation = field(default_factory=Presentation)

    @property
    def section_keys(self) -> tuple[str, ...]:
        return self.ruleset.section_keys

    def default_section(self, card: Mapping[str, Any]) -> str:
        """The section the editor's "add" puts `card` in."""
        return self._default_section(card)

    def section_takes(self, section: str, card: Mapping[str, Any]) -> bool:
        """True when `section` of a list may hold `card` by the game's placement rules (never an opponent's card)."""
        if card.get("category") in self.opponent_categories:
            return False
        return self._section_takes(section, card) if self._section_takes is not None else True

    def card_cost(self, card: Mapping[str, Any]) -> int | None:
        for name in self.cost_fields:
            value = card.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        return None

    def simulator(self) -> Any:
        """This game's Simulator (registered by its simulation module, imported here on first use)."""
        from rules_engine.simulation import simulator_for

        return simulator_for(self.slug)

    def list_opponent(self, document: Mapping[str, Any], *, slug: str, name: str = "", name_en: str = "") -> dict:
        """A list as an opponent played by a policy, in the shape of the package's sample opponents."""
        if not self.list_opponent_kind:
            raise ValueError(f"{self.name}: a list cannot be played as an opponent")
        return {"slug": slug, "name": name or slug, "name_en": name_en or name or slug,
                "kind": self.list_opponent_kind, "list": dict(document)}

    def writes_rosters(self, format_name: str) -> bool:
        return format_name in self.roster_formats

    def names(self) -> dict[str, str]:
        return {"en": self.name, "ja": self.name_ja}
