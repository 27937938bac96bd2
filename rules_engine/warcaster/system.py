"""Warcaster: Neo-Mechanika's entry in the registry of game systems (rules_engine/systems.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.bounds import PlayBounds
from rules_engine.core.messages import Label
from rules_engine.system_entry import DICE, IMPERFECT, SHUFFLES, GameType, SystemEntry
from rules_engine.warcaster.construction import CYPHER, FORCE, FORCE_KINDS, RACK, RULESET
from rules_engine.warcaster.models import check_card
from rules_engine.warcaster.odds import can_be_targeted, typical_target, weapon_odds
from rules_engine.warcaster.presentation import PRESENTATION


def default_section(card: Mapping[str, Any]) -> str:
    """Cyphers go in the rack, models and units in the force."""
    return RACK if card.get("kind") == "cypher" else FORCE


def section_takes(section: str, card: Mapping[str, Any]) -> bool:
    """The force holds heroes, units and attachments, the rack cyphers (cortexes and warjack weapons are a
    warjack's options, in no section)."""
    return card.get("kind") in (FORCE_KINDS if section == FORCE else {CYPHER} if section == RACK else ())


SYSTEM = SystemEntry(
    slug="warcaster",
    name=RULESET.name.en,
    name_ja=RULESET.name.ja,
    ruleset=RULESET,
    section_labels={"force": Label("Force", "フォース"), "rack": Label("Cypher rack", "サイファーラック")},
    cost_fields=("cst", "cost"),
    _default_section=default_section,
    _section_takes=section_takes,
    # Two forces; dice (W11's action and power dice) and the shuffled cypher deck, whose hand and order are unseen.
    # W16: 3 pulse rounds of 5 turns a player.
    game_type=GameType(
        players=2, chance=frozenset({DICE, SHUFFLES}), information=IMPERFECT,
        max_length={"rounds": 3, "turns_per_round": 5},
        capabilities=frozenset({"positions", "weapon_odds", "replay_table", "roster_formats", "list_opponents",
                                "placement_rules", "card_check"}),
        hidden=("hand", "deck"),
    ),
    list_opponent_kind="force",
    unit_sections=("force",),
    use_tally=("cyphers_played", ("rack",)),
    simulator_module="rules_engine.warcaster.simulation",
    weapon_odds=weapon_odds,  # W11's exact odds on the card pages
    typical_target=typical_target,
    can_be_targeted=can_be_targeted,
    check_card=check_card,  # stats, weapons and their qualities, abilities, cypher effects as the engine reads them
    bounds=PlayBounds(
        # W16: 3 pulse rounds of 5 turns a player
        length_options={"rounds": (3, 10), "turns_per_round": (5, 10)},
        # W1-W3: at most 3 heroes and 15 other units (`full`), a rack of 12-15 cyphers, 3 void gates
        zones={"units": 40, "gates": 10, "hand": 30, "deck": 30, "discard": 30},
        side_items=400, position_items=1_000,
        game_seconds=0.004, typical_items=90, typical_list_size=20,
        policy_factors={"greedy": 1.0, "random": 0.7, "search": 90.0},
    ),
    roster_formats=("battlescribe",),  # rosters against the community's BattleScribe data
    table_module="rules_engine.warcaster.table",
    data_formats={"battlescribe": "rules_engine.warcaster.battlescribe"},  # its BattleScribe part
    presentation=PRESENTATION,
    position_module="rules_engine.warcaster.position",
)
