"""HAGMI!'s entry in the registry of game systems (rules_engine/systems.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.bounds import PlayBounds
from rules_engine.core.messages import Label
from rules_engine.hagmi.cards import parse_card
from rules_engine.hagmi.construction import OPPONENT_CATEGORIES, RULESET, SECRET, home_section
from rules_engine.hagmi.odds import OddsError, draw_odds, sample_hand
from rules_engine.hagmi.presentation import PRESENTATION
from rules_engine.system_entry import DICE, IMPERFECT, SHUFFLES, GameType, SystemEntry


def default_section(card: Mapping[str, Any]) -> str:
    """Its home deck (H3), 秘策 for a 秘策-only card (H7)."""
    return home_section(card) or SECRET


def section_takes(section: str, card: Mapping[str, Any]) -> bool:
    """H3: a deck holds the cards its frame gives; H7: 秘策 holds any player card, a 秘策-only card nowhere else."""
    return section == SECRET or home_section(card) == section


SYSTEM = SystemEntry(
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
    _section_takes=section_takes,
    # Two seats: a deck against another deck, or (機獣討滅戦線, H30-H34) against the 機獣 side's scripted procedure.
    # Dice (兵站's 2 dice, the first player's roll) and shuffles (each deck); a hand, the decks and 秘策 (H20) unseen.
    game_type=GameType(
        players=2, chance=frozenset({DICE, SHUFFLES}), information=IMPERFECT, max_length={"max_turns": 60},
        capabilities=frozenset({"positions", "draw_odds", "sample_hands", "list_opponents", "placement_rules",
                                "card_check"}),
        cooperative=True, hidden=("hand", "deck", "secret"),
    ),
    opponent_categories=OPPONENT_CATEGORIES,
    odds=draw_odds,
    odds_error=OddsError,
    sample_hand=sample_hand,
    list_opponent_kind="deck",
    use_tally=("cards_played", ("weapons", "tactics")),  # played from hand; the damage deck is turned up, not played
    simulator_module="rules_engine.hagmi.simulation",
    check_card=parse_card,  # its skills by the engine's own vocabulary (hagmi/skills.py validate_skill)
    bounds=PlayBounds(
        # a game is over long before 60 turns (docs/engine-hagmi.md); 200 is past any real game
        length_options={"max_turns": (60, 200)},
        # a deck (H1-H5): ≥ 20 兵器 + ≥ 20 作戦 at 2 copies a name, the damage deck, ⌊main / 20⌋ 秘策; the 機獣
        # side's deck and chargers. No hand limit (the end phase), but an opening hand of 4 and a draw or two a turn:
        # 30 is 7 opening hands (a hand of 60 of one unit makes a game 12 times dearer than one of 30: its payments)
        zones={"hand": 30, "secret": 20, "weapons": 120, "tactics": 120, "damage_deck": 60, "units": 40,
               "facilities": 40, "loose_armaments": 60, "discard": 240, "removed": 240, "used": 100, "deck": 120,
               "chargers": 120, "beasts": 40},
        side_items=600, position_items=1_500,
        game_seconds=0.002, typical_items=57, typical_list_size=50,
        policy_factors={"greedy": 1.0, "random": 0.8, "search": 110.0},
    ),
    data_formats={"battlescribe": "rules_engine.hagmi.battlescribe"},  # its BattleScribe part
    presentation=PRESENTATION,
    position_module="rules_engine.hagmi.position",
)
