"""Every vocabulary the pages show has its words in both languages (rules_engine/<game>/vocabulary.py).

The values come from the bundled packages themselves (cards/packages/*/*.json), so a new faction, frame, type,
skill trigger or effect kind in a package fails here until it has its Japanese and English words: the Japanese
label is Japanese and differs from the slug, the English label is English and no slug. Skills and effects are
written as sentences with their numbers (each game's rules_engine/<game>/cardtext.py, builder/web/cardtext.py), never
as `refuel (on_play)`.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from builder.forms import ORDERING_CHOICES
from builder.models import Visibility
from builder.selectors import DIFF_FIELDS
from builder.web import cardtext, vocabulary
from builder.web.presenters import diff_field_rows
from cards.selectors import CARD_ORDERINGS
from rules_engine.hagmi import cardtext as hagmi_cardtext
from rules_engine.warcaster import cardtext as warcaster_cardtext
from rules_engine.warcaster.construction import FACTION_NAMES

PACKAGES = sorted(Path(__file__).resolve().parents[2].glob("cards/packages/*/*.json"))
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)+")  # iron-star-alliance, hero_attachment, tactics-v4


def cards(system: str) -> list[dict[str, Any]]:
    found = []
    for path in PACKAGES:
        package = json.loads(path.read_text(encoding="utf-8"))
        if package.get("system") == system:
            found += package["cards"]
    assert found, f"no bundled package of {system}"
    return found


def hagmi_skills() -> Iterator[dict[str, Any]]:
    """Every skill and effect of the HAGMI package: skills, a beast's bounty, a mothership's attrition effects."""
    for card in cards("hagmi"):
        yield from card.get("skills") or []
        if card.get("bounty"):
            yield card["bounty"]
        for step in card.get("attrition") or []:
            yield from step.get("effects") or []


def used_values() -> Iterator[tuple[str, str, str]]:
    """(system, field, value) of every vocabulary value the bundled packages use."""
    for card in cards("hagmi"):
        for field in ("category", "subtype", "frame", "targets", "terrain"):
            if isinstance(card.get(field), str):
                yield "hagmi", field, card[field]
        for unit_type in card.get("types") or []:
            yield "hagmi", "type", unit_type
    for skill in hagmi_skills():
        if skill.get("trigger"):
            yield "hagmi", "trigger", skill["trigger"]
        for field in ("target", "duration", "deck"):
            if skill.get(field):
                yield "hagmi", field, skill[field]
        for field in ("source", "from", "to"):
            if field == "source" and skill.get("kind") == "refit":  # refit's source is a unit (self / friendly)
                continue
            values = skill.get(field)
            for value in values if isinstance(values, list) else [values] if values else []:
                yield "hagmi", "source", value
        for unit_type in (skill.get("condition") or {}).get("target_types") or []:
            yield "hagmi", "type", unit_type
    for card in cards("mwda"):
        for field in ("kind", "faction", "rank", "base"):
            if card.get(field):
                yield "mwda", field, card[field]
        for slot in ("primary", "secondary"):
            if card.get(slot):
                yield "mwda", "damage_type", card[slot]["damage_type"]
        for ability in card.get("abilities") or []:
            yield "mwda", "ability", ability
    for card in cards("warcaster"):
        for field in ("kind", "faction", "suit", "cypher_type"):
            if card.get(field):
                yield "warcaster", field, card[field]
        if card.get("type"):
            yield "warcaster", "weapon_type", card["type"]
        for stat in card.get("stats") or {}:
            yield "warcaster", "stat", stat
        for quality in card.get("qualities") or []:
            yield "warcaster", "quality", quality
        for item in (card.get("weapons") or []) + (card.get("effects") or []) + (card.get("abilities") or []):
            for quality in item.get("qualities") or []:
                yield "warcaster", "quality", quality
            if item.get("type"):
                yield "warcaster", "weapon_type", item["type"]
            for field in ("target", "trigger", "duration", "stat"):
                if item.get(field):
                    yield "warcaster", field, item[field]
            for effect in ([item["effect"]] if item.get("effect") else []) + list(item.get("effects") or []):
                yield "warcaster", "effect", effect


VALUES = sorted(set(used_values()))


def words(system: str, field: str, value: str, language: str) -> str:
    with translation.override(language):
        return vocabulary.label(system, field, value)


@pytest.mark.parametrize("system, field, value", VALUES, ids=[f"{s}.{f}.{v}" for s, f, v in VALUES])
def test_every_value_the_packages_use_has_words_in_both_languages(system, field, value):
    japanese, english = words(system, field, value, "ja"), words(system, field, value, "en")
    if not (system == "hagmi" and field == "targets" and value.startswith("multi-")):  # "最大2体" from "multi-2"
        table = vocabulary.words(system, field)
        assert value in table, f"{system}.{field}: no words for {value!r} (rules_engine/<game>/vocabulary.py)"
    # a Japanese value (HAGMI's unit types are written in Japanese) is its own Japanese word
    assert JAPANESE.search(japanese) and (japanese != value or JAPANESE.search(value)), (japanese, value)
    assert not JAPANESE.search(english) and english != value and not SLUG.fullmatch(english), (english, value)


def test_the_vocabularies_of_the_lists_and_the_catalog_have_words():
    for value in Visibility.values:
        assert JAPANESE.search(words("*", "visibility", value, "ja")) and words("*", "visibility", value, "en") != value
    for field in DIFF_FIELDS:
        assert JAPANESE.search(words("*", "diff_field", field, "ja")), field
    assert [key for key, _label in ORDERING_CHOICES] == [*CARD_ORDERINGS, *(f"-{key}" for key in CARD_ORDERINGS)]
    with translation.override("ja"):
        assert [str(label) for _key, label in ORDERING_CHOICES] == [
            "コード", "名前", "コスト", "コード（降順）", "名前（降順）", "コスト（降順）"]
    with translation.override("en"):
        assert str(dict(ORDERING_CHOICES)["-cost"]) == "Cost, descending"


@pytest.mark.django_db
def test_a_history_diff_names_its_fields_and_values_in_words(catalog):
    """Once a bug: "visibility: private → public", "notes: – → …" on a Japanese page."""
    diff = {"fields": {"visibility": {"from": "private", "to": "public"}, "notes": {"from": "", "to": "Tuned."},
                       "format": {"from": "tactics-v3", "to": "no-such-format"}}}
    with translation.override("ja"):
        rows = diff_field_rows(diff, "hagmi")
    assert rows[0] == {"label": "公開範囲", "from": "非公開", "to": "公開"}
    assert rows[1] == {"label": "メモ", "from": "", "to": "Tuned."}
    assert rows[2] == {"label": "フォーマット", "from": "タクティクス (Ver.3)", "to": "no-such-format"}  # by its name
    with translation.override("en"):
        assert diff_field_rows(diff, "hagmi")[0] == {"label": "Visibility", "from": "Private", "to": "Public"}


def test_the_engine_names_warcaster_factions_with_the_pages_words():
    """W6's message and the pages say the same faction names (rules_engine has no Django, so it has its own table)."""
    for slug, label in FACTION_NAMES.items():
        assert label.en == words("warcaster", "faction", slug, "en")
        assert label.ja == words("warcaster", "faction", slug, "ja")


# --- skills and effects in words, with their numbers -------------------------------------------------------------

def _numbers(item: dict[str, Any]) -> set[str]:
    return {str(item[key]) for key in ("amount", "count", "max_cost", "max_armor", "max_damage", "rng", "pow",
                                       "distance", "range", "area")
            if isinstance(item.get(key), int) and not isinstance(item.get(key), bool)}


def _said(text: str, item: dict[str, Any], language: str) -> None:
    kind = str(item.get("kind"))
    assert text and text != vocabulary.humanise(kind), (kind, text)
    assert "_" not in text and "(" + str(item.get("trigger")) + ")" not in text, text
    for number in _numbers(item):
        assert number in text, (number, text)
    if language == "en":
        assert not JAPANESE.search(text), text
    else:
        assert JAPANESE.search(text), text


@pytest.mark.parametrize("language", ["ja", "en"])
def test_every_hagmi_skill_kind_is_a_sentence_with_its_numbers(language):
    """「攻撃時、燃料2以上なら火力+1」, not `firepower_mod (on_attack)`: each skill in words, without its own text."""
    kinds = set()
    with translation.override(language):
        for skill in hagmi_skills():
            bare = {key: value for key, value in skill.items() if key not in ("text", "text_en")}
            kinds.add(bare["kind"])
            _said(hagmi_cardtext.effect_text(bare), bare, language)
            line = hagmi_cardtext.skill_line(bare)
            assert line["title"] or bare.get("trigger") is None, line
            if bare.get("condition", {}).get("min_fuel"):
                assert str(bare["condition"]["min_fuel"]) in line["text"], line
    assert {"refuel", "firepower_mod", "deal_damage", "draw", "summon_beast", "refit"} <= kinds


def test_the_on_attack_fuel_skill_reads_as_the_issue_asks():
    skill = {"kind": "firepower_mod", "trigger": "on_attack", "amount": 1, "target": "self", "duration": "attack",
             "condition": {"min_fuel": 2}}
    with translation.override("en"):
        line = hagmi_cardtext.skill_line(skill)
    assert line["title"] == "On attack"
    assert line["text"] == "If this unit holds at least 2 fuel: this unit gets firepower +1 for this attack."
    with translation.override("ja"):
        line = hagmi_cardtext.skill_line(skill)
    assert line["title"] == "攻撃時" and "燃料が2以上なら" in line["text"] and "火力+1" in line["text"]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_every_warcaster_effect_and_ability_is_a_sentence_with_its_numbers(language):
    with translation.override(language):
        for card in cards("warcaster"):
            for effect in card.get("effects") or []:
                _said(warcaster_cardtext.effect_text(effect), effect, language)
            for ability in card.get("abilities") or []:
                bare = {key: value for key, value in ability.items() if key not in ("text", "text_en")}
                line = warcaster_cardtext.ability_line(bare)
                _said(line["text"], bare, language)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_every_card_of_every_game_is_described_without_a_slug(language):
    """The facts and lines of each bundled card (what the card pages and the picker show) hold no slug and no
    word of the other language (card, pilot and weapon names are data and may be either)."""
    with translation.override(language):
        for system in ("hagmi", "mwda", "warcaster"):
            for card in cards(system):
                described = cardtext.describe(system, card, page=True)
                data = {card.get("name"), card.get("name_en"), card.get("pilot")}
                for label, value in described["facts"]:
                    for text in (label, value):
                        assert not SLUG.fullmatch(str(text)) or str(text).isdigit(), (card["code"], text)
                        if language == "en" and text not in data:
                            assert not JAPANESE.search(str(text)), (card["code"], text)
                for line in described["lines"]:
                    assert "_" not in line["text"], (card["code"], line)
                    if language == "en" and not (card.get("text_en") or line["title"] in data):
                        assert not JAPANESE.search(line["text"]), (card["code"], line)
