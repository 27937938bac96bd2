"""One game's entry in the registry of game systems (rules_engine/systems.py collects them): what the site needs
to know about a game. Each game declares its own in `rules_engine/<game>/system.py`; this module is apart from the
registry so that a game's system.py and the registry, which imports it, do not import each other.

The entry is a typed interface, as OpenSpiel's Python games declare `_GAME_TYPE`:

- `GameType`: the game's declared facts (players, chance, information, maximum length, capabilities);
- `GameHooks`: what every game provides (a `typing.Protocol`, runtime-checkable); `OptionalHooks`: what a game
  may provide, each behind a capability of `CAPABILITIES`;
- `entry_problems(entry)`: what is wrong with an entry, checked by the registry before it takes a game: a declared
  capability without its hooks, hooks without their capability, a maximum length its bounds do not say.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rules_engine.bounds import PlayBounds
from rules_engine.core.construction import RuleSet
from rules_engine.core.gamewords import CardWords, PositionWords, ReportWords
from rules_engine.core.messages import Label


@dataclass(frozen=True)
class Presentation:
    """What a game shows on the site: capability flags, field names, keys of words that builder/web turns into
    sentences in the reader's language, the game's own words (its replay's sentences, a position's words, a card's
    text: tables of functions, rules_engine/core/gamewords.py) and the names of the game's own templates (kept in
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
    # What the game says (rules_engine/core/gamewords.py; each in the game's own module, words through
    # rules_engine/core/words.py): the sentences of a replay (its report.py), the words of a position (its
    # positionwords.py), a card's text (its cardtext.py). None: builder/web's general words (an event, an action by
    # its kind, a card by its fields).
    report: ReportWords | None = None
    position_words: PositionWords | None = None
    card_text: CardWords | None = None
    # The card editor: the vocabulary table that says the values of a field (`value_words`: field -> table of `words`;
    # the card's own kind excepted, a nested "kind" is a skill's or an effect's).
    value_words: Mapping[str, str] = field(default_factory=dict)
    # The list editor: a section the picker offers a second "add" button for, beside each card's own section (HAGMI's
    # secret section, H5: any card of the main deck may be kept there instead), and whether an entry offers its
    # loadout (Warcaster W5: a warjack's cortex and weapons, a hero's, solo's or vehicle's weapon choice).
    picker_also_adds_to: str = ""
    entry_loadouts: bool = False
    # The game's own templates: a card's page and the body of a card as the catalogue and the editor draw it
    # (`templates/games/<game>/`); a game that names none is drawn by the generic ones (its facts and text in words).
    card_template: str = "catalog/card.html"
    card_body_template: str = "catalog/_card_body.html"


# --- the game type ----------------------------------------------------------------------------------------------

PERFECT, IMPERFECT = "perfect", "imperfect"  # information: whether a player sees all of the game's state
INFORMATION = (PERFECT, IMPERFECT)
DICE, SHUFFLES = "dice", "shuffles"  # chance: what the game draws at random (rules_engine/core/rng.py streams)
CHANCE = (DICE, SHUFFLES)

# capability -> the entry's fields that provide it (each must be set, not empty, when the capability is declared,
# and none may be set when it is not). The site offers a game's pages and endpoints by its capabilities.
CAPABILITIES: Mapping[str, tuple[str, ...]] = {
    "positions": ("position_module",),  # hangar.position/1: dump and load a state (rules_engine/positions.py)
    "draw_odds": ("odds", "odds_error"),  # exact draw odds of a list (POST /api/odds/)
    "sample_hands": ("sample_hand",),  # an opening hand dealt from a seed
    "weapon_odds": ("weapon_odds", "typical_target", "can_be_targeted"),  # the exact odds of one attack
    "replay_table": ("table_module",),  # a replay or a position draws the game's table
    "roster_formats": ("roster_formats",),  # lists written in other tools' formats (BattleScribe rosters)
    "list_opponents": ("list_opponent_kind",),  # another list played by a policy (a gauntlet's opponent)
    "placement_rules": ("_section_takes",),  # which section of a list may hold a card (the importer's suggestions)
    "card_check": ("check_card",),  # the engine's own reader of a card, run on every imported card
}


@dataclass(frozen=True)
class GameType:
    """A game's declared facts, as OpenSpiel's `_GAME_TYPE`: checked against what its entry provides
    (`entry_problems`), shown by the API's systems endpoint and the catalogue."""

    players: int  # seats at the table: the list is player 0, its opponent (a list, a sample side, 機獣) player 1
    chance: frozenset[str]  # of CHANCE: "dice", "shuffles" (empty: a deterministic game)
    information: str  # PERFECT (every player sees the whole state) or IMPERFECT (hands, decks unseen)
    # The options that end a game that has not ended by itself, with their defaults: "max_turns": 60 (HAGMI),
    # "max_rounds": 10 (MWDA), "rounds": 3 and "turns_per_round": 5 (Warcaster). They are the entry's
    # `bounds.length_options` and the engine's DEFAULT_OPTIONS (tests/rules_engine/test_registry.py).
    max_length: Mapping[str, int]
    capabilities: frozenset[str]  # of CAPABILITIES
    # Whether the game has a mode in which the list plays beside its allies against the game's own side (HAGMI's
    # 機獣討滅戦線): the other seat is then a scripted procedure, not a player (its presentation's
    # `coop_opponent_kinds`).
    cooperative: bool = False
    hidden: tuple[str, ...] = ()  # what a player does not see of the other's side: "hand", "deck", "secret"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, sorted: the API's systems endpoint (docs/api.md)."""
        return {"players": self.players, "chance": sorted(self.chance), "information": self.information,
                "max_length": dict(self.max_length), "capabilities": sorted(self.capabilities),
                "cooperative": self.cooperative, "hidden": list(self.hidden)}


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
    game_type: GameType  # what the game declares (players, chance, information, length, capabilities)
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
    # The module that writes a state as a hangar.position/1 and builds one back (`dump`, `load`; docs/positions.md).
    position_module: str = ""
    # Where the game's data lives when it is not the site's own folders: the JSON Schema of its packages ("" =
    # cards/schemas/<slug>.schema.json) and the folder of its bundled packages and `lists/` of sample lists ("" =
    # cards/packages/<slug>/). A game outside rules_engine/ (HANGAR_GAME_PACKAGES) brings both in its package.
    package_schema: str = ""
    bundled_dir: str = ""

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


# --- the hooks as typed interfaces ----------------------------------------------------------------------------


@runtime_checkable
class GameHooks(Protocol):
    """What every game's entry provides (`SystemEntry` does): its names, its construction rules and sections, where
    the editor puts a card and what it costs, its simulator, its bounds and what it shows. The registry refuses an
    entry that is not one (rules_engine/systems.py `register`)."""

    slug: str
    name: str
    name_ja: str
    game_type: GameType
    ruleset: RuleSet
    section_labels: Mapping[str, Label]
    cost_fields: tuple[str, ...]
    simulator_module: str
    bounds: PlayBounds | None
    presentation: Presentation

    @property
    def section_keys(self) -> tuple[str, ...]: ...

    def default_section(self, card: Mapping[str, Any]) -> str: ...

    def section_takes(self, section: str, card: Mapping[str, Any]) -> bool: ...

    def card_cost(self, card: Mapping[str, Any]) -> int | None: ...

    def simulator(self) -> Any: ...

    def names(self) -> dict[str, str]: ...


@runtime_checkable
class OptionalHooks(Protocol):
    """What a game may provide, each behind a capability of `CAPABILITIES` (None, "" or () when it does not): the
    site asks the game type's `capabilities`, never whether a hook happens to be set."""

    odds: Callable[..., Any] | None
    odds_error: type[Exception] | None
    sample_hand: Callable[..., Any] | None
    weapon_odds: Callable[..., Any] | None
    typical_target: Callable[..., Any] | None
    can_be_targeted: Callable[..., Any] | None
    position_module: str
    table_module: str
    list_opponent_kind: str
    check_card: Callable[[Mapping[str, Any]], Any] | None
    roster_formats: tuple[str, ...]
    opponent_categories: Mapping[str, Label]
    unit_sections: tuple[str, ...]
    use_tally: tuple[str, tuple[str, ...]]
    package_schema: str
    bundled_dir: str

    def list_opponent(self, document: Mapping[str, Any], *, slug: str, name: str = "", name_en: str = "") -> dict:
        ...

    def writes_rosters(self, format_name: str) -> bool: ...


# The names GameHooks asks for, to name the missing ones.
REQUIRED_HOOKS = ("slug", "name", "name_ja", "game_type", "ruleset", "section_labels", "cost_fields", "simulator_module",
                  "bounds", "presentation", "section_keys", "default_section", "section_takes", "card_cost",
                  "simulator", "names")
SLUG = re.compile(r"[a-z][a-z0-9_]{0,31}")  # a game's slug: a URL part and cards.GameSystem.slug (32 characters)


def _provided(entry: Any, name: str) -> bool:
    value = getattr(entry, name, None)
    return value is not None and value != "" and value != ()


def entry_problems(entry: Any) -> list[str]:
    """What is wrong with a registry entry, in words ([] for a good one): not a `GameHooks`, a bad slug, a rule set
    of another game, a game type of unknown words, a capability declared without its hooks or hooks without their
    capability, no bounds, a maximum length that is not its bounds' length options."""
    if not isinstance(entry, GameHooks):
        missing = [name for name in REQUIRED_HOOKS if not hasattr(entry, name)]
        return [f"{type(entry).__name__} is not a game's entry (GameHooks): it has no {', '.join(missing)}"]
    name = f"game {entry.slug!r}"
    problems = []
    if not isinstance(entry.slug, str) or not SLUG.fullmatch(entry.slug):
        problems.append(f"{name}: a slug is a lower-case letter, then up to 31 lower-case letters, digits or _")
    if entry.ruleset.system != entry.slug:
        problems.append(f"{name}: its rule set is of {entry.ruleset.system!r}")
    kind = entry.game_type
    if not isinstance(kind, GameType):
        return problems + [f"{name}: game_type must be a GameType"]
    if not isinstance(kind.players, int) or kind.players < 1:
        problems.append(f"{name}: players must be a whole number of at least 1")
    if not set(kind.chance) <= set(CHANCE):
        problems.append(f"{name}: chance is of {', '.join(CHANCE)}, not {', '.join(sorted(set(kind.chance) - set(CHANCE)))}")
    if kind.information not in INFORMATION:
        problems.append(f"{name}: information is {' or '.join(INFORMATION)}, not {kind.information!r}")
    if (kind.information == IMPERFECT) != bool(kind.hidden):
        problems.append(f"{name}: imperfect information says what is hidden (hidden), perfect hides nothing")
    unknown = set(kind.capabilities) - set(CAPABILITIES)
    if unknown:
        problems.append(f"{name}: unknown capabilities {', '.join(sorted(unknown))}; known: {', '.join(CAPABILITIES)}")
    for capability, hooks in CAPABILITIES.items():
        have = [hook for hook in hooks if _provided(entry, hook)]
        if capability in kind.capabilities and len(have) < len(hooks):
            missing = [hook.lstrip("_") for hook in hooks if hook not in have]
            problems.append(f"{name}: declares {capability!r} without {', '.join(missing)}")
        elif capability not in kind.capabilities and have:
            problems.append(f"{name}: provides {', '.join(h.lstrip('_') for h in have)} but does not declare "
                            f"{capability!r} in its game type")
    if kind.cooperative != bool(entry.presentation.coop_opponent_kinds):
        problems.append(f"{name}: a cooperative game names its co-op opponent kinds (presentation), no other does")
    if entry.bounds is None:
        problems.append(f"{name}: no bounds (rules_engine/bounds.py PlayBounds): every game's work is estimated")
    else:
        lengths = {option: default for option, (default, _most) in entry.bounds.length_options.items()}
        if dict(kind.max_length) != lengths:
            problems.append(f"{name}: max_length {dict(kind.max_length)} is not its bounds' length options {lengths}")
    if not entry.simulator_module:
        problems.append(f"{name}: no simulator_module")
    return problems
