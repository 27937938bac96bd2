"""Shared scenario builders for the HAGMI! engine tests (bundled package + a few test-only cards)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules_engine.core.catalog import Catalog
from rules_engine.hagmi.game import HagmiGame, HagmiState
from rules_engine.hagmi.state import Unit

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
LISTS = {path.stem: json.loads(path.read_text(encoding="utf-8"))
         for path in sorted((ROOT / "cards/packages/hagmi/lists").glob("*.json"))}
OPPONENTS = {opp["slug"]: opp for opp in PACKAGE["opponents"]}

# Test-only cards (original): plain units whose numbers make each rule visible.
TEST_CARDS = [
    {"code": "T-U1", "name": "試験機1", "category": "unit", "frame": "black", "cost": 1, "pilot": "甲",
     "types": ["強襲"], "firepower": "1", "armor": 3, "range": 1, "fuel_cost": 0, "targets": "single"},
    {"code": "T-BIG", "name": "試験機大", "category": "unit", "frame": "black", "cost": 3, "pilot": "乙",
     "types": ["重装"], "firepower": "5", "armor": 10, "range": 1, "fuel_cost": 0, "targets": "single"},
    {"code": "T-BOOM", "name": "試験機爆", "category": "unit", "frame": "black", "cost": 2, "pilot": "丙",
     "types": ["支援"], "firepower": "1", "armor": 2, "range": 1, "fuel_cost": 0, "targets": "single",
     "skills": [{"kind": "deal_damage", "trigger": "on_destroyed", "amount": 1, "target": "opponent"}]},
    {"code": "T-FLY", "name": "試験翼", "category": "armament", "frame": "black", "cost": 0, "durability": 1,
     "equip": {"types": ["飛行"]}},
    {"code": "T-DES", "name": "試験設計", "category": "design", "frame": "silver", "cost": 2, "pilot": "丁",
     "types": ["強襲"], "firepower": "2", "armor": 2, "range": 1, "fuel_cost": 0, "targets": "single",
     "skills": [{"kind": "draw", "trigger": "hidden_mechanism", "count": 1, "deck": "weapons"}]},
]
CATALOG = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS, PACKAGE["formats"])
EMPTY_LIST = {"schema": "hangar.list/1", "system": "hagmi", "sections": {}}


def duel(options: dict | None = None, *, p0: dict | None = None, p1: dict | None = None) -> HagmiState:
    """Two players with empty decks (unless `p0` / `p1` give sections), player 0 in its main phase."""
    list0 = {"sections": p0 or {}}
    opponent = {"kind": "deck", "list": {"sections": p1 or {}}}
    return HagmiGame(list0, CATALOG, opponent, options).new_initial_state(random.Random(0))


def cards(state: HagmiState, *codes: str) -> list[int]:
    return [state.create_card(code) for code in codes]


def unit(state: HagmiState, player: int, code: str, fuel: int | None = None) -> Unit:
    """Put a unit on the battlefield directly, with `fuel` filler cards (default: its cost)."""
    uid = state.create_card(code)
    count = state.card(uid).cost if fuel is None else fuel
    placed = Unit(uid=uid, owner=player, presence=1000 + uid, fuel=cards(state, *["T-U1"] * count))
    state.players[player].units.append(placed)
    return placed


def hand(state: HagmiState, player: int, *codes: str) -> list[int]:
    uids = cards(state, *codes)
    state.players[player].hand.extend(uids)
    return uids


def damage_deck(state: HagmiState, player: int, *codes: str) -> list[int]:
    uids = cards(state, *codes)
    state.players[player].damage_deck[:0] = uids  # first given = bottom
    return uids


def to_battle(state: HagmiState) -> None:
    state._legal = None
    state.apply(("battle",))


def act(state: HagmiState, action: Any) -> None:
    state._legal = None  # the scenario may have changed the state directly
    assert action in state.legal_actions(), (action, state.legal_actions())
    state.apply(action)


def kinds(state: HagmiState, kind: str) -> list[dict]:
    return [dict(e.data) for e in state.events if e.kind == kind]


def check_invariants(state: HagmiState, total_cards: int) -> None:
    """Every card in exactly one zone; fuel ≤ cost except designs (H23) and refitted units (H22: the refit card
    takes over all the source's fuel, even above its own cost); armor never negative."""
    places = state.card_locations()
    assert len(places) == total_cards, (len(places), total_cards)
    doubled = {uid: where for uid, where in places.items() if len(where) != 1}
    assert not doubled, doubled
    for u in state.all_units():
        card = state.card(u.uid)
        if card.category != "design" and not u.stored:
            assert len(u.fuel) <= card.cost, (card.code, len(u.fuel))
        assert state.armor(u) >= 0 and state.armor_left(u) >= 0
