"""The rule positions through the command, loaded and played with --play, checking the events and the resulting
position: `manage.py position FILE --play ID --json` on one rule position
of each game whose cards are all in the bundled catalog (loaded into the site's catalog by the `catalog` fixture).
The engine-level tests of every rule position are tests/rules_engine/test_position_rules_<game>.py."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]

POSITIONS = Path(__file__).resolve().parents[1] / "positions"


def play(game: str, name: str, *ids: str) -> dict[str, Any]:
    out = StringIO()
    call_command("position", str(POSITIONS / game / f"{name}.position.json"), "--play", *ids, "--json", stdout=out)
    return json.loads(out.getvalue())


def events(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(event["kind"], event["data"]) for event in result["events"]]


def test_H9_through_the_command_the_point_past_the_last_damage_card_is_lost_and_the_game_goes_on():
    result = play("hagmi", "H9-damage-past-the-last-card", "attack:1:player.1")
    assert result["system"] == "hagmi" and result["over"] is False
    assert events(result)[1:] == [("damage_player", {"card": "HS-055"}), ("draw", {"deck": "tactics"}),
                                  ("damage_player", {"card": "HS-049"}), ("draw", {"deck": "weapons"}),
                                  ("damage_player", {"card": None, "lost": 1})]
    after = result["position"]
    assert after["result"] is None and after["decision"] == {"kind": "battle", "player": 0}
    assert after["sides"][1]["damage_deck"] == []
    assert [move["id"] for move in result["moves"]] == ["attack:4:player.1", "end"]


def test_M15_through_the_command_the_shot_at_maximum_range_eliminates_the_infantry():
    result = play("mwda", "M15-minimum-range", "shoot:0:2:0")
    assert result["system"] == "mwda"
    (attack,) = [data for kind, data in events(result) if kind == "attack"]
    assert (attack["target"], attack["roll"], attack["hit"]) == (2, [4, 4, 1], True)
    assert [data for kind, data in events(result) if kind == "eliminated"] == [
        {"unit": 2, "code": "MW-001", "points": 20, "by": 0, "at": [2.75, 4.0]}]
    after = result["position"]
    assert [unit["uid"] for unit in after["sides"][1]["eliminated"]] == [2]
    assert (after["sides"][0]["points_destroyed"], after["active"], after["turn"]) == (20, 1, 2)


def test_W10_through_the_command_recalls_from_several_holders_then_end():
    result = play("warcaster", "W10-charging-recall", "recall:gate:0:1", "recall:unit:0:1", "recall:gate:1:1", "end")
    assert result["system"] == "warcaster"
    assert [(kind, data["holder"], data["uid"], data["amount"], data["pool"]) for kind, data in events(result)] == [
        ("recall", "gate", 0, 1, 7), ("recall", "unit", 0, 1, 8), ("recall", "gate", 1, 1, 9)]
    side = result["position"]["sides"][0]
    assert [unit["arc"] for unit in side["units"]] == [1, 1] and [gate["arc"] for gate in side["gates"]] == [3, 1]
    assert side["pool"] == 9 and result["position"]["turn"]["phase"] == "activate"
    assert [move["id"] for move in result["moves"]] == ["pass", "activate:0"]
