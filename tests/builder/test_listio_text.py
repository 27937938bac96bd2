"""The readable text list format (docs/list-formats.md): reading, writing, and exact round trips."""
import random
import re

import pytest

from builder.listio import MAX_ENTRIES, ListFormatError, export_list_text, parse_list_json, parse_list_text
from rules_engine.core.catalog import Catalog

HAGMI_CARDS = [
    {"code": "HS-001", "name": "補給物資", "name_en": "Supply Drop", "category": "tactic", "frame": "blue"},
    {"code": "HS-002", "name": "照明弾", "name_en": "Flare", "category": "tactic", "frame": "blue"},
    {"code": "HS-003", "name": "爆発反応装甲", "name_en": "Reactive Armor", "category": "armament", "frame": "black"},
    {"code": "HS-004", "name": "荷電粒子装甲", "name_en": "Charged Particle Armor", "category": "armament",
     "frame": "black"},
    {"code": "HS-005", "name": "不退転", "category": "damage", "frame": "red"},
    # two different cards share a name (and an English name)
    {"code": "HS-010", "name": "双子の砲台", "name_en": "Twin Battery", "category": "unit", "frame": "black"},
    {"code": "HS-011", "name": "双子の砲台", "name_en": "Twin Battery", "category": "unit", "frame": "black"},
    # names with spaces, parentheses, braces, a leading number, full-width letters
    {"code": "HS-020", "name": "Gun (Mk. II)", "category": "unit", "frame": "black"},
    {"code": "HS-021", "name": "装甲改修 {改}", "category": "tactic", "frame": "blue"},
    {"code": "HS-022", "name": "3rd  Wave   Strike", "category": "tactic", "frame": "blue"},
    {"code": "HS-023", "name": "ＡＢＣ砲", "category": "unit", "frame": "black"},
    # a name that is another card's code, and a name ending in "(CODE)"
    {"code": "HS-030", "name": "HS-001", "category": "tactic", "frame": "blue"},
    {"code": "HS-031", "name": "騎士道精神 (HS-002)", "category": "tactic", "frame": "gold"},
    {"code": "HS-032", "name": "x Wing", "category": "unit", "frame": "black"},
]
HAGMI_FORMATS = [
    {"slug": "tactics-v4", "name": "タクティクス (Ver.4)", "name_en": "Tactics (regulation Ver.4)", "default": True},
    {"slug": "tactics-v3", "name": "タクティクス (Ver.3)", "name_en": "Tactics (regulation Ver.3)"},
]
MWDA_CARDS = [
    {"code": "MW-043", "name": "移動司令部", "name_en": "Mobile HQ", "kind": "vehicle", "points": 40},
    {"code": "MW-010", "name": "灰色の巨人", "name_en": "Grey Giant", "kind": "mech", "points": 150},
]
WARCASTER_CARDS = [
    {"code": "WC-010", "name": "タイタン級シャーシ", "name_en": "Titan Chassis", "kind": "warjack"},
    {"code": "WC-030", "name": "猟犬コルテックス", "name_en": "Hound Cortex", "kind": "cortex"},
    {"code": "WC-040", "name": "重機関砲", "name_en": "Heavy Cannon", "kind": "weapon"},
    {"code": "WC-100", "name": "バリアフィールド", "name_en": "Barrier Field", "kind": "cypher", "suit": "geometric"},
]

CATALOGS = {
    "hagmi": Catalog.build("hagmi", HAGMI_CARDS, HAGMI_FORMATS),
    "mwda": Catalog.build("mwda", MWDA_CARDS, [{"slug": "tournament-300", "name": "Tournament", "default": True}]),
    "warcaster": Catalog.build("warcaster", WARCASTER_CARDS, [{"slug": "skirmish", "name": "Skirmish"}]),
}


def catalog_for(system):
    return CATALOGS.get(system)


def read(text, system=None):
    return parse_list_text(text, catalog_for, system=system)


def issues_of(text, system=None):
    with pytest.raises(ListFormatError) as caught:
        read(text, system)
    return caught.value.issues


def only_issue(text, system=None):
    issues = issues_of(text, system)
    assert len(issues) == 1, [issue.message for issue in issues]
    return issues[0]


def hagmi_doc(**sections):
    return parse_list_json({"schema": "hangar.list/1", "system": "hagmi", "sections": sections})


# --- reading ---------------------------------------------------------------------------------------------------


def test_reads_headers_sections_and_entries_into_a_normalised_list():
    doc = read("Name: Blue rush\nSystem: hagmi\nFormat: tactics-v4\n\n[兵器]\n2 爆発反応装甲\n\n[作戦]\n2 補給物資\n")
    assert doc == {
        "schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": "Blue rush",
        "sections": {"weapons": [{"card": "HS-003", "qty": 2}], "tactics": [{"card": "HS-001", "qty": 2}],
                     "damage": [], "secret": []},
    }


@pytest.mark.parametrize("line", [
    "2 補給物資", "2x 補給物資", "2 x 補給物資", "2× 補給物資", "2 HS-001", "2 hs-001", "2 Supply Drop",
    "2 supply   DROP", "２ 補給物資", "2 補給物資 (HS-001)", "2 Anything at all (HS-001)", "  2   補給物資  ",
])
def test_entry_spellings_all_mean_the_same_card(line):
    assert read(f"System: hagmi\n[作戦]\n{line}")["sections"]["tactics"] == [{"card": "HS-001", "qty": 2}]


def test_matching_is_width_insensitive():
    assert read("System: hagmi\n[兵器]\n1 ABC砲")["sections"]["weapons"] == [{"card": "HS-023", "qty": 1}]


def test_code_is_matched_before_names():
    # "HS-001" is HS-030's name, but first of all the code of 補給物資
    assert read("System: hagmi\n[作戦]\n1 HS-001")["sections"]["tactics"] == [{"card": "HS-001", "qty": 1}]


@pytest.mark.parametrize("header", ["[兵器]", "[Weapons]", "[weapons]", "[WEAPONS]", "[兵器] 20", "[兵器] (20)",
                                    "兵器", "兵器 (20)", "Weapons", "weapons:", "[ Weapons ]"])
def test_section_header_spellings(header):
    assert read(f"System: hagmi\n{header}\n1 照明弾")["sections"]["weapons"] == [{"card": "HS-002", "qty": 1}]


def test_comments_and_blank_lines_are_ignored():
    text = "# my deck\n// by me\nSystem: hagmi\n\n[作戦]\n# the core\n1 照明弾\n\n   \n// end\n"
    assert read(text)["sections"]["tactics"] == [{"card": "HS-002", "qty": 1}]


def test_options_json_at_the_end_of_an_entry():
    doc = read('System: warcaster\n[Force]\n1 Titan Chassis {"weapons": ["WC-040"], "cortex": "WC-030"}\n')
    assert doc["sections"]["force"] == [
        {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-030", "weapons": ["WC-040"]}}]


def test_a_name_with_braces_is_not_taken_for_options():
    assert read("System: hagmi\n[作戦]\n1 装甲改修 {改}")["sections"]["tactics"] == [{"card": "HS-021", "qty": 1}]


def test_bare_code_in_parentheses_keeps_a_card_the_catalog_does_not_know():
    """A list that uses a removed card keeps its entries (docs/design.md §2.1); validation reports list.unknown_card."""
    assert read("System: hagmi\n[兵器]\n2 (XX-999)")["sections"]["weapons"] == [{"card": "XX-999", "qty": 2}]


def test_system_from_the_argument_when_there_is_no_header():
    assert read("[軍団]\n1 移動司令部", system="mwda")["sections"]["army"] == [{"card": "MW-043", "qty": 1}]


def test_system_header_wins_over_the_argument():
    assert read("System: mwda\n[Army]\n1 Mobile HQ", system="hagmi")["system"] == "mwda"


@pytest.mark.parametrize("written", ["hagmi", "HAGMI!", "Hagmi"])
def test_system_header_accepts_slug_and_name(written):
    assert read(f"System: {written}")["system"] == "hagmi"


@pytest.mark.parametrize("written, slug", [
    ("tactics-v3", "tactics-v3"), ("TACTICS-V3", "tactics-v3"), ("タクティクス (Ver.3)", "tactics-v3"),
    ("Tactics (regulation Ver.3)", "tactics-v3"), ("future-cup", "future-cup"),
])
def test_format_header_by_slug_or_name(written, slug):
    """An unknown slug is kept: validation reports list.unknown_format and the list is still saved."""
    assert read(f"System: hagmi\nFormat: {written}")["format"] == slug


def test_japanese_header_words():
    doc = read("名前：青の突撃\nシステム: hagmi\nフォーマット: tactics-v3")
    assert (doc["name"], doc["system"], doc["format"]) == ("青の突撃", "hagmi", "tactics-v3")


def test_empty_text_with_a_system_is_an_empty_list():
    doc = read("", system="warcaster")
    assert doc["sections"] == {"force": [], "rack": []} and doc["name"] == "" and doc["format"] is None


def test_same_card_twice_is_kept_as_two_entries():
    doc = read("System: hagmi\n[作戦]\n1 補給物資\n1 照明弾\n1 補給物資\n")
    assert [entry["card"] for entry in doc["sections"]["tactics"]] == ["HS-001", "HS-002", "HS-001"]


def test_missing_catalog_still_reads_explicit_codes():
    doc = parse_list_text("System: mwda\n[Army]\n2 (MW-001)", lambda system: None)
    assert doc["sections"]["army"] == [{"card": "MW-001", "qty": 2}]


def test_bytes_are_read_as_utf8():
    assert parse_list_text("System: hagmi\n[作戦]\n1 照明弾".encode(), catalog_for)["sections"]["tactics"]


# --- errors ------------------------------------------------------------------------------------------------------


def test_unknown_name_gives_line_number_and_three_closest_names():
    text = "System: hagmi\n\n[作戦]\n2 補給物資\n\n# typo below\n2 補給物質\n"
    issue = only_issue(text)
    assert issue.line == 7
    assert issue.suggestions[0] == "補給物資 (HS-001)"
    assert len(issue.suggestions) <= 3
    assert issue.message.startswith('line 7: no card named "補給物質" in HAGMI!; did you mean 補給物資 (HS-001)')


def test_suggestions_come_from_english_names_too():
    issue = only_issue("System: hagmi\n[兵器]\n1 Reactive Armour")
    assert issue.suggestions[0] == "Reactive Armor (HS-003)"


def test_three_suggestions_at_most_one_per_card():
    issue = only_issue("System: hagmi\n[兵器]\n1 Armor")
    assert len(issue.suggestions) == 3
    assert len({suggestion.rsplit("(", 1)[1] for suggestion in issue.suggestions}) == 3


def test_ambiguous_name_asks_for_the_code():
    issue = only_issue("System: hagmi\n[兵器]\n2 双子の砲台")
    assert issue.line == 3
    assert "2 cards are named \"双子の砲台\"" in issue.message and "HS-010, HS-011" in issue.message
    assert issue.suggestions == ["双子の砲台 (HS-010)", "双子の砲台 (HS-011)"]
    assert read("System: hagmi\n[兵器]\n2 Twin Battery (hs-011)")["sections"]["weapons"] == [
        {"card": "HS-011", "qty": 2}]


@pytest.mark.parametrize("qty", ["0", "-1", "1000", "1000000000"])
def test_out_of_range_quantity_names_the_line(qty):
    issue = only_issue(f"System: hagmi\n[作戦]\n1 照明弾\n{qty} 補給物資")
    assert issue.line == 4
    assert issue.message == f"line 4: quantity must be from 1 to 999, got {qty}"


@pytest.mark.parametrize("line", ["two 補給物資", "補給物資", "2補給物資"])
def test_entry_without_a_quantity_names_the_line(line):
    issue = only_issue(f"System: hagmi\n[作戦]\n{line}")
    assert issue.line == 3 and "an entry starts with a quantity from 1 to 999" in issue.message


def test_huge_quantity_is_refused_and_shortened_in_the_message():
    assert only_issue("System: hagmi\n[作戦]\n" + "9" * 3000 + " 補給物資").message == (
        "line 3: quantity must be from 1 to 999, got 999999999999…")


def test_quantity_without_a_name():
    assert only_issue("System: hagmi\n[作戦]\n2").message == "line 3: missing card name after the quantity"


def test_line_before_any_section_header():
    issue = only_issue("System: hagmi\n2 補給物資\n[作戦]\n1 照明弾")
    assert issue.line == 2 and "before any section header" in issue.message


def test_unknown_header_before_the_sections():
    issue = only_issue("Author: me\nSystem: hagmi\n[作戦]\n1 照明弾")
    assert (issue.line, issue.message) == (
        1, 'line 1: unknown header "Author"; headers are Name:, System: and Format:, then come the sections')


def test_header_after_the_first_section():
    assert only_issue("System: hagmi\n[作戦]\nName: late").message == (
        "line 3: headers (Name:, System:, Format:) must come before the first section")


def test_duplicate_header():
    assert only_issue("Name: a\nName: b\nSystem: hagmi").message == (
        "line 2: a second Name: header (the first is on line 1)")


def test_unknown_section_lists_the_valid_ones():
    issue = only_issue("System: hagmi\n[Army]\n1 照明弾")
    assert issue.line == 2
    assert "unknown section [Army] for HAGMI!" in issue.message and "[秘策] / [Secret]" in issue.message


def test_no_system_anywhere():
    issue = only_issue("[作戦]\n1 照明弾")
    assert issue.line is None and 'no system given: start the text with a line such as "System: hagmi"' in issue.message


def test_unknown_system_header():
    issue = only_issue("System: chess\n[作戦]\n1 照明弾")
    assert issue.line == 1 and 'unknown system "chess"' in issue.message


def test_unknown_system_argument():
    assert 'unknown system "chess"' in only_issue("[作戦]\n1 照明弾", system="chess").message


def test_format_that_is_neither_slug_nor_name():
    issue = only_issue("System: hagmi\nFormat: my own rules")
    assert issue.line == 2 and "tactics-v4, tactics-v3" in issue.message


def test_bad_options_json():
    issue = only_issue('System: warcaster\n[Force]\n1 Titan Chassis {"cortex": WC-030}')
    assert issue.line == 3 and "not a JSON object" in issue.message


def test_known_name_with_unknown_code_is_refused():
    issue = only_issue("System: hagmi\n[作戦]\n1 補給物資 (HS-999)")
    assert 'no card with code "HS-999"' in issue.message and issue.suggestions[0] == "補給物資 (HS-001)"


def test_parentheses_that_cannot_be_a_code():
    assert "is not a card code" in only_issue("System: hagmi\n[作戦]\n1 (two words)").message


def test_every_problem_is_collected_in_line_order():
    text = "System: hagmi\n[作戦]\n0 照明弾\n1 補給物質\n1 照明弾\nx\n[Army]\n"
    assert [issue.line for issue in issues_of(text)] == [3, 4, 6, 7]


def test_too_many_entries_is_one_issue_and_reading_stops():
    text = "System: hagmi\n[作戦]\n" + "1 照明弾\n" * (MAX_ENTRIES + 5) + "0 nothing\n"
    issue = only_issue(text)
    assert issue.line == MAX_ENTRIES + 3 and f"at most {MAX_ENTRIES}" in issue.message


def test_issues_are_capped_at_fifty():
    with pytest.raises(ListFormatError) as caught:
        read("System: hagmi\n[作戦]\n" + "1 nothing-like-it\n" * 200)
    assert len(caught.value.issues) == 50 and caught.value.total == 200
    assert "(and 199 more problems; the first 50 are listed)" in caught.value.to_dict()["message"]


def test_overlong_line_is_refused():
    assert "longer than" in only_issue("System: hagmi\n[作戦]\n1 " + "{" * 5000 + "}").message


# --- writing ---------------------------------------------------------------------------------------------------


def test_export_writes_headers_non_empty_sections_and_japanese_names():
    doc = parse_list_json({
        "schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": "Blue rush",
        "sections": {"weapons": [{"card": "HS-003", "qty": 2}], "secret": [{"card": "HS-010", "qty": 1}]},
    })
    assert export_list_text(doc, CATALOGS["hagmi"]) == (
        "Name: Blue rush\nSystem: hagmi\nFormat: tactics-v4\n\n[兵器]\n2 爆発反応装甲\n\n[秘策]\n1 双子の砲台 (HS-010)\n")


def test_export_in_english():
    doc = hagmi_doc(tactics=[{"card": "HS-001", "qty": 2}], damage=[{"card": "HS-005", "qty": 1}])
    assert export_list_text(doc, CATALOGS["hagmi"], lang="en") == (
        "System: hagmi\n\n[Tactics]\n2 Supply Drop\n\n[Damage]\n1 不退転\n")


def test_export_writes_unknown_codes_and_options():
    doc = parse_list_json({"schema": "hangar.list/1", "system": "warcaster", "sections": {
        "force": [{"card": "WC-010", "qty": 1, "options": {"weapons": ["WC-040"], "cortex": "WC-030"}},
                  {"card": "WC-010", "qty": 1, "options": {"note": "x", "cortex": "WC-030"}},
                  {"card": "WC-999", "qty": 1}]}})
    assert export_list_text(doc, CATALOGS["warcaster"]).splitlines()[2:] == [  # a loadout in words
        "[フォース]", "1 タイタン級シャーシ", "  コルテックス: 猟犬コルテックス", "  武器: 重機関砲",
        '1 タイタン級シャーシ {"cortex": "WC-030", "note": "x"}', "1 (WC-999)"]


def test_export_rejects_a_catalog_of_another_system_and_unknown_lang():
    with pytest.raises(ValueError):
        export_list_text(hagmi_doc(), CATALOGS["mwda"])
    with pytest.raises(ValueError):
        export_list_text(hagmi_doc(), CATALOGS["hagmi"], lang="fr")


# --- round trip ------------------------------------------------------------------------------------------------


def round_trip(doc, lang):
    text = export_list_text(doc, CATALOGS[doc["system"]], lang=lang)
    return parse_list_text(text, catalog_for)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_round_trip_of_every_tricky_hagmi_card(lang):
    """Names with spaces, parentheses, braces, a code as a name, shared names, unknown codes, options."""
    entries = [{"card": card["code"], "qty": 1 + i} for i, card in enumerate(HAGMI_CARDS)]
    entries += [{"card": "XX-999", "qty": 3}, {"card": "hs-001x", "qty": 1},
                {"card": "HS-002", "qty": 1, "options": {"note": "a } b {", "n": [1, {"x": None}]}},
                {"card": "HS-002", "qty": 1, "options": {}}]
    doc = parse_list_json({"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v3",
                           "name": "  (Blue) rush: {v2}  ", "sections": {"secret": entries}})
    assert round_trip(doc, lang) == doc


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("system", ["hagmi", "mwda", "warcaster"])
def test_round_trip_of_random_lists_in_every_system(system, lang):
    rng = random.Random(f"{system}-{lang}")
    codes = list(CATALOGS[system].cards) + ["ZZ-001", "Q-7"]
    formats = [None, *CATALOGS[system].formats, "unknown-fmt"]
    from cards.systems import SYSTEMS

    for _ in range(40):
        sections = {}
        for section in SYSTEMS[system]["sections"]:
            sections[section] = []
            for _ in range(rng.choice([0, 0, 1, 3, 8])):
                entry = {"card": rng.choice(codes), "qty": rng.choice([1, 2, 3, 999])}
                if rng.random() < 0.3:
                    entry["options"] = {"cortex": rng.choice(codes), "weapons": rng.sample(codes, 2)}
                sections[section].append(entry)
        doc = parse_list_json({"schema": "hangar.list/1", "system": system, "format": rng.choice(formats),
                               "name": rng.choice(["", "Blue rush", "青 の 突撃", "x (y) {z}"]), "sections": sections})
        assert round_trip(doc, lang) == doc


def test_round_trip_of_an_empty_list_keeps_every_section():
    for system in CATALOGS:
        doc = parse_list_json({"schema": "hangar.list/1", "system": system, "sections": {}})
        assert round_trip(doc, "ja") == doc


def test_every_problem_has_its_words_in_japanese_too():
    """A page shows an importer problem in its own language (ListIssue.words), said once: the English
    message of the API is unchanged, the page's words have no "line N:" and no "did you mean", the Japanese no
    English sentence."""
    from builder.listio.messages import TEMPLATES
    texts = [
        "System: hagmi\n[兵器]\n2 補給物質\n",  # no such card, with suggestions
        "System: hagmi\n[兵器]\ntwo 補給物資\n",  # not an entry
        "System: hagmi\n[兵器]\n0 補給物資\n",  # quantity
        'System: hagmi\n[兵器]\n1 補給物資 {"a": 1e999}\n',  # options
        "System: hagmi\n[Army]\n1 補給物資\n",  # unknown section
        "System: nope\n",  # unknown system
        "Name: a\nName: b\nSystem: hagmi\n",  # header twice
        "Colour: blue\n",  # unknown header
        "System: hagmi\nFormat: tactics-v9 x\n",  # not a format
        "System: hagmi\n2 補給物資\n",  # entry before any section
        "System: hagmi\n[兵器]\nFormat: tactics-v4\n",  # header after a section
    ]
    seen = set()
    for text in texts:
        with pytest.raises(ListFormatError) as raised:
            read(text)
        for issue in raised.value.issues:
            assert issue.code in TEMPLATES, issue
            seen.add(issue.code)
            japanese, english = issue.words("ja"), issue.words("en")
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese), japanese
            assert not re.search(r"\b(?:line|must|got|unknown|did you mean)\b", japanese), japanese
            assert english and not re.search(r"[\u3040-\u30ff]", english.replace("補給物資", "")), english
            assert not english.startswith("line ") and "did you mean" not in english
    assert len(seen) >= 10
