"""Toy Duel's entry in the registry of game systems (rules_engine/systems.py): the whole of what the site knows of
it. Its type declares two players, dice and shuffles, hidden hands and decks, three rounds; its capabilities are the
hooks it provides (another list as an opponent, the engine's reader of a card) and nothing else: no positions, odds
or rosters, so the site offers none of them for it."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules_engine.bounds import PlayBounds
from rules_engine.core.messages import Label
from rules_engine.system_entry import DICE, IMPERFECT, SHUFFLES, GameType, SystemEntry
from tests.toygame.construction import DECK, RULESET
from tests.toygame.game import read_card
from tests.toygame.presentation import PRESENTATION

HERE = Path(__file__).resolve().parent


def default_section(card: Mapping[str, Any]) -> str:
    return DECK


SYSTEM = SystemEntry(
    slug="toyduel",
    name=RULESET.name.en,
    name_ja=RULESET.name.ja,
    ruleset=RULESET,
    section_labels={DECK: Label("Deck", "デッキ")},
    cost_fields=("cost",),
    _default_section=default_section,
    game_type=GameType(
        players=2, chance=frozenset({DICE, SHUFFLES}), information=IMPERFECT, max_length={"rounds": 3},
        capabilities=frozenset({"list_opponents", "card_check"}), hidden=("hand", "deck"),
    ),
    list_opponent_kind="deck",
    use_tally=("cards_played", (DECK,)),
    simulator_module="tests.toygame.simulation",
    check_card=read_card,
    bounds=PlayBounds(
        length_options={"rounds": (3, 10)},
        zones={"hand": 10, "deck": 60},
        side_items=120, position_items=300,
        game_seconds=0.0002, typical_items=20, typical_list_size=6,
        policy_factors={"greedy": 1.0, "random": 1.0},
    ),
    presentation=PRESENTATION,
    package_schema=str(HERE / "toyduel.schema.json"),
    bundled_dir=str(HERE / "packages" / "toyduel"),
)
