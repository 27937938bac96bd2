"""MechWarrior: Dark Age construction rules M1–M4 (RULES.md §2.2) through the public validate_list."""
from __future__ import annotations

import pytest

from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog


def _unit(code: str, points: int, **fields) -> dict:
    return {"code": code, "name": fields.pop("name", f"Unit {code}"), "kind": "mech", "points": points,
            "faction": "republic", **fields}


CARDS = [
    _unit("MW-001", 1),
    _unit("MW-100", 100),
    _unit("MW-050", 50),
    _unit("MW-043", 60, name="移動司令部", order_bonus=1),  # Mobile HQ
    _unit("MW-007", 40, name="Kal Radick", unique=True),
    _unit("MW-107", 45, name="Kal Radick", unique=True),  # the same character, another sculpt
]
FORMATS = [
    {"slug": "standard-100", "options": {"point_limit": 100}},
    {"slug": "tournament-300", "default": True, "options": {"point_limit": 300}},
]
CATALOG = Catalog.build("mwda", CARDS, FORMATS)


def army(*entries: tuple[str, int], fmt: str = "tournament-300") -> dict:
    return {"schema": "hangar.list/1", "system": "mwda", "format": fmt,
            "sections": {"army": [{"card": code, "qty": qty} for code, qty in entries]}}


def points(total: int) -> list[tuple[str, int]]:
    """Entries worth exactly `total` points: 100-point units plus 1-point units."""
    return [entry for entry in (("MW-100", total // 100), ("MW-001", total % 100)) if entry[1]]


def codes(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"]]


@pytest.mark.parametrize(
    "fmt, total, legal", [("standard-100", 100, True), ("standard-100", 101, False),
                          ("tournament-300", 300, True), ("tournament-300", 301, False)],
)
def test_M1_army_points_at_most_the_format_limit(fmt, total, legal):
    result = validate_list(army(*points(total), fmt=fmt), CATALOG)
    assert result["legal"] is legal
    assert result["summary"]["points"] == total
    if not legal:
        (violation,) = result["violations"]
        limit = result["summary"]["point_limit"]
        assert (violation["code"], violation["rule"], violation["section"]) == ("mwda.points", "M1", "army")
        assert violation["message"] == f"The army has {total} points; the format allows at most {limit}."


@pytest.mark.parametrize("total, orders", [(1, 1), (100, 1), (101, 2), (200, 2), (300, 3), (301, 4)])
def test_M2_orders_per_round_is_points_over_100_rounded_up(total, orders):
    assert validate_list(army(*points(total)), CATALOG)["summary"]["orders_per_round"] == orders


def test_M2_order_bonus_adds_once_per_copy():
    result = validate_list(army(("MW-043", 2), ("MW-100", 1)), CATALOG)  # 220 points → 3 orders, + 2 Mobile HQs
    assert result["summary"] == {"points": 220, "point_limit": 300, "orders_per_round": 5}


def test_M2_empty_army_has_no_orders():
    assert validate_list(army(), CATALOG)["summary"]["orders_per_round"] == 0


def test_M3_a_unique_unit_twice_is_illegal():
    result = validate_list(army(("MW-007", 2)), CATALOG)
    (violation,) = result["violations"]
    assert (violation["code"], violation["rule"], violation["cards"]) == ("mwda.unique", "M3", ["MW-007"])
    assert violation["message"] == "Kal Radick (MW-007) is unique (★) but appears 2 times; a unique unit may appear only once."


def test_M3_unique_units_of_one_name_count_together_and_non_unique_repeat_freely():
    result = validate_list(army(("MW-107", 1), ("MW-007", 1), ("MW-050", 4)), CATALOG)
    assert codes(result) == ["mwda.unique"]
    assert result["violations"][0]["cards"] == ["MW-007", "MW-107"]


def test_M3_one_unique_unit_is_legal():
    assert validate_list(army(("MW-007", 1)), CATALOG)["legal"]


def test_M4_an_army_needs_at_least_one_unit():
    result = validate_list(army(), CATALOG, lang="ja")
    assert codes(result) == ["mwda.empty"]
    assert result["violations"][0]["message"] == "アーミーにユニットがいません。1体以上必要です。"


def test_M4_an_army_of_only_unknown_cards_is_empty_too():
    assert codes(validate_list(army(("NOPE-1", 1)), CATALOG)) == ["list.unknown_card", "mwda.empty"]


def test_mwda_unknown_format_uses_the_default_format_options():
    result = validate_list(army(*points(250), fmt="standard-250"), CATALOG)
    assert codes(result) == ["list.unknown_format"]
    assert result["format"] == "tournament-300" and result["summary"]["point_limit"] == 300


def test_mwda_summary_has_exactly_the_design_keys():
    assert list(validate_list(army(("MW-050", 1)), CATALOG)["summary"]) == ["points", "point_limit", "orders_per_round"]
