"""A warjack's loadout (its entry's cortex and weapons options) in the text format's own words:

    1 軽ウォージャック ハヤテ
      コーテックス: 戦術コルテックス
      武器: アークライフル, 掃射機関砲

written by export_list_text, read back by parse_list_text (docs/list-formats.md, "Loadouts"); the JSON object at
the end of an entry line stays readable and is still written for any other options."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.listio import ListFormatError, export_list_text, parse_list_json, parse_list_text
from rules_engine.core.catalog import Catalog

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages" / "warcaster"
BUNDLED = json.loads((PACKAGES / "core-sample.json").read_text(encoding="utf-8"))
WARCASTER = Catalog.build("warcaster", BUNDLED["cards"], BUNDLED["formats"])
SAMPLE_LISTS = sorted(PACKAGES.glob("lists/*.json"))

# Tricky names: a weapon with a comma, one named "-", one that shares its name, one named like a loadout line.
TRICKY = Catalog.build("warcaster", [
    {"code": "J-1", "name": "重ジャック", "name_en": "Heavy Jack", "kind": "warjack"},
    {"code": "C-1", "name": "戦術コルテックス", "name_en": "Tactical Cortex", "kind": "cortex"},
    {"code": "W-1", "name": "銃、大型", "name_en": "Gun, Big", "kind": "weapon"},
    {"code": "W-2", "name": "-", "kind": "weapon"},
    {"code": "W-3", "name": "双砲", "name_en": "Twin Gun", "kind": "weapon"},
    {"code": "W-4", "name": "双砲", "name_en": "Twin Gun", "kind": "weapon"},
    {"code": "W-5", "name": "Cortex: Lance", "kind": "weapon"},
], [{"slug": "skirmish", "name": "Skirmish", "default": True}])


def read(text: str, catalog: Catalog = WARCASTER) -> dict:
    return parse_list_text(text, lambda system: catalog if system == "warcaster" else None)


def force(*entries: dict) -> dict:
    return parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "format": "skirmish", "name": "",
                            "sections": {"force": list(entries), "rack": []}})


def issues(text: str, catalog: Catalog = WARCASTER) -> list[str]:
    with pytest.raises(ListFormatError) as caught:
        read(text, catalog)
    return [issue.message for issue in caught.value.issues]


HAYATE = {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K01", "weapons": ["WC-W01", "WC-W02"]}}


# --- writing ---------------------------------------------------------------------------------------------------


def test_a_loadout_is_written_in_words_under_its_warjack_in_japanese_and_english():
    doc = force(HAYATE, {"card": "WC-011", "qty": 2, "options": {"cortex": "WC-K02"}})
    assert export_list_text(doc, WARCASTER, lang="ja").splitlines()[3:] == [
        "[フォース]",
        "1 軽ウォージャック ハヤテ", "  コルテックス: 戦術コルテックス", "  武器: アークライフル, 掃射機関砲",
        "2 重ウォージャック イワオ", "  コルテックス: 守護コルテックス",
    ]
    assert export_list_text(doc, WARCASTER, lang="en").splitlines()[3:] == [
        "[Force]",
        "1 Hayate Light Warjack", "  Cortex: Tactical Cortex", "  Weapons: Arc Rifle, Sweep Cannon",
        "2 Iwao Heavy Warjack", "  Cortex: Guardian Cortex",
    ]


def test_no_json_in_the_text_of_any_bundled_warcaster_list():
    assert SAMPLE_LISTS
    for path in SAMPLE_LISTS:
        doc = parse_list_json(path.read_text(encoding="utf-8"))
        for lang in ("ja", "en"):
            text = export_list_text(doc, WARCASTER, lang=lang)
            assert "{" not in text and "WC-K" not in text, (path.name, text)


def test_weapons_in_order_with_repeats_and_none():
    doc = force({"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K01", "weapons": ["WC-W02", "WC-W01",
                                                                                        "WC-W02"]}},
                {"card": "WC-010", "qty": 1, "options": {"weapons": []}})
    lines = export_list_text(doc, WARCASTER, lang="en").splitlines()
    assert "  Weapons: Sweep Cannon, Arc Rifle, Sweep Cannon" in lines and "  Weapons: -" in lines


def test_a_card_whose_name_would_not_read_back_is_written_with_its_code():
    doc = parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "sections": {"force": [
        {"card": "J-1", "qty": 1, "options": {"cortex": "C-1", "weapons": ["W-1", "W-2", "W-3", "W-5", "XX-9"]}}]}})
    lines = export_list_text(doc, TRICKY, lang="en").splitlines()
    assert lines[-1] == "  Weapons: (W-1), - (W-2), Twin Gun (W-3), Cortex: Lance, (XX-9)"
    assert read("\n".join(lines), TRICKY) == doc


def test_other_options_stay_json_at_the_end_of_the_line():
    for options in ({"cortex": "WC-K01", "paint": "blue"}, {"cortex": 3}, {"weapons": "WC-W01"},
                    {"weapons": [["WC-W01"]]}, {}, {"cortex": ""}):
        doc = force({"card": "WC-010", "qty": 1, "options": options})
        text = export_list_text(doc, WARCASTER, lang="en")
        assert text.splitlines()[-1] == f"1 Hayate Light Warjack {json.dumps(options, sort_keys=True)}"
        assert read(text) == doc


# --- reading ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("path", SAMPLE_LISTS, ids=lambda path: path.stem)
def test_every_bundled_warcaster_list_round_trips(path, lang):
    doc = parse_list_json(path.read_text(encoding="utf-8"))
    assert read(export_list_text(doc, WARCASTER, lang=lang)) == doc


def test_the_words_the_reader_takes():
    text = """System: warcaster
[Force]
1 Hayate Light Warjack
cortex：tactical cortex
  武器: アークライフル、掃射機関砲
1 軽ウォージャック ハヤテ
    WEAPONS :  Arc Rifle ,Sweep Cannon
    コルテックス: 戦術コルテックス (wc-k01)
1 Hayate Light Warjack
  Weapon: (WC-W01), 掃射機関砲 (WC-W02)

  # a comment between an entry and its loadout
  コーテックス: (WC-K01)
"""
    assert read(text)["sections"]["force"] == [HAYATE, HAYATE, HAYATE]


def test_the_json_options_of_earlier_files_still_read_as_the_same_list():
    words = read("System: warcaster\n[Force]\n1 Hayate Light Warjack\n  Cortex: Tactical Cortex\n"
                 "  Weapons: Arc Rifle, Sweep Cannon\n")
    old = read('System: warcaster\n[Force]\n1 Hayate Light Warjack {"cortex": "WC-K01", "weapons": '
               '["WC-W01", "WC-W02"]}\n')
    assert words == old == force(HAYATE) | {"format": None}


def test_an_unknown_code_is_kept_and_an_empty_weapons_line_is_no_weapons():
    doc = read("System: warcaster\n[Force]\n1 Hayate Light Warjack\n  Cortex: (ZZ-404)\n  Weapons:\n"
               "1 Hayate Light Warjack\n  Weapons: -\n")
    assert [entry["options"] for entry in doc["sections"]["force"]] == [{"cortex": "ZZ-404", "weapons": []},
                                                                       {"weapons": []}]


def test_a_loadout_does_not_check_legality():
    """A hero with a 'cortex' or a cypher as a weapon is read and saved; validation (W5) says what is wrong."""
    doc = read("System: warcaster\n[Force]\n1 WC-001\n  Cortex: WC-W01\n  Weapons: WC-K01\n")
    assert doc["sections"]["force"][0]["options"] == {"cortex": "WC-W01", "weapons": ["WC-K01"]}


# --- problems --------------------------------------------------------------------------------------------------


def test_a_loadout_line_needs_an_entry_just_above_it():
    assert issues("System: warcaster\n[Force]\n  Cortex: Tactical Cortex\n") == [
        'line 3: a "Cortex:" line gives the loadout of the entry just above it, and there is none: write it under '
        'the warjack, e.g. "1 Hayate Light Warjack" then "  Cortex: Tactical Cortex"']
    assert issues("System: warcaster\n[Force]\n1 Hayate Light Warjack\n[Cypher rack]\nWeapons: Arc Rifle\n")[0] \
        .startswith('line 5: a "Weapons:" line gives the loadout of the entry just above it')
    assert issues("System: warcaster\nFormat: skirmish\nCortex: Tactical Cortex\n") == [
        'line 3: unknown header "Cortex"; headers are Name:, System: and Format:, then come the sections']


def test_a_loadout_line_once_per_entry_and_not_beside_json():
    assert issues("System: warcaster\n[Force]\n1 Hayate Light Warjack\nCortex: Tactical Cortex\n"
                  "Cortex: Guardian Cortex\n") == ['line 5: a second "Cortex:" line for the same entry']
    assert issues('System: warcaster\n[Force]\n1 Hayate Light Warjack {"cortex": "WC-K01"}\n'
                  "Weapons: Arc Rifle\n")[0].startswith("line 4: the entry above already has its options as JSON")


def test_unknown_and_missing_cards_in_a_loadout_say_where_with_suggestions():
    found = issues("System: warcaster\n[Force]\n1 Hayate Light Warjack\nCortex: Tactcal Cortex\n"
                   "Weapons: Arc Rifle, , Sweep Cannon\nCortex:\n")
    assert found[0].startswith('line 4: no card named "Tactcal Cortex" in Warcaster: Neo-Mechanika; did you mean '
                               "Tactical Cortex (WC-K01)")
    assert found[1] == ('line 5: a weapon is missing between two commas after "Weapons:", e.g. "Weapons: Arc Rifle, '
                        'Shock Lance"')
    assert found[2] == 'line 6: missing the cortex after "Cortex:", e.g. "Cortex: Tactical Cortex"'
    assert issues("System: warcaster\n[Force]\n1 Heavy Jack\nWeapons: Twin Gun\n", TRICKY)[0].startswith(
        'line 4: 2 cards are named "Twin Gun"')


def test_the_loadout_of_an_entry_with_a_problem_is_not_reported_again():
    found = issues("System: warcaster\n[Force]\n1 Hayate Lite Warjack\n  Cortex: Tactical Cortex\n"
                   "  Weapons: Arc Rifle\n1 Iwao Heavy Warjack\n  Cortex: Nope\n")
    assert [message.split(":")[0] for message in found] == ["line 3", "line 7"]
    assert 'no card named "Hayate Lite Warjack"' in found[0] and 'no card named "Nope"' in found[1]
