"""Result pages in a real Chromium: a finished run of each game, in Japanese and English, at 1280 and
390 px, shows every chart of its result drawn (canvases with pixels on them, inside the window), titled
"<list> vs <opponent>" in the page's language, with each chart's number table opened by a real pointer click on
"Numbers" / 「数値」, and the page never scrolls sideways; without JavaScript the charts are their number tables."""
from __future__ import annotations

import json

import pytest
from django.utils import translation
from playwright.sync_api import expect

from builder import services
from builder.models import SimulationRun
from builder.web import results, vocabulary
from tests.support.showcase import PACKAGES
from tests.support.simulations import play_all, published  # noqa: F401  (chunks played here, not by workers)

WIDTHS = ((1280, 900), (390, 844))
RUNS = {  # a sample list and a real sample opponent of each game (as tests/support/showcase.py)
    "hagmi": ("akane-assault", "sample-vanguard", "見本デッキ：前衛", "Sample deck: Vanguard"),
    "mwda": ("highland-line", "steel-wolves-pack", "鋼狼の群れ", "Steel Wolves Pack"),
    "warcaster": ("isa-starsteel-vanguard", "marcher-dust-raiders", "砂塵の略奪者", "Dust Raiders"),
}
NUMBERS = {"ja": "数値", "en": "Numbers"}
VS = {"ja": "対", "en": "vs"}

# Each drawn chart: its canvas box, and whether anything was painted on it (a blank canvas has no opaque pixel).
CANVASES = """() => [...document.querySelectorAll("canvas[data-chart]")].map((canvas) => {
  const r = canvas.getBoundingClientRect();
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < data.length; i += 4 * 7) if (data[i] > 0) painted += 1;
  return {id: canvas.dataset.chart, drawn: canvas.dataset.drawn === "1", left: r.left, right: r.right,
          width: r.width, height: r.height, painted};
})"""


def finished_run(owner, system: str) -> SimulationRun:
    stem, opponent, _ja, _en = RUNS[system]
    document = json.loads((PACKAGES / system / "lists" / f"{stem}.json").read_text(encoding="utf-8"))
    game_list = services.list_create(owner=owner, document=document, visibility="public")
    run = services.simulation_start(user=owner, game_list=game_list, opponent_slug=opponent, policy="greedy",
                                    games=6, seed=7)
    play_all(run)
    return SimulationRun.objects.get(pk=run.pk)


def _no_sideways_scroll(page, where: str) -> None:
    width, scroll = page.evaluate("[window.innerWidth, document.documentElement.scrollWidth]")
    assert scroll <= width, f"{where}: the page is {scroll} px wide in a {width} px window"


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("system", sorted(RUNS))
def test_a_result_page_shows_its_charts_and_their_numbers(site, new_page, make_user, published, system, language):
    run = finished_run(make_user("player"), system)
    with translation.override(language):
        view = results.result_view(system, run.result, run.snapshot, prefix=run.public_id)
        endings = [vocabulary.label(system, "end_reason", reason) for reason in run.result["ended_by"]]
    charts = [chart for chart in view["charts"] if not chart.get("empty")]
    assert len(charts) >= 6
    page = new_page()  # nobody logged in: a finished result opens for anyone with its link
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    page.goto(f"{site}/simulations/{run.public_id}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    opponent = RUNS[system][2 if language == "ja" else 3]
    expect(page.locator("h1")).to_have_text(f"{run.game_list.name} {VS[language]} {opponent}")

    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        where = f"{system} result in {language} at {width} px"
        # Chart.js redraws on resize (a ResizeObserver, then a frame): wait until every canvas fits the new width,
        # then for two frames
        page.wait_for_function("(width) => [...document.querySelectorAll('canvas')].every("
                               "(c) => c.getBoundingClientRect().right <= width)", arg=width)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        drawn = page.evaluate(CANVASES)
        assert sorted(c["id"] for c in drawn) == sorted(c["id"] for c in charts), where
        for canvas in drawn:
            assert canvas["drawn"] and canvas["painted"] > 20, f"{where}: {canvas['id']} is blank"
            assert canvas["width"] > 150 and canvas["height"] > 80, f"{where}: {canvas}"
            assert 0 <= canvas["left"] and canvas["right"] <= width, f"{where}: {canvas} sticks out"
        _no_sideways_scroll(page, where)

        # each chart's numbers, under its toggle, opened with the real pointer
        for chart in charts:
            figure = page.locator(f"#{chart['id']}-figure")
            details = figure.locator("details.chart-table")
            table = details.locator("table")
            if details.get_attribute("open") is not None:
                figure.locator("summary").click()  # closed again (opened at the other width)
            expect(table).to_be_hidden()
            summary = figure.get_by_text(NUMBERS[language], exact=True)
            summary.scroll_into_view_if_needed()
            summary.click()
            expect(table).to_be_visible()
            expect(table.locator("th[scope=row]")).to_have_count(len(chart["labels"]))
            box = table.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{where}: {chart['id']} table is wide"
        ended = page.locator(f"#ended-{run.public_id}-figure table")
        for words in endings:
            expect(ended).to_contain_text(words)
        _no_sideways_scroll(page, f"{where}, tables open")


def test_without_javascript_a_chart_is_its_number_table(site, new_page, make_user, published):
    run = finished_run(make_user("reader"), "mwda")
    page = new_page(java_script_enabled=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site}/simulations/{run.public_id}/")
    figure = page.locator(f"#damage-{run.public_id}-figure")
    expect(figure.locator(".chart-box")).to_be_hidden()  # no empty canvas box
    figure.get_by_text("Numbers", exact=True).click()
    table = figure.locator("table")
    expect(table).to_be_visible()
    names = [run.snapshot["cards"][row["card"]]["name_en"] for row in run.result["unit_damage"]]
    for name in names:
        expect(table).to_contain_text(name)
    _no_sideways_scroll(page, "mwda result without JavaScript")
