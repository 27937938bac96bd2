"""M2 and the Mobile HQ (移動司令部): its order bonus after it is eliminated, option `mobile_hq_bonus` (docs/rules.md
§2, an [interpretation]: seed 002 fixes the order count for the game — 戦闘が進んで、どれだけユニットが撃ち減らされても、
命令回数は変化しません — and names the Mobile HQ as a unit that raises it, but does not say whether its bonus outlives
it). Played from tests/positions/mwda/M2-mobile-hq-eliminated.position.json: player 0's army was 250 points with
a Mobile HQ (3 + 1 = 4 orders); the HQ has been eliminated and player 1 is to play."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules_engine.mwda.game import DEFAULT_OPTIONS, MwdaGame, MwdaOptionError, check_options
from rules_engine.positions import PositionError, export_position, legal_moves, load_position, play_ids
from tests.rules_engine.mwda import CARDS

POSITION = Path(__file__).resolve().parents[2] / "positions" / "mwda" / "M2-mobile-hq-eliminated.position.json"
THREE_MOVES = ["move:0:5:no", "move:1:5:no", "move:2:5:no"]


def position(**changes: Any) -> dict[str, Any]:
    doc = json.loads(POSITION.read_text(encoding="utf-8"))
    doc.update(changes)
    return doc


def of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event["data"] for event in events if event["kind"] == kind]


def test_M2_mobile_hq_bonus_is_kept_by_default_after_the_hq_is_eliminated():
    """Default `kept`: the order count is fixed when the game starts (seed 002), the HQ's +1 included: player 0's
    next turn has 4 orders, and after 3 orders its fourth unit may still be ordered."""
    assert DEFAULT_OPTIONS["mobile_hq_bonus"] == "kept"
    state = load_position(position(), CARDS)
    events = play_ids(state, ["pass"])
    assert of_kind(events, "turn_start") == [{"round": 2, "orders": 4}]
    play_ids(state, THREE_MOVES)
    after = export_position("mwda", state)
    assert (after["active"], after["orders_left"], after["sides"][0]["orders"]) == (0, 1, 4)
    assert "move:3:5:no" in [move["id"] for move in legal_moves(state)]


def test_M2_option_mobile_hq_bonus_lost_drops_the_eliminated_hq_bonus_from_the_next_turn():
    """`lost`: the bonus goes with the HQ: player 0's next turn has 3 orders (⌈250 / 100⌉); its third order ends
    the turn, the fourth unit unordered. The side's M2 count (`orders`) stays 4: only the turn's count drops."""
    state = load_position(position(options={"mobile_hq_bonus": "lost"}), CARDS)
    assert of_kind(play_ids(state, ["pass"]), "turn_start") == [{"round": 2, "orders": 3}]
    events = play_ids(state, THREE_MOVES)
    assert [order["orders_left"] for order in of_kind(events, "order")] == [2, 1, 0]
    assert of_kind(events, "turn_end") == [{"round": 2, "orders_used": 3}]
    after = export_position("mwda", state)
    assert (after["active"], after["sides"][0]["orders"], after["options"]) == (1, 4, {"mobile_hq_bonus": "lost"})
    assert not any(unit["ordered"] for unit in after["sides"][0]["units"] if unit["uid"] == 3)


def test_M2_a_position_with_option_lost_counts_the_turns_orders_without_the_bonus():
    """Player 0 to play with option `lost`: orders_left may be at most 3 (4 is refused, naming the field); with
    `kept` 4 loads."""
    doc = position(active=0, turn=1, orders_left=4)
    assert load_position(doc, CARDS).orders_left == 4
    with pytest.raises(PositionError) as refused:
        load_position({**doc, "options": {"mobile_hq_bonus": "lost"}}, CARDS)
    assert refused.value.path == "orders_left"
    state = load_position({**doc, "options": {"mobile_hq_bonus": "lost"}, "orders_left": 3}, CARDS)
    assert state.orders_left == 3 and state.options["mobile_hq_bonus"] == "lost"


def test_M2_option_mobile_hq_bonus_refuses_an_unknown_value_naming_it():
    assert check_options({"mobile_hq_bonus": "lost"})["mobile_hq_bonus"] == "lost"
    with pytest.raises(MwdaOptionError, match="mobile_hq_bonus"):
        check_options({"mobile_hq_bonus": "gone"})
    with pytest.raises(MwdaOptionError, match="mobile_hq_bonus"):
        MwdaGame({"sections": {"army": [{"card": "MW-004", "qty": 1}]}}, CARDS,
                 {"kind": "goldfish", "units": [{"card": "MW-001", "qty": 1}]}, {"mobile_hq_bonus": True})
    with pytest.raises(PositionError) as refused:
        load_position(position(options={"mobile_hq_bonus": "gone"}), CARDS)
    assert refused.value.path == "options.mobile_hq_bonus"
