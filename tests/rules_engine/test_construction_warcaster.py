"""Warcaster: Neo-Mechanika construction rules W1–W6 (RULES.md §3.2) through the public validate_list."""
from __future__ import annotations

import pytest

from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog

MW = "marcher-worlds"
SUITS = ("fury", "geometric", "harmonic", "overdrive")

CARDS = (
    [{"code": f"H-{i}", "name": f"Hero {i}", "kind": "hero", "faction": MW} for i in range(1, 5)]
    + [{"code": "HA-1", "name": "Hero attachment", "kind": "hero_attachment", "faction": MW, "attaches_to": ["H-1"]}]
    + [{"code": f"S-{i:02}", "name": f"Squad {i}", "kind": "squad", "faction": MW} for i in range(1, 17)]
    + [{"code": f"M-{i}", "name": f"Mantlet {i}", "kind": "mantlet", "faction": MW} for i in range(1, 7)]
    + [
        {"code": "J-1", "name": "Jack", "kind": "warjack", "faction": MW, "weapon_points": 6},
        {"code": "C-1", "name": "Cortex", "kind": "cortex", "faction": MW},
        {"code": "G-3", "name": "Gun 3", "kind": "weapon", "faction": MW, "cost": 3},
        {"code": "G-4", "name": "Gun 4", "kind": "weapon", "faction": MW, "cost": 4},
        {"code": "IS-1", "name": "Star squad", "kind": "squad", "faction": "iron-star-alliance"},
        {"code": "MR-1", "name": "Mercenary", "kind": "solo", "faction": "mercenary"},
    ]
    + [{"code": f"Y-{suit[:2]}{i}", "name": f"{suit} {i}", "kind": "cypher", "suit": suit, "faction": "universal"}
       for suit in SUITS for i in range(1, 6)]
)
FORMATS = [
    {"slug": "skirmish", "default": True, "options": {"max_heroes": 1, "max_units": 8}},
    {"slug": "full", "options": {"max_heroes": 3, "max_units": 15}},
    {"slug": "open", "options": {"single_faction": False}},
]
CATALOG = Catalog.build("warcaster", CARDS, FORMATS)
LOADOUT = {"cortex": "C-1", "weapons": ["G-3", "G-3"]}


def rack(per_suit: int = 3, extra: int = 0) -> list[dict]:
    """`per_suit` cyphers of each suit, plus `extra` more fury ones (at most 5 per suit exist)."""
    counts = {suit: per_suit for suit in SUITS}
    counts["fury"] += extra
    return [{"card": f"Y-{suit[:2]}{i}", "qty": 1} for suit in SUITS for i in range(1, counts[suit] + 1)]


def force(heroes: int = 1, squads: int = 4, extra: list[dict] | None = None) -> list[dict]:
    entries = [{"card": f"H-{i}", "qty": 1} for i in range(1, heroes + 1)]
    entries += [{"card": f"S-{i:02}", "qty": 1} for i in range(1, squads + 1)]
    return entries + (extra or [])


def lst(force_entries: list[dict] | None = None, rack_entries: list[dict] | None = None, fmt: str = "skirmish") -> dict:
    return {"schema": "hangar.list/1", "system": "warcaster", "format": fmt,
            "sections": {"force": force() if force_entries is None else force_entries,
                         "rack": rack() if rack_entries is None else rack_entries}}


def check(doc: dict, lang: str = "en") -> dict:
    return validate_list(doc, CATALOG, lang=lang)


def found(result: dict, code: str) -> list[dict]:
    return [v for v in result["violations"] if v["code"] == code]


def test_warcaster_baseline_list_is_legal():
    result = check(lst())
    assert result == {"legal": True, "system": "warcaster", "format": "skirmish", "violations": [],
                      "summary": {"heroes": 1, "units": 4, "cyphers": 12}}


# --- W1 heroes -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt, heroes, legal", [("skirmish", 1, True), ("skirmish", 2, False),
                                                ("full", 3, True), ("full", 4, False)])
def test_W1_hero_limit_by_format(fmt, heroes, legal):
    result = check(lst(force(heroes=heroes), fmt=fmt))
    assert result["legal"] is legal and result["summary"]["heroes"] == heroes
    assert [v["rule"] for v in found(result, "warcaster.heroes")] == ([] if legal else ["W1"])


def test_W1_a_hero_taken_twice_is_illegal_even_within_the_limit():
    result = check(lst([{"card": "H-1", "qty": 2}], fmt="full"))
    (violation,) = found(result, "warcaster.heroes")
    assert violation["cards"] == ["H-1"] and "only once" in violation["message"]


def test_W1_W2_hero_attachments_take_no_slot():
    result = check(lst(force(squads=8, extra=[{"card": "HA-1", "qty": 1}])))
    assert result["legal"], result["violations"]
    assert result["summary"] == {"heroes": 1, "units": 8, "cyphers": 12}


# --- W2 units ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt, squads, legal", [("skirmish", 8, True), ("skirmish", 9, False),
                                                ("full", 15, True), ("full", 16, False)])
def test_W2_unit_limit_by_format(fmt, squads, legal):
    result = check(lst(force(squads=squads), fmt=fmt))
    assert result["legal"] is legal and result["summary"]["units"] == squads
    if not legal:
        (violation,) = found(result, "warcaster.units")
        assert violation["rule"] == "W2" and f"{squads} units" in violation["message"]


def test_W2_each_copy_of_an_entry_counts_as_a_unit():
    result = check(lst(force(squads=0, extra=[{"card": "S-01", "qty": 3}, {"card": "S-02", "qty": 3},
                                              {"card": "S-03", "qty": 3}])))
    assert result["summary"]["units"] == 9 and found(result, "warcaster.units")


@pytest.mark.parametrize("mantlets, legal", [(4, True), (5, False)])
def test_W2_at_most_4_mantlets(mantlets, legal):
    extra = [{"card": f"M-{i}", "qty": 1} for i in range(1, mantlets + 1)]
    result = check(lst(force(squads=0, extra=extra)))
    assert result["legal"] is legal
    if not legal:
        (violation,) = found(result, "warcaster.units")
        assert "5 mantlets" in violation["message"] and len(violation["cards"]) == 5


# --- W3 cypher rack ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("per_suit, legal", [((3, 3, 3, 2), False), ((3, 3, 3, 3), True),
                                             ((4, 4, 4, 3), True), ((4, 4, 4, 4), False)])
def test_W3_rack_holds_12_to_15_cyphers(per_suit, legal):
    cyphers = [{"card": f"Y-{suit[:2]}{i}", "qty": 1} for suit, n in zip(SUITS, per_suit) for i in range(1, n + 1)]
    result = check(lst(rack_entries=cyphers))
    count = sum(per_suit)
    assert result["summary"]["cyphers"] == count
    sizes = found(result, "warcaster.rack_size")
    assert [v["rule"] for v in sizes] == ([] if legal else ["W3"])
    if sizes:
        assert sizes[0]["message"] == f"The cypher rack has {count} cyphers; it needs 12 to 15."


def test_W3_each_cypher_at_most_once():
    result = check(lst(rack_entries=rack()[1:] + [{"card": "Y-fu2", "qty": 1}]))
    (violation,) = found(result, "warcaster.rack_copies")
    assert violation["cards"] == ["Y-fu2"] and violation["rule"] == "W3"


def test_W3_at_least_3_of_each_suit():
    cyphers = [c for c in rack(extra=2) if c["card"] != "Y-ha3"]  # 14 cyphers, only 2 harmonic
    result = check(lst(rack_entries=cyphers), lang="ja")
    (violation,) = found(result, "warcaster.rack_suits")
    assert violation["message"] == "サイファーラックのハーモニックが2枚です。各スートを3枚以上入れてください。"
    assert found(result, "warcaster.rack_size") == []


# --- W4 copies -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("qty, legal", [(4, True), (5, False)])
def test_W4_at_most_4_of_one_unit(qty, legal):
    result = check(lst(force(squads=0, extra=[{"card": "S-01", "qty": qty - 1}, {"card": "S-01", "qty": 1}]), fmt="full"))
    assert result["legal"] is legal
    assert [v["cards"] for v in found(result, "warcaster.unit_copies")] == ([] if legal else [["S-01"]])


# --- W5 warjacks ---------------------------------------------------------------------------------------------

def test_W5_weapons_within_the_chassis_weapon_points_are_legal():
    assert check(lst(force(extra=[{"card": "J-1", "qty": 1, "options": LOADOUT}])))["legal"]


def test_W5_weapons_over_the_chassis_weapon_points_are_illegal():
    options = {"cortex": "C-1", "weapons": ["G-3", "G-4"]}
    result = check(lst(force(extra=[{"card": "J-1", "qty": 1, "options": options}])))
    (violation,) = found(result, "warcaster.warjack_points")
    assert violation["rule"] == "W5" and violation["cards"] == ["J-1"]
    assert violation["message"] == "Jack (J-1): its weapons cost 7 weapon points; the chassis has 6."


@pytest.mark.parametrize(
    "options, cards, words",
    [
        (None, ["J-1"], "no cortex"),
        ({"weapons": ["G-3"]}, ["J-1"], "no cortex"),
        ({"cortex": "C-9", "weapons": []}, ["C-9", "J-1"], "not a known cortex"),
        ({"cortex": "C-1", "weapons": ["G-9"]}, ["G-9", "J-1"], "not a known weapon"),
        ({"cortex": "G-3", "weapons": []}, ["G-3", "J-1"], "not a cortex"),
        ({"cortex": "C-1", "weapons": ["C-1"]}, ["C-1", "J-1"], "not a weapon"),
        ({"cortex": "C-1", "weapons": [7]}, ["J-1"], "not a known weapon"),
        ({"cortex": 5, "weapons": []}, ["J-1"], "not a known cortex"),
        ({"cortex": "C-1", "weapons": "G-3"}, ["J-1"], "must be a list"),
    ],
)
def test_W5_warjack_options_name_a_known_cortex_and_weapons(options, cards, words):
    entry = {"card": "J-1", "qty": 1}
    if options is not None:
        entry["options"] = options
    result = check(lst(force(extra=[entry])))
    (violation,) = found(result, "warcaster.warjack_points")
    assert violation["cards"] == cards and words in violation["message"]


# --- W6 faction ----------------------------------------------------------------------------------------------

def test_W6_units_of_another_faction_are_illegal():
    result = check(lst(force(extra=[{"card": "IS-1", "qty": 1}])))
    (violation,) = found(result, "warcaster.faction")
    assert violation["rule"] == "W6" and violation["cards"] == ["IS-1"]
    # the faction in words, never its slug (once a bug: 「iron-star-allianceではありません」)
    assert "are not Marcher Worlds" in violation["message"] and MW not in violation["message"]
    (japanese,) = found(check(lst(force(extra=[{"card": "IS-1", "qty": 1}])), lang="ja"), "warcaster.faction")
    assert "辺境世界ではありません" in japanese["message"] and MW not in japanese["message"]


def test_W6_mercenaries_and_cyphers_are_exempt():
    assert check(lst(force(extra=[{"card": "MR-1", "qty": 1}])))["legal"]


def test_W6_option_single_faction_false_allows_mixed_forces():
    assert found(check(lst(force(extra=[{"card": "IS-1", "qty": 1}]), fmt="open")), "warcaster.faction") == []


# --- placement -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "section, code, home",
    [("force", "Y-fu5", "cypher rack"), ("rack", "S-05", "force"), ("force", "G-3", "a warjack's options"),
     ("force", "C-1", "a warjack's options")],
)
def test_wrong_section_cards_are_reported_and_not_counted(section, code, home):
    doc = lst()
    doc["sections"][section].append({"card": code, "qty": 1})
    result = check(doc)
    (violation,) = found(result, "warcaster.wrong_section")
    assert violation["section"] == section and violation["cards"] == [code] and home in violation["message"]
    assert result["summary"] == {"heroes": 1, "units": 4, "cyphers": 12}
