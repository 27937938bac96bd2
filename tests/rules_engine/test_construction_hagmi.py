"""HAGMI! construction rules H1–H8 (RULES.md §1.2) through the public validate_list."""
from __future__ import annotations

import pytest

from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog


def _card(code: str, name: str, category: str, frame: str | None, **fields) -> dict:
    card = {"code": code, "name": name, "category": category, **fields}
    if frame is not None:
        card["frame"] = frame
    return card


CARDS = (
    [_card(f"W-{i:03}", f"兵装{i}", "unit", "black", cost=1) for i in range(1, 61)]
    + [_card(f"T-{i:03}", f"作戦{i}", "tactic", "blue", cost=1) for i in range(1, 61)]
    + [_card(f"D-{i:03}", f"損傷{i}", "damage", "red") for i in range(1, 21)]
    + [_card(f"X-{i:03}", f"白{i}", "unit", "white", cost=2) for i in range(1, 21)]
    + [
        _card("HS-001", "補給物資", "tactic", "blue", cost=0),
        _card("HS-101", "補給物資", "tactic", "blue", cost=0),  # a reprint: same name, another code
        _card("HS-002", "照明弾", "tactic", "blue", cost=1),
        _card("HS-003", "爆発反応装甲", "armament", "black", durability=2),
        _card("HS-004", "装甲改修", "damage", "red"),
        _card("DS-001", "設計兵装甲", "design", None, cost=6),
        _card("B-001", "機獣甲", "beast", None, cost=3),
        _card("MS-001", "母艦甲", "mothership", None, cores=6),
    ]
)
FORMATS = [
    {"slug": "tactics-v4", "default": True, "options": {}},
    {"slug": "tactics-v3", "options": {"min_weapons": 0, "min_tactics": 0, "min_main": 20}},
    {"slug": "damage-counts", "options": {"secret_counts_damage_deck": True}},
]
CATALOG = Catalog.build("hagmi", CARDS, FORMATS)


def fill(prefix: str, count: int) -> list[dict]:
    """`count` cards of distinct codes `prefix-001...`, two copies each (H4-legal), the last one single if odd."""
    entries = [{"card": f"{prefix}-{i + 1:03}", "qty": 2} for i in range(count // 2)]
    if count % 2:
        entries.append({"card": f"{prefix}-{count // 2 + 1:03}", "qty": 1})
    return entries


def deck(
    weapons: int = 20, tactics: int = 20, damage: int = 1, secret: int = 0, fmt: str = "tactics-v4",
    extra: dict[str, list[dict]] | None = None,
) -> dict:
    """A list of weapons/tactics/damage/secret sizes; `extra` entries are appended to their section."""
    sections = {
        "weapons": fill("W", weapons),
        "tactics": fill("T", tactics),
        "damage": [{"card": f"D-{i + 1:03}", "qty": 1} for i in range(damage)],
        "secret": [{"card": f"X-{i + 1:03}", "qty": 1} for i in range(secret)],
    }
    for section, entries in (extra or {}).items():
        sections[section] = sections[section] + entries
    return {"schema": "hangar.list/1", "system": "hagmi", "format": fmt, "name": "test", "sections": sections}


def check(doc: dict, lang: str = "en") -> dict:
    return validate_list(doc, CATALOG, lang=lang)


def found(result: dict, code: str) -> list[dict]:
    return [v for v in result["violations"] if v["code"] == code]


def errors(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"] if v["severity"] == "error"]


# --- H1 / H2: deck sizes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("weapons, legal", [(19, False), (20, True), (21, True)])
def test_H1_weapons_deck_needs_at_least_20_cards(weapons, legal):
    result = check(deck(weapons=weapons))
    sizes = found(result, "hagmi.deck_size")
    assert result["legal"] is legal
    if not legal:
        assert [(v["rule"], v["section"]) for v in sizes] == [("H1", "weapons")]
        assert sizes[0]["message"] == "Weapons deck has 19 cards; the format needs at least 20."


@pytest.mark.parametrize("tactics, legal", [(19, False), (20, True)])
def test_H2_tactics_deck_needs_at_least_20_cards(tactics, legal):
    result = check(deck(tactics=tactics))
    assert result["legal"] is legal
    assert [(v["rule"], v["section"]) for v in found(result, "hagmi.deck_size")] == ([] if legal else [("H2", "tactics")])


@pytest.mark.parametrize(
    "weapons, tactics, legal", [(10, 9, False), (10, 10, True), (0, 20, True), (20, 0, True), (19, 0, False)]
)
def test_H2_tactics_v3_needs_20_weapons_and_tactics_together(weapons, tactics, legal):
    result = check(deck(weapons=weapons, tactics=tactics, fmt="tactics-v3"))
    assert result["format"] == "tactics-v3"
    assert result["legal"] is legal
    if not legal:
        (violation,) = found(result, "hagmi.deck_size")
        assert violation["rule"] == "H2" and violation["section"] is None
        assert str(weapons + tactics) in violation["message"]


def test_H1_H2_tactics_v4_reports_each_short_deck():
    result = check(deck(weapons=5, tactics=3))
    assert [v["rule"] for v in found(result, "hagmi.deck_size")] == ["H1", "H2"]


# --- H3: the deck a card's frame gives ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "section, code, home",
    [("weapons", "HS-002", "Tactics deck"), ("tactics", "HS-003", "Weapons deck"), ("damage", "W-050", "Weapons deck"),
     ("weapons", "HS-004", "damage deck")],
)
def test_H3_card_in_a_deck_its_frame_does_not_give_is_wrong_deck(section, code, home):
    result = check(deck(extra={section: [{"card": code, "qty": 1}]}))
    (violation,) = found(result, "hagmi.wrong_deck")
    assert violation["rule"] == "H3" and violation["section"] == section and violation["cards"] == [code]
    assert home in violation["message"]
    assert not result["legal"]


@pytest.mark.parametrize("section", ["weapons", "tactics", "damage", "secret"])
@pytest.mark.parametrize("code", ["B-001", "MS-001"])
def test_H3_beasts_and_motherships_never_belong_in_a_players_list(section, code):
    result = check(deck(secret=0, extra={section: [{"card": code, "qty": 1}]}))
    (violation,) = found(result, "hagmi.wrong_deck")
    assert violation["section"] == section and violation["cards"] == [code]
    assert found(result, "hagmi.secret_only") == []


# --- H4: copies of one name across 兵器 + 作戦 --------------------------------------------------------------

def test_H4_a_third_copy_of_one_card_in_the_main_deck_is_illegal():
    result = check(deck(extra={"weapons": [{"card": "W-001", "qty": 1}]}))
    (violation,) = found(result, "hagmi.copies")
    assert violation["rule"] == "H4" and violation["cards"] == ["W-001"] and violation["section"] is None
    assert violation["message"] == "兵装1 (W-001): 3 copies in the Weapons and Tactics decks; the limit is 2 per name."


def test_H4_copies_count_by_name_across_codes_and_decks():
    result = check(deck(extra={"tactics": [{"card": "HS-001", "qty": 2}, {"card": "HS-101", "qty": 1}]}))
    (violation,) = found(result, "hagmi.copies")
    assert violation["cards"] == ["HS-001", "HS-101"]
    assert "3 copies" in violation["message"]


def test_H4_two_copies_is_the_limit():
    assert found(check(deck(extra={"tactics": [{"card": "HS-001", "qty": 2}]})), "hagmi.copies") == []


def test_H4_seed_faq_two_supply_drops_in_tactics_plus_one_in_secret_is_legal():
    """Seed 000 FAQ: 作戦デッキに補給物資2枚 + 秘策に1枚 = 最大で合計3枚 (秘策 copies do not count for H4)."""
    doc = deck(tactics=18, extra={"tactics": [{"card": "HS-001", "qty": 2}], "secret": [{"card": "HS-101", "qty": 1}]})
    result = check(doc)
    assert result["legal"], result["violations"]
    assert result["summary"]["secret"] == 1


# --- H5: 秘策 allowance ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("main, allowed", [(39, 1), (40, 2), (59, 2), (60, 3)])
def test_H5_secret_allows_one_card_per_20_main_deck_cards(main, allowed):
    weapons = main // 2
    at_limit = check(deck(weapons=weapons, tactics=main - weapons, secret=allowed))
    over = check(deck(weapons=weapons, tactics=main - weapons, secret=allowed + 1))
    assert at_limit["summary"]["main"] == main and at_limit["summary"]["secret_allowed"] == allowed
    assert found(at_limit, "hagmi.secret_count") == []
    (violation,) = found(over, "hagmi.secret_count")
    assert violation["rule"] == "H5" and violation["section"] == "secret"
    assert violation["cards"] == [f"X-{i + 1:03}" for i in range(allowed + 1)]
    assert violation["message"] == f"Secret has {allowed + 1} cards; {main} main-deck cards allow {allowed}."


def test_H5_damage_deck_does_not_count_by_default_but_can_by_option():
    default = check(deck(weapons=20, tactics=19, damage=1, secret=2))
    counted = check(deck(weapons=20, tactics=19, damage=1, secret=2, fmt="damage-counts"))
    assert default["summary"]["main"] == 39 and found(default, "hagmi.secret_count")
    assert counted["summary"]["main"] == 40 and counted["summary"]["secret_allowed"] == 2
    assert found(counted, "hagmi.secret_count") == []


def test_H5_messages_in_japanese():
    result = check(deck(weapons=20, tactics=20, secret=3), lang="ja")
    (violation,) = found(result, "hagmi.secret_count")
    assert violation["message"] == "秘策が3枚です。メインデッキ40枚では2枚までです。"


# --- H6: one copy of each name in 秘策 ------------------------------------------------------------------------

def test_H6_two_copies_of_one_card_in_secret_is_illegal():
    result = check(deck(weapons=40, tactics=40, secret=0, extra={"secret": [{"card": "X-001", "qty": 2}]}))
    (violation,) = found(result, "hagmi.secret_copies")
    assert violation["rule"] == "H6" and violation["section"] == "secret" and violation["cards"] == ["X-001"]
    # English words and grammar (once a bug: "at most 1 of one name are allowed", 秘策 on an English page)
    assert violation["message"].endswith(": 2 copies in Secret; the limit there is 1 per name.")
    assert "秘策" not in violation["message"] and " are allowed" not in violation["message"]


def test_H6_copies_in_secret_count_by_name():
    doc = deck(weapons=40, tactics=40, extra={"secret": [{"card": "HS-001", "qty": 1}, {"card": "HS-101", "qty": 1}]})
    (violation,) = found(check(doc), "hagmi.secret_copies")
    assert violation["cards"] == ["HS-001", "HS-101"]
    assert "補給物資 (HS-001), 補給物資 (HS-101)" in violation["message"]


def test_H6_seed_faq_a_damage_card_in_secret_is_legal():
    """Seed 000 FAQ: 秘策に「ダメージカード」を入れる事は可能 — any category may be in 秘策."""
    result = check(deck(secret=0, extra={"secret": [{"card": "HS-004", "qty": 1}]}))
    assert result["legal"], result["violations"]


# --- H7: other frames and designs only in 秘策 -----------------------------------------------------------------

def test_H7_seed_white_frame_card_in_weapons_is_secret_only_not_wrong_deck():
    result = check(deck(extra={"weapons": [{"card": "X-005", "qty": 1}]}))
    (violation,) = found(result, "hagmi.secret_only")
    assert violation["rule"] == "H7" and violation["section"] == "weapons" and violation["cards"] == ["X-005"]
    assert found(result, "hagmi.wrong_deck") == []
    assert violation["message"] == "白5 (X-005) has a white frame, so it can only be in Secret, not in the Weapons deck."


@pytest.mark.parametrize("section", ["weapons", "tactics", "damage"])
def test_H7_design_card_outside_secret_is_secret_only(section):
    result = check(deck(extra={section: [{"card": "DS-001", "qty": 1}]}))
    (violation,) = found(result, "hagmi.secret_only")
    assert violation["section"] == section and "design" in violation["message"]


def test_H7_white_frame_and_design_cards_are_legal_in_secret():
    result = check(deck(weapons=20, tactics=20, secret=1, extra={"secret": [{"card": "DS-001", "qty": 1}]}))
    assert result["legal"], result["violations"]


# --- H8: empty damage deck is a warning ------------------------------------------------------------------------

def test_H8_empty_damage_deck_is_a_warning_and_the_list_stays_legal():
    result = check(deck(damage=0))
    (violation,) = found(result, "hagmi.damage_empty")
    assert violation == {
        "code": "hagmi.damage_empty", "severity": "warning", "rule": "H8",
        "message": "The damage deck is empty: the first damage you take loses the game.",
        "section": "damage", "cards": [],
    }
    assert result["legal"] is True
    assert found(check(deck(damage=1)), "hagmi.damage_empty") == []


# --- public examples (RULES.md §1.2) -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "weapons, tactics, damage, secret, warnings",
    [(50, 20, 0, 2, ["hagmi.damage_empty"]), (100, 100, 10, 10, []), (20, 20, 2, 0, [])],
)
def test_H1_to_H8_public_regulation_examples_are_legal(weapons, tactics, damage, secret, warnings):
    result = check(deck(weapons=weapons, tactics=tactics, damage=damage, secret=secret))
    assert result["legal"], result["violations"]
    assert [v["code"] for v in result["violations"]] == warnings
    assert result["summary"] == {
        "weapons": weapons, "tactics": tactics, "damage": damage, "secret": secret,
        "main": weapons + tactics, "secret_allowed": (weapons + tactics) // 20,
    }


def test_hagmi_summary_has_exactly_the_design_keys():
    assert list(check(deck())["summary"]) == ["weapons", "tactics", "damage", "secret", "main", "secret_allowed"]
