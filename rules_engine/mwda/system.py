"""MechWarrior: Dark Age's entry in the registry of game systems (rules_engine/systems.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.bounds import PlayBounds
from rules_engine.core.messages import Label
from rules_engine.mwda.construction import ARMY, RULESET
from rules_engine.mwda.presentation import PRESENTATION
from rules_engine.mwda.units import unit_spec
from rules_engine.system_entry import DICE, PERFECT, GameType, SystemEntry


def default_section(card: Mapping[str, Any]) -> str:
    return ARMY


SYSTEM = SystemEntry(
    slug="mwda",
    name=RULESET.name.en,
    name_ja=RULESET.name.ja,
    ruleset=RULESET,
    section_labels={"army": Label("Army", "軍団")},
    cost_fields=("points",),
    _default_section=default_section,
    # Two armies on one table, every unit and its dial in sight: perfect information; chance is the dice (M15's
    # 3D6, breakaway rolls). A battle ends after 10 rounds (M-rules §2.3).
    game_type=GameType(
        players=2, chance=frozenset({DICE}), information=PERFECT, max_length={"max_rounds": 10},
        capabilities=frozenset({"positions", "replay_table", "list_opponents", "card_check"}),
    ),
    list_opponent_kind="army",
    unit_sections=("army",),
    use_tally=("unit_damage", ("army",)),  # damage each unit dealt: a unit that never reaches or hits deals none
    simulator_module="rules_engine.mwda.simulation",
    check_card=unit_spec,  # its dial, weapons and abilities as the engine reads them
    bounds=PlayBounds(
        length_options={"max_rounds": (10, 100)},  # M-rules §2.3: 10 rounds; the engine's own check allows 100
        # a 300-point army (M1) of units of 10 points and more: 30 units; 60 is past any format
        zones={"units": 60, "eliminated": 60},
        side_items=300, position_items=1_000,
        game_seconds=0.0015, typical_items=28, typical_list_size=10,
        policy_factors={"greedy": 1.0, "random": 1.9, "defensive": 1.0, "search": 60.0},
    ),
    table_module="rules_engine.mwda.table",
    data_formats={"battlescribe": "rules_engine.mwda.battlescribe"},  # its BattleScribe part
    presentation=PRESENTATION,
    position_module="rules_engine.mwda.position",
)
