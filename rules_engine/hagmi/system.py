"""HAGMI!'s entry in the registry of game systems (rules_engine/systems.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.messages import Label
from rules_engine.hagmi.cards import parse_card
from rules_engine.hagmi.construction import OPPONENT_CATEGORIES, RULESET, SECRET, home_section
from rules_engine.hagmi.odds import OddsError, draw_odds, sample_hand
from rules_engine.systems import GameSystem


def default_section(card: Mapping[str, Any]) -> str:
    """Its home deck (H3), 秘策 for a 秘策-only card (H7)."""
    return home_section(card) or SECRET


SYSTEM = GameSystem(
    slug="hagmi",
    name=RULESET.name.en,
    name_ja=RULESET.name.ja,
    ruleset=RULESET,
    section_labels={  # 兵器 / 作戦 / ダメージ / 秘策
        "weapons": Label("Weapons", "兵器"), "tactics": Label("Tactics", "作戦"),
        "damage": Label("Damage", "ダメージ"), "secret": Label("Secret", "秘策"),
    },
    cost_fields=("cost",),
    _default_section=default_section,
    opponent_categories=OPPONENT_CATEGORIES,
    odds=draw_odds,
    odds_error=OddsError,
    sample_hand=sample_hand,
    list_opponent_kind="deck",
    simulator_module="rules_engine.hagmi.simulation",
    check_card=parse_card,  # its skills by the engine's own vocabulary (hagmi/skills.py validate_skill)
)
