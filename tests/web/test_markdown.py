"""builder/web/markdown.py: the docs' Markdown as safe HTML (markdown-it-py, cleaned by nh3), source tags as badges
with their meaning in the UI language."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from builder.web import markdown
from builder.web.markdown import INTERPRETATION, OPTION, PUBLIC, SEED, SourcePart, parse_tag


def _links(html: str) -> list[str]:
    return re.findall(r'<a [^>]*href="([^"]*)"', html)


# --- security -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("render", [markdown.inline, markdown.block])
@pytest.mark.parametrize("source", [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "<div onclick=alert(1)>x</div>",
    "<iframe src=https://example.org></iframe>",
    "<style>body{display:none}</style>",
])
def test_raw_html_in_the_text_is_shown_as_text_never_as_markup(render, source):
    html = str(render(source))
    assert not re.search(r"<(script|img|iframe|style|div onclick|a href=\"javascript)", html), html
    assert not re.search(r"<[a-z]+[^>]*\son\w+=", html)  # no event handler attribute on any element
    assert "&lt;" in html  # the text is still there, escaped


@pytest.mark.parametrize("link", [
    "[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))", "[x](java&#x73;cript:alert(1))",
    "[x](vbscript:msgbox(1))", "[x](data:text/html;base64,PHNjcmlwdD4=)", "<javascript:alert(1)>",
    "[x][r]\n\n[r]: javascript:alert(1)",
])
def test_only_http_https_and_relative_links_become_links(link):
    for html in (str(markdown.inline(link)), str(markdown.block(link))):
        assert _links(html) == [] and "href" not in html, html


def test_http_https_and_relative_links_are_kept():
    html = str(markdown.inline("[a](https://example.org/x) [b](http://example.org) [c](/rules/hagmi/#H5) [d](#W16)"))
    assert _links(html) == ["https://example.org/x", "http://example.org", "/rules/hagmi/#H5", "#W16"]
    assert 'rel="noopener noreferrer"' in html


def test_bold_code_and_emphasis_render_and_their_text_is_escaped():
    assert str(markdown.inline('<b>x</b> **y & z** `a<b>` *em* 2 * 3')) == (
        "&lt;b&gt;x&lt;/b&gt; <strong>y &amp; z</strong> <code>a&lt;b&gt;</code> <em>em</em> 2 * 3")


def test_a_table_scrolls_in_its_own_box_and_keeps_no_inline_style():
    """The site's CSP forbids style="": the alignment markdown-it writes as a style is dropped."""
    html = str(markdown.block("| a | b |\n|:-:|--:|\n| 1 | 2 |"))
    assert html.startswith('<div class="table-scroll" tabindex="0" role="region" aria-label="')
    assert "<table>" in html and "</table></div>" in html and "style=" not in html


# --- source tags ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "parts"), [
    ("seed 003", [SourcePart(SEED, "003")]),
    ("public", [SourcePart(PUBLIC)]),
    ("public: regulation Ver.4", [SourcePart(PUBLIC, note="regulation Ver.4")]),
    ("public, Ver.4", [SourcePart(PUBLIC, note="Ver.4")]),
    ("seed 002, public", [SourcePart(SEED, "002"), SourcePart(PUBLIC)]),
    ("public WIP summary + interpretation", [SourcePart(PUBLIC, note="WIP summary"), SourcePart(INTERPRETATION)]),
    ("interpretation, option `opening_split` = 2/2", [SourcePart(INTERPRETATION, option="opening_split",
                                                                 default="2/2")]),
    ("interpretation, option `blast_damage`", [SourcePart(INTERPRETATION, option="blast_damage")]),
    ("seed 002; option `attack_dice` = 3", [SourcePart(SEED, "002"), SourcePart(OPTION, option="attack_dice",
                                                                                   default="3")]),
    ("seed 000: 「メインデッキ合計20枚につき1枚」; interpretation: the damage deck is not part of the main deck, "
     "option `secret_counts_damage_deck` = false",
     [SourcePart(SEED, "000", note="「メインデッキ合計20枚につき1枚」"),
      SourcePart(INTERPRETATION, option="secret_counts_damage_deck", default="false",
                 note="the damage deck is not part of the main deck")]),
    ("改装", []), ("min, max", []), ("seed NNN", []),
])
def test_source_tags_are_parsed_into_their_parts(body, parts):
    assert list(parse_tag(body)) == parts


def test_every_source_tag_of_the_docs_is_a_badge():
    """No `[seed …]`, `[public…]` or `[interpretation…]` of docs/rules.md and docs/engine-*.md stays bracket text."""
    from builder.rulebook import DOCS
    for path in [DOCS / "rules.md", *sorted(DOCS.glob("engine-*.md"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"\[(seed \d{3}|public|interpretation)\b", line):
                html = str(markdown.inline(line.lstrip("- ")))
                assert not re.search(r"\[(seed \d{3}|public|interpretation)\b", html), (path.name, line, html)


@pytest.mark.parametrize(("language", "source", "css", "words", "meaning"), [
    ("en", "[seed 003]", "seed", "source: seed text 003", "Stated in seed text 003, the Japanese source text of "
                                                          "Warcaster"),
    ("ja", "[seed 000]", "seed", "出典：種テキスト000", "種テキスト000（HAGMI!の日本語の原文）"),
    ("en", "[public]", "public", "public", "A published fact about the game"),
    ("ja", "[public]", "public", "公開情報", "種テキスト以外で公開されている"),
    ("en", "[interpretation]", "interp", "interpretation", "the project's choice"),
    ("ja", "[interpretation]", "interp", "解釈", "本プロジェクトが選んだ扱い"),
])
def test_each_badge_kind_shows_its_words_and_its_meaning(language, source, css, words, meaning):
    with translation.override(language):
        html = str(markdown.inline(f"Text {source}."))
    badge = re.search(rf'<span class="badge src {css}" title="([^"]+)"><span class="src-word">([^<]+)</span></span>',
                      html)
    assert badge, html
    assert badge.group(2) == words and meaning in badge.group(1).replace("&#x27;", "'")


@pytest.mark.parametrize(("language", "words", "meaning"), [
    ("en", '<span class="src-word">interpretation</span> · option <code>max_rounds</code>, default <code>10</code>',
     "change it with the option max_rounds"),
    ("ja", '<span class="src-word">解釈</span> · オプション <code>max_rounds</code>（既定値 <code>10</code>）',
     "オプション max_rounds で"),
])
def test_an_interpretation_names_its_option_and_default(language, words, meaning):
    with translation.override(language):
        html = str(markdown.inline("[interpretation, option `max_rounds` = 10]"))
    assert f">{words}</span>" in html and meaning in html


def test_a_switch_default_is_on_or_off_in_words():
    with translation.override("ja"):
        html = str(markdown.inline("[interpretation, option `single_faction` = false]"))
    assert "（既定値 オフ）" in html and "false" not in html.replace("single_faction", "")


def test_a_note_of_a_tag_follows_its_badge_and_other_brackets_stay_text():
    html = str(markdown.inline("types [改装] [public: the community BattleScribe game file]"))
    assert "types [改装] " in html
    assert '</span> <span class="src-note">(the community BattleScribe game file)</span>' in html


def test_the_rendering_is_cached_per_language():
    text = "Cached [public] [seed 002]"
    with translation.override("en"):
        english = str(markdown.inline(text))
    with translation.override("ja"):
        japanese = str(markdown.inline(text))
    with translation.override("en"):
        assert str(markdown.inline(text)) == english
    assert "public" in english and "公開情報" in japanese and "公開情報" not in english


def test_the_legend_explains_every_badge_kind_of_the_game():
    with translation.override("ja"):
        legend = markdown.legend("mwda")
    assert [entry["css"] for entry in legend] == ["seed", "public", "interp", "option"]
    assert [entry["words"] for entry in legend] == ["出典：種テキスト002", "公開情報", "解釈", "オプション"]
    assert "メックウォリアー：ダークエイジ" in legend[0]["meaning"] and all(entry["meaning"] for entry in legend)


# --- the game terms of the English page ---------------------------------------------------------------------------

TERMS = (("兵器", "Weapons"), ("作戦", "Tactics"), ("秘策", "Secret"), ("機獣", "beast"))


@pytest.mark.parametrize(("text", "shown"), [
    ("兵器 deck has at least 20 cards", "Weapons deck has at least 20 cards"),
    ("the main deck (兵器 + 作戦); copies in 秘策", "the main deck (Weapons + Tactics); copies in Secret"),
    ("fuel (燃料) and a counter (機獣)", "fuel (燃料) and a counter (機獣)"),  # a gloss stays
    ("機獣討滅戦線 against 機獣", "機獣討滅戦線 against beast"),  # part of a longer Japanese word: stays
    ("`兵器` and 「秘策に」", "`兵器` and 「秘策に」"),  # code and quotes stay as written
])
def test_terms_are_replaced_where_they_stand_alone(text, shown):
    assert markdown.replace_terms(text, TERMS) == shown


def test_terms_are_part_of_the_cache_key():
    assert "Weapons" in str(markdown.inline("兵器 deck", TERMS)) and "兵器" in str(markdown.inline("兵器 deck"))
