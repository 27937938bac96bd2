"""The rules pages' "How the simulator plays": the game rules of docs/rules.md, the engine's own account of them
(docs/engine-<system>.md) and its options, read from the docs so that the site and the docs never disagree."""
from __future__ import annotations

import re
from html.parser import HTMLParser

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
    ("hagmi", "opening_split", "2/2"), ("mwda", "breakaway_target", "4"), ("warcaster", "blast_damage", "damage_roll"),
])
def test_rules_page_lists_the_engine_options_with_defaults(catalog, system, option, default):
    page = _simulator_part(Client().get(f"/rules/{system}/").content.decode())
    row = re.search(rf'<tr><th scope="row"><code>{option}</code></th><td[^>]*><code>([^<]*)</code></td>', page)
    assert row and row.group(1) == default


def test_warcaster_engine_interpretations_are_marked(catalog):
    """W16 victory and the engine's cover rule are interpretations; W12 strafe is stated by seed 003."""
    page = _simulator_part(Client().get("/rules/warcaster/").content.decode())
    w16 = page[page.index('<li id="W16">'):]
    assert w16[:w16.index("</li>")].count('class="badge src interp"') == 1
    w12 = page[page.index('<li id="W12">'):]
    w12 = w12[:w12.index("</li>")]
    assert 'class="badge src interp"' not in w12 and 'class="badge src seed"' in w12
    engine = page[page.index('<h3 id="engine">'):page.index('<h3 id="engine-options">')]
    cover = engine[engine.index("<strong>Cover</strong>"):]
    assert 'class="badge src interp"' in cover[:cover.index("</li>")]


def test_sub_points_and_wrapped_lines_are_kept():
    """H11's four exchange cases and W15's five effects are sub-points; wrapped bullet lines join their bullet."""
    hagmi = {item.id: item for section in rulebook.game_sections("hagmi") for item in section.items}
    assert len(hagmi["H11"].sub) == 4 and len(hagmi["H30"].sub) == 8
    warcaster = {item.id: item for section in rulebook.game_sections("warcaster") for item in section.items}
    assert [point.split(" ")[0] for point in warcaster["W15"].sub] == [
        "Fire", "Corrosion", "Lockdown", "System", "Tune"]
    w14 = next(item for item in rulebook.engine_rules("warcaster") if item.id == "W14")
    assert w14.text.endswith("no after-attack rules.")  # the bullet's fourth line


def test_inline_markdown_filter_renders_markdown_and_escapes_html():
    """The template filter is builder.web.markdown's inline renderer (tests/web/test_markdown.py: the rest)."""
    assert inline_markdown('<b>x</b> **y & z** `a<b>` *em* 2 * 3') == (
        "&lt;b&gt;x&lt;/b&gt; <strong>y &amp; z</strong> <code>a&lt;b&gt;</code> <em>em</em> 2 * 3")


def test_simulator_section_is_translated(catalog):
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/rules/warcaster/").content.decode()
    assert "シミュレーターの対戦ルール" in page and "エンジンのオプション" in page


# --- what a player reads: no raw Markdown, source tags as badges, no API code in the table -------------

class _Text(HTMLParser):
    """The page's text outside <code>, <pre>, <script>, <style> and <title>; and the text of one element by id."""

    SKIP = {"code", "pre", "script", "style", "title"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def _text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def _between(page: str, start: str, end: str) -> str:
    return page[page.index(start):page.index(end, page.index(start))]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("system", sorted(GAME_RULE_IDS))
def test_no_raw_markdown_or_bracket_tag_reaches_the_rules_page(catalog, system, language):
    """`**2**`, `**warning**`, backticks and [seed 000] / [public] / [interpretation …] never show as raw text."""
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/rules/{system}/").content.decode()
    text = _text(page[page.index("<main"):])
    assert "**" not in text and "`" not in text
    assert not re.search(r"\[(seed \d{3}|public|interpretation)\b", text)
    if system == "hagmi":  # H4's **2**, rendered
        assert ("At most <strong>2</strong> copies" if language == "en" else "<strong>2</strong> 枚まで") in page


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("system", sorted(GAME_RULE_IDS))
def test_the_construction_table_shows_no_api_code(catalog, system, language):
    """A violation code (`hagmi.copies`, `list.unknown_card`) is a slug to a player: the table has none; the codes
    are in the labelled "API codes" details below it."""
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/rules/{system}/").content.decode()
    table = _between(page, '<table class="rules construction', "</table>")
    assert not re.search(r"\b[a-z]+\.[a-z_]+\b", re.sub(r"<[^>]+>", " ", table)), table
    codes = _between(page, '<details class="api-codes">', "</details>")
    assert "<code>list.unknown_card</code>" in codes and f"<code>{system}." in codes


@pytest.mark.parametrize(("language", "seed", "words"), [
    ("en", "source: seed text 000", ["public", "interpretation", "option"]),
    ("ja", "出典：種テキスト000", ["公開情報", "解釈", "オプション"]),
])
def test_the_rules_page_has_a_legend_of_its_badges(catalog, language, seed, words):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/hagmi/").content.decode()
    legend = _between(page, '<section class="src-legend"', "</section>")
    found = re.findall(r'<span class="badge src \w+" title="([^"]+)"><span class="src-word">([^<]+)</span></span></dt>'
                       r'<dd>([^<]+)</dd>', legend)
    assert [badge for _title, badge, _meaning in found] == [seed, *words]
    assert all(title == meaning for title, _badge, meaning in found)  # the tooltip and the legend say the same


def test_the_japanese_page_reads_the_japanese_rules_and_says_nothing_of_english(catalog):
    """docs/ja/ has every rules text: the Japanese page has no "the texts are in English" note, the English page
    neither."""
    for language in ("ja", "en"):
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/warcaster/").content.decode()
        assert 'class="rules-language-note' not in page and "参照ルール（英語）" not in page, language


def test_a_document_without_its_japanese_text_is_shown_in_english_and_said_so(catalog, tmp_path, monkeypatch):
    """An engine document not yet in docs/ja/ is read in English on the Japanese page, and the page says so above
    it; the rules it does have in Japanese are shown in Japanese."""
    (tmp_path / "rules.md").write_text((rulebook.DOCS_JA / "rules.md").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(rulebook, "DOCS_JA", tmp_path)
    for cached in (rulebook.rule_texts, rulebook.game_sections, rulebook.engine_rules, rulebook.engine_options):
        cached.cache_clear()
    try:
        page = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/rules/hagmi/").content.decode()
    finally:
        for cached in (rulebook.rule_texts, rulebook.game_sections, rulebook.engine_rules, rulebook.engine_options):
            cached.cache_clear()
    assert page.count('class="rules-language-note engine-language-note"') == 1
    assert "兵器デッキは20枚以上" in page  # H1 from docs/ja/rules.md
    engine = page[page.index('<h3 id="engine">'):]
    assert "An emergency window" in engine  # docs/engine-hagmi.md, in English


@pytest.mark.parametrize("system", sorted(GAME_RULE_IDS))
def test_each_page_renders_the_rules_in_its_own_language(catalog, system):
    """The Japanese page shows docs/ja/rules.md and docs/ja/engine-<system>.md, the English page docs/rules.md
    and docs/engine-<system>.md: each rule's text is the one of its language's document."""
    def texts(language: str) -> dict[str, str]:
        return {item.id: " ".join((item.title, item.text, *item.sub))
                for section in rulebook.game_sections(system, language) for item in section.items}

    for language, other in (("ja", "en"), ("en", "ja")):
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/rules/{system}/").content.decode()
        for rule in GAME_RULE_IDS[system]:
            item = page[page.index(f'<li id="{rule}">'):]
            shown = _text(item[:item.index("</li>")])
            words = _words(texts(language)[rule])
            assert words and all(word in shown for word in words[:3]), (language, rule, words[:3])
            if language == "ja":  # not the English text (the English one quotes the seeds' Japanese: not checked)
                english = [word for word in _words(texts(other)[rule]) if word.isascii()][:3]
                assert english and not all(word in shown for word in english), (rule, english)
        table = _text(page[page.index('<h3 id="engine-options">'):])
        for option in rulebook.engine_options(system, language)[:3]:
            words = _words(option.meaning)
            assert words and all(word in table for word in words[:2]), (language, option.names, words[:2])


def _words(markdown: str) -> list[str]:
    """Runs of 4+ Japanese characters or 5+ Latin letters of a text, without its code and source tags."""
    return re.findall(r"[\u3040-\u30ff\u3400-\u9fff]{4,}|[A-Za-z]{5,}", re.sub(r"`[^`]*`|\[[^]]*\]", "", markdown))


def _ids(text: str) -> list[str]:
    return re.findall(r"\*\*([HMW]\d+)\b", text)


def _option_names(text: str) -> list[str]:
    return re.findall(r"(?i:options?|オプション) `([^`]+)`", text)


def test_the_japanese_rules_have_every_rule_id_option_and_heading_of_the_english_ones():
    """docs/ja/rules.md cannot drift from docs/rules.md: the same rule IDs (H1…, M1…, W1…) in the same order, the
    same `option` names in the same order, the same number of headings, and every code span of the English text."""
    english = (rulebook.DOCS / "rules.md").read_text(encoding="utf-8")
    japanese = (rulebook.DOCS_JA / "rules.md").read_text(encoding="utf-8")
    assert _ids(english) and _ids(japanese) == _ids(english)
    assert _option_names(japanese) == _option_names(english)
    for marker in ("## ", "### "):
        assert len(re.findall(rf"^{marker}", japanese, re.M)) == len(re.findall(rf"^{marker}", english, re.M))
    assert set(re.findall(r"`([^`]+)`", english)) <= set(re.findall(r"`([^`]+)`", japanese))
    for system in GAME_RULE_IDS:  # what the page reads: the same sections and rules
        assert [s.items and [i.id for i in s.items] for s in rulebook.game_sections(system, "ja")] == [
            s.items and [i.id for i in s.items] for s in rulebook.game_sections(system, "en")]
        assert rulebook.rule_texts("ja").keys() == rulebook.rule_texts("en").keys()


@pytest.mark.parametrize("system", sorted(GAME_RULE_IDS))
def test_the_japanese_engine_documents_have_every_rule_id_and_option_of_the_english_ones(system):
    """docs/ja/engine-<system>.md has the engine's rules (the same rule IDs in the same order, the same number of
    statements) and its options table (the same option names and defaults in the same order), and every option
    named in the English statements."""
    english, japanese = rulebook.engine_rules(system, "en"), rulebook.engine_rules(system, "ja")
    assert [item.id for item in japanese] == [item.id for item in english]
    assert [bool(item.interpretation) for item in japanese] == [bool(item.interpretation) for item in english]
    assert [(o.names, o.default) for o in rulebook.engine_options(system, "ja")] == [
        (o.names, o.default) for o in rulebook.engine_options(system, "en")]
    def spans(item: rulebook.RuleItem) -> set[str]:
        return set(re.findall(r"`([^`]+)`", " ".join((item.title, item.text, *item.sub))))

    for item_en, item_ja in zip(english, japanese, strict=True):
        assert spans(item_en) <= spans(item_ja), (item_en.id or item_en.title, spans(item_en) - spans(item_ja))


@pytest.mark.parametrize(("language", "line"), [
    ("en", "Minimum cards in the Weapons deck: <strong>20</strong>"),
    ("ja", "兵器デッキの最低枚数: <strong>20</strong>"),
    ("ja", "秘策の枚数計算でダメージデッキをメインデッキに含める: <strong>いいえ</strong>"),
])
def test_the_format_options_are_in_words(catalog, language, line):
    """No `min_weapons = 20`, no `False` on the page: the options in words; the package file's keys under a
    labelled details."""
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/hagmi/").content.decode()
    formats = _between(page, '<ul class="format-options">', "</details>")
    assert line in formats
    assert not re.search(r"\w+ = \w+|\bFalse\b|\bTrue\b", _text(formats))
    assert '"secret_counts_damage_deck": false' in formats  # as written in the package file, in <pre><code>


def test_the_english_page_reads_the_game_terms_in_english_the_japanese_page_in_japanese(catalog):
    """docs/rules.md writes 兵器, 作戦, 秘策, 機獣 in its English texts; an English player reads Weapons, Tactics,
    Secret, beast (a gloss such as "fuel (燃料)" stays); the Japanese page keeps the Japanese terms and translates the
    headings."""
    english = Client().get("/rules/hagmi/").content.decode()
    text = _text(english[english.index('<h2 id="simulator">'):])
    for term in ("兵器", "作戦", "秘策", "機獣"):
        assert not re.search(rf"(?<![\u3040-\u30ff\u3400-\u9fff(]){term}(?![\u3040-\u30ff\u3400-\u9fff)])", text), term
    assert "shuffles the Weapons, Tactics and damage decks separately; Secret is set aside" in text
    assert "<h3>Secret, refit and design <span" in english and "fuel</strong> (燃料)" in english
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/rules/hagmi/").content.decode()
    assert "兵器デッキ、作戦デッキ、ダメージデッキを別々にシャッフルし、秘策は脇に置く" in japanese
    assert "<h3>秘策・改装・設計 <span" in japanese and "<h3>ターンの流れ</h3>" in japanese


@pytest.mark.parametrize("system", sorted(GAME_RULE_IDS))
def test_the_japanese_rules_page_has_no_english_prose_and_no_policy_slug(catalog, system):
    """The Japanese rules page reads in Japanese (the every-word crawler's English-prose check), and a policy is
    named by its label (「強欲」), never by its slug (greedy)."""
    from tests.web.test_every_word import PageText, english_prose

    text = PageText.of(Client(HTTP_ACCEPT_LANGUAGE="ja").get(f"/rules/{system}/").content.decode())
    assert not english_prose(text), english_prose(text)
    assert not re.search(r"(?<![\w/.\-])(?:greedy|search|random|defensive)(?![\w/\-])", text)


def test_wrapped_japanese_lines_join_without_a_space():
    """A Japanese bullet wrapped in the Markdown reads as one sentence: no space where two Japanese characters meet
    at a line break (docs/ja/engine-mwda.md M11 wraps in 「車両・」「歩兵」), a space between English words."""
    m11 = next(item for item in rulebook.engine_rules("mwda", "ja") if item.id == "M11")
    assert "車両・歩兵" in m11.text and "・ 歩兵" not in m11.text
    english = next(item for item in rulebook.engine_rules("mwda", "en") if item.id == "M11")
    assert "instead of the token" in english.text  # "instead" ends a line, "of" starts the next
