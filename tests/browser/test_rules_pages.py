"""The rules pages in a real Chromium: each game's rules page in Japanese and English at 1280 and 390 px
shows its Markdown rendered (no `**`, no backtick outside code), its source tags as badges with their meaning (and
a legend of them), a construction table whose headers read on one line at the desktop width and whose rows stack
inside the window on a phone, and never scrolls sideways; the API codes open from a labelled details with the real
pointer."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shoot

WIDTHS = ((1280, 900), (390, 844))
SEEDS = {"hagmi": "000", "mwda": "002", "warcaster": "003"}
WORDS = {
    "en": {"seed": "source: seed text {}", "public": "public", "interp": "interpretation",
           "codes": "API codes of these rules (for developers)"},
    "ja": {"seed": "出典：種テキスト{}", "public": "公開情報", "interp": "解釈",
           "codes": "これらのルールのAPIコード（開発者向け）"},
}

# The page's text as a reader sees it, without code and pre (where a backtick or ** may be meant literally).
READER_TEXT = """() => {
  const main = document.querySelector("main").cloneNode(true);
  for (const el of main.querySelectorAll("code, pre")) el.remove();
  return main.innerText;
}"""

# Each header cell of the construction table: its height in lines of its own text.
HEADER_LINES = """() => [...document.querySelectorAll("table.construction thead th")].map((th) => {
  const style = getComputedStyle(th);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  return {text: th.innerText, lines: (th.getBoundingClientRect().height - padding) / parseFloat(style.lineHeight)};
})"""

# The construction table's cells on a phone: a block each, all inside the window.
CELLS = """() => [...document.querySelectorAll("table.construction tbody td, table.construction tbody th")]
  .filter((cell) => cell.getClientRects().length)
  .map((cell) => { const r = cell.getBoundingClientRect();
                   return {display: getComputedStyle(cell).display, left: r.left, right: r.right, width: r.width}; })"""


def _open(new_page, site: str, system: str, language: str):
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])  # as the switcher sets it
    page.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
    page.goto(f"{site}/rules/{system}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page


def _no_sideways_scroll(page, where: str) -> None:
    width, scroll = page.evaluate("[window.innerWidth, document.documentElement.scrollWidth]")
    assert scroll <= width, f"{where}: the page is {scroll} px wide in a {width} px window"


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("system", ["hagmi", "mwda", "warcaster"])
def test_rules_page_reads_at_desktop_and_phone_widths(new_page, site, system, language):
    page = _open(new_page, site, system, language)
    words = WORDS[language]
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        where = f"/rules/{system}/ in {language} at {width} px"
        _no_sideways_scroll(page, where)
        shoot(page, f"rules-{system}-{language}-{width}")

        # Markdown rendered: no raw ** or backtick, no bracket tag left as text
        text = page.evaluate(READER_TEXT)
        assert "**" not in text and "`" not in text, where
        assert "[seed " not in text and "[public" not in text and "[interpretation" not in text, where

        # source badges with their meaning, in the page's language, and the legend explaining them
        legend = page.locator(".src-legend")
        expect(legend).to_be_visible()
        expect(legend.locator("dt .badge.src")).to_have_count(4)
        seed = words["seed"].format(SEEDS[system])
        expect(legend.locator(".badge.src.seed")).to_have_text(seed)
        for css in ("seed", "public", "interp"):
            badge = page.locator(f"table.construction .badge.src.{css}, .rulebook .badge.src.{css}").first
            expect(badge).to_be_visible()
            expect(badge).to_contain_text(seed if css == "seed" else words[css])
            assert (badge.get_attribute("title") or "").strip(), f"{where}: a {css} badge without its meaning"

        if width >= 1000:  # the construction table: every header on one line, the rule text column wide enough
            for header in page.evaluate(HEADER_LINES):
                assert header["lines"] < 1.5, f"{where}: the header {header['text']!r} wraps ({header['lines']:.1f} lines)"
            text_cell = page.locator("table.construction tbody tr td:last-child").nth(6).bounding_box()
            assert text_cell and text_cell["width"] >= 400, f"{where}: the rule text column is {text_cell}"
        else:  # a phone: each row a block of labelled cells, every cell inside the window
            cells = page.evaluate(CELLS)
            assert cells and all(cell["display"] == "block" for cell in cells), where
            assert all(cell["left"] >= 0 and cell["right"] <= width + 0.5 for cell in cells), where
            assert min(cell["width"] for cell in cells) >= width * 0.8, f"{where}: a squeezed cell"

    # the rule texts in the page's language (docs/ja/ on a Japanese page): no "the texts are in English" note
    expect(page.locator(".rules-language-note")).to_have_count(0)
    first_rule = page.locator(".rulebook li[id]").first.inner_text()
    japanese, latin = (len(re.findall(pattern, first_rule)) for pattern in (r"[\u3040-\u30ff\u3400-\u9fff]", r"[A-Za-z]"))
    assert (japanese > latin) if language == "ja" else (latin > japanese), first_rule

    # the API codes: not in the table, behind a labelled details that the real pointer opens (at the phone width)
    table = page.locator("table.construction").inner_text()
    assert not re.search(r"\b[a-z]+\.[a-z_]+\b", table), f"/rules/{system}/: an API code in the table"
    codes = page.locator("details.api-codes").first
    summary = codes.locator("summary")
    expect(summary).to_have_text(words["codes"])
    expect(codes.locator("code").first).to_be_hidden()
    summary.click()
    expect(codes).to_have_attribute("open", "")
    expect(codes.locator("code", has_text="list.unknown_card")).to_be_visible()
    expect(codes.locator("code", has_text=f"{system}.").first).to_be_visible()
    _no_sideways_scroll(page, f"/rules/{system}/ in {language} with the API codes open")
