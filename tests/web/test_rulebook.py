"""The rules pages' "How the simulator plays": the game rules of docs/rules.md, the engine's own account of them
(docs/engine-<system>.md) and its options, read from the docs so that the site and the docs never disagree."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from builder import rulebook
from builder.templatetags.hangar import inline_markdown

pytestmark = pytest.mark.django_db

GAME_RULE_IDS = {
    "hagmi": ["H10", "H11", "H12", "H13", "H20", "H21", "H22", "H23", "H24", "H30", "H31", "H32", "H33"],
    "mwda": ["M10", "M11", "M12", "M13", "M14", "M15", "M16", "M17"],
    "warcaster": ["W10", "W11", "W12", "W13", "W14", "W15", "W16"],
}


def _simulator_part(page: str) -> str:
    return page[page.index('<h2 id="simulator">'):]


@pytest.mark.parametrize("system", sorted(GAME_RULE_IDS))
def test_rules_page_shows_every_game_rule_the_engine_plays(catalog, system):
    """Every game rule ID of RULES.md's engine sections (H10-H33, M10-M17, W10-W16) is on its rules page, with an
    anchor, below the construction table."""
    page = _simulator_part(Client().get(f"/rules/{system}/").content.decode())
    for rule in GAME_RULE_IDS[system]:
        assert f'<li id="{rule}">' in page, rule
    assert page.count(' id="') == len(set(re.findall(r' id="([^"]+)"', page)))  # no anchor twice


@pytest.mark.parametrize(("system", "option", "default"), [
    ("hagmi", "opening_split", "2/2"), ("mwda", "breakaway_target", "4"), ("warcaster", "blast_damage", "half_pow"),
])
def test_rules_page_lists_the_engine_options_with_defaults(catalog, system, option, default):
    page = _simulator_part(Client().get(f"/rules/{system}/").content.decode())
    row = re.search(rf'<tr><th scope="row"><code>{option}</code></th><td[^>]*><code>([^<]*)</code></td>', page)
    assert row and row.group(1) == default


def test_warcaster_engine_interpretations_are_marked(catalog):
    """W16 victory and the engine's cover rule are interpretations; W12 strafe is stated by seed 003."""
    page = _simulator_part(Client().get("/rules/warcaster/").content.decode())
    w16 = page[page.index('<li id="W16">'):]
    assert w16[:w16.index("</li>")].count('class="badge interp"') == 1
    w12 = page[page.index('<li id="W12">'):]
    assert 'class="badge interp"' not in w12[:w12.index("</li>")]
    engine = page[page.index('<h3 id="engine">'):page.index('<h3 id="engine-options">')]
    cover = engine[engine.index("<strong>Cover</strong>"):]
    assert 'class="badge interp"' in cover[:cover.index("</li>")]


def test_sub_points_and_wrapped_lines_are_kept():
    """H11's four exchange cases and W15's five effects are sub-points; wrapped bullet lines join their bullet."""
    hagmi = {item.id: item for section in rulebook.game_sections("hagmi") for item in section.items}
    assert len(hagmi["H11"].sub) == 4 and len(hagmi["H30"].sub) == 8
    warcaster = {item.id: item for section in rulebook.game_sections("warcaster") for item in section.items}
    assert [point.split(" ")[0] for point in warcaster["W15"].sub] == [
        "Fire", "Corrosion", "Lockdown", "System", "Tune"]
    w14 = next(item for item in rulebook.engine_rules("warcaster") if item.id == "W14")
    assert w14.text.endswith("no after-attack rules.")  # the bullet's fourth line


def test_inline_markdown_escapes_everything_but_bold_code_and_emphasis():
    assert inline_markdown('<b>x</b> **y & z** `a<b>` *em* 2 * 3') == (
        "&lt;b&gt;x&lt;/b&gt; <strong>y &amp; z</strong> <code>a&lt;b&gt;</code> <em>em</em> 2 * 3")


def test_simulator_section_is_translated(catalog):
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/rules/warcaster/").content.decode()
    assert "シミュレーターの対戦ルール" in page and "エンジンのオプション" in page
