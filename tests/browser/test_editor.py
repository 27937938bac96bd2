"""The list editor in a real Chromium, with the real pointer (locator.click(), never force=True or
dispatch_event for a click). Each flow runs at one width and language, varied across the flows so that both widths
(1280×900, 390×844; the paste at 1024×768) and both languages are played with the pointer; every editor at every width
in both languages is the layout walk's (tests/browser/test_layout.py), every word in both languages the every-word
crawl's (tests/web/test_every_word.py), and the editor without JavaScript a page test (tests/web/test_editor.py).
docs/testing.md, "Crawls and browser flows", lists which flow runs where.

- the legality panel has its own column at desktop width and nothing covers a control (the element at each
  control's centre is the control or inside it) and no page scrolls sideways, for HAGMI, MWDA and Warcaster lists;
- the search box filters the picker as one types (no htmx:targetError) and Enter adds the first card found, "2 紅蓮丸"
  two of them: the bundled HAGMI deck (cards/packages/hagmi/lists/sample-vanguard.json) is built from empty by
  typing names, and by pasting its lines (a misspelt one shows the importer's message and is fixed in one click);
- an MWDA army and a Warcaster force with a warjack loadout built with the mouse alone at 1280×900;
- unsaved work: the warning before leaving (links such as 履歴, the language switch, Back, reload), the draft kept
  in the browser and restored on the next visit, the save confirmation beside the Save button;
- the keyboard: focus stays on −/+ after the swap, the skip link reaches the search box in 2 Tabs;
- W11: a warjack's weapon odds open in its entry and follow the chosen target (390×844, in Japanese).

With HANGAR_SCREENSHOTS=/some/folder set, the layout test saves screenshots of each editor there (the window at the
top, at the picker and at the paste box, and the whole page).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from builder import selectors, services
from builder.models import GameList
from tests.browser.conftest import log_in

PACKAGES = Path(__file__).resolve().parents[2] / "cards" / "packages"
SCREENSHOTS = os.environ.get("HANGAR_SCREENSHOTS", "")
SECTIONS = {"hagmi": ["weapons", "tactics", "damage", "secret"], "mwda": ["army"], "warcaster": ["force", "rack"]}
FORMATS = {"hagmi": "tactics-v4", "mwda": "tournament-300", "warcaster": "skirmish"}

# For every visible control: scrolled into view, is the element at its centre the control (or inside it, or its
# label)? And is the page wider than the window?
COVER_CHECK = r"""
() => {
  const problems = [];
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    if (el.closest("dialog:not([open]), [hidden]")) continue;
    let box = [...el.getClientRects()].find((r) => r.width > 1 && r.height > 1);
    if (!box) continue;  // .sr-only (1×1)
    el.scrollIntoView({block: "center", inline: "nearest"});
    box = [...el.getClientRects()].find((r) => r.width > 1 && r.height > 1);
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) {
      if (!el.matches(".skip")) problems.push(`off screen: ${el.outerHTML.slice(0, 120)}`);
      continue;
    }
    const hit = document.elementFromPoint(x, y);
    const label = hit && hit.closest("label");
    const ok = hit && (hit === el || el.contains(hit) || (label && (label.control === el || label.htmlFor === el.id)));
    if (!ok) problems.push(`${el.outerHTML.slice(0, 120)} is covered by ${hit ? hit.outerHTML.slice(0, 120) : "nothing"}`);
  }
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) problems.push(`the page is ${width} px wide in a ${window.innerWidth} px window`);
  return problems;
}
"""


def bundled(system: str, name: str) -> dict:
    return json.loads((PACKAGES / system / "lists" / f"{name}.json").read_text(encoding="utf-8"))


def cards_of(system: str) -> dict[str, dict]:
    package = next((PACKAGES / system).glob("*.json"))
    return {card["code"]: card for card in json.loads(package.read_text(encoding="utf-8"))["cards"]}


def empty(system: str, name: str = "From empty") -> dict:
    return {"schema": "hangar.list/1", "system": system, "format": FORMATS[system], "name": name,
            "sections": {section: [] for section in SECTIONS[system]}}


def open_editor(new_page, site, make_user, document: dict, *, size=(1280, 900), language="en", user="pilot"):
    owner = make_user(user)
    game_list = services.list_create(owner=owner, document=document)
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, user)
    page.goto(f"{site}/lists/{game_list.slug}/edit/")
    expect(page.locator("#legality")).to_be_visible()
    return page, game_list


def draft(page) -> dict:
    return json.loads(page.locator("input[name=document]").input_value())


def qty(page, section: str, code: str):
    return page.locator(f'section[data-section="{section}"] li[data-card="{code}"] input.qty')


def top_in_page(locator) -> float:
    """Where an element's top is in the page (not in the window, which scrolls as the pointer moves)."""
    return locator.evaluate("el => el.getBoundingClientRect().top + window.scrollY")


def wait_idle(page) -> None:
    """No editor request in flight or queued (htmx marks the form while it asks). A ticked box or a typed number
    submits the form from a zero-delay timer (static/hangar/editor.js), so one macrotask runs first: otherwise the
    last tick's request may not have started yet, and the page looks idle before it has sent it."""
    page.evaluate("() => new Promise(resolve => setTimeout(resolve, 0))")
    page.wait_for_function("() => !document.querySelector('#editor.htmx-request')")


def assert_nothing_covers_a_control(page, where: str) -> None:
    problems = page.evaluate(COVER_CHECK)
    page.evaluate("window.scrollTo(0, 0)")
    assert problems == [], f"{where}:\n" + "\n".join(problems)


def same_entries(document: dict, expected: dict) -> None:
    for section, entries in expected["sections"].items():
        got = sorted((e["card"], e["qty"], json.dumps(e.get("options"), sort_keys=True))
                     for e in document["sections"][section])
        want = sorted((e["card"], e["qty"], json.dumps(e.get("options"), sort_keys=True)) for e in entries)
        assert got == want, section


def shoot(page, name: str) -> None:
    """What the window shows at the top of the editor, at the picker and at the paste box (and the whole page)."""
    if not SCREENSHOTS:
        return
    folder = Path(SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    for place, selector in (("top", None), ("picker", "#picker"), ("paste", "#paste-box")):
        page.evaluate("(s) => s ? document.querySelector(s).scrollIntoView({block: 'start'}) : window.scrollTo(0, 0)",
                      selector)
        page.screenshot(path=str(folder / f"{name}-{place}.png"))
    page.screenshot(path=str(folder / f"{name}-page.png"), full_page=True)
    for place, selector in (("side", "#editor-side"), ("loadout", "fieldset.loadout"), ("problems", "#paste-box")):
        if page.locator(selector).count():
            page.locator(selector).first.screenshot(path=str(folder / f"{name}-{place}.png"))
    page.evaluate("window.scrollTo(0, 0)")


def shoot_window(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))


# --- layout ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size,language", [((1280, 900), "en"), ((390, 844), "ja")], ids=["1280-en", "390-ja"])
def test_the_panel_has_its_own_column_and_nothing_covers_a_control(site, new_page, make_user, size, language):
    """Both sides of the layout: two columns (1280) and one (390). The other widths and the language at each width
    are the layout walk's (tests/browser/test_layout.py: every editor, every width, both languages)."""
    lists = {"hagmi": bundled("hagmi", "sample-vanguard"), "mwda": bundled("mwda", "steel-wolves-pack"),
             "warcaster": bundled("warcaster", "isa-thunder-lancers")}
    owner = make_user("layout")
    page = new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    log_in(page, site, "layout")
    for system, document in lists.items():
        game_list = services.list_create(owner=owner, document=document)
        page.goto(f"{site}/lists/{game_list.slug}/edit/")
        page.locator("#paste").fill("2 補給物質\n")  # a paste with a problem: its message and fix button shown too
        page.get_by_role("button", name=re.compile("Add these lines|この行を追加")).click()
        expect(page.locator(".paste-problems")).to_be_visible()
        side = page.locator("#editor-side").bounding_box()
        main = page.locator("#editor-live").bounding_box()
        if size[0] > 800:  # two columns: the panel right of the draft, never over it
            assert side["x"] >= main["x"] + main["width"], (system, side, main)
        else:  # one column: the panel below the draft
            assert side["y"] >= main["y"] + main["height"] - 1, (system, side, main)
        shoot(page, f"editor-{system}-{language}-{size[0]}")
        assert_nothing_covers_a_control(page, f"{system} {language} {size[0]}×{size[1]}")


# --- the search box ---------------------------------------------------------------------------------------------


def test_typing_in_the_search_box_filters_the_picker_and_never_empties_it(site, new_page, make_user):
    page, _ = open_editor(new_page, site, make_user, empty("hagmi"))
    errors, asked = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("dialog", lambda browser_dialog: (asked.append(browser_dialog.type), browser_dialog.accept()))
    page.locator("#q").click()
    page.keyboard.type("補給")
    expect(page.locator("#picker-results .picker-list")).to_have_attribute("data-q", "補給")
    page.reload()  # a search is no unsaved work: no question
    assert asked == []
    page.locator("#q").fill("")
    page.locator("#q").click()
    page.keyboard.type("補給")
    expect(page.locator("#picker-results .picker-list")).to_have_attribute("data-q", "補給")
    rows = page.locator("#picker-results li[data-code]")
    names = rows.locator(".alt-name").all_inner_texts()  # the Japanese names beside the English ones
    assert names and all("補給" in name for name in names), names
    first, second = rows.nth(0).get_attribute("data-code"), rows.nth(1).get_attribute("data-code")
    expect(page.locator("#quick-target")).to_contain_text(rows.nth(0).get_attribute("data-name"))  # what Enter adds
    page.keyboard.press("ArrowDown")
    expect(page.locator("#picker-results li.is-active")).to_have_attribute("data-code", second)
    expect(page.locator("#quick-target")).to_contain_text(rows.nth(1).get_attribute("data-name"))
    page.keyboard.press("Enter")
    expect(page.locator(f'li[data-card="{second}"] input.qty')).to_have_value("1")  # the highlighted card
    assert page.locator(f'li[data-card="{first}"] input.qty').count() == 0
    expect(page.locator("#q")).to_have_value("")
    expect(page.locator("#q")).to_be_focused()
    expect(page.locator("#picker-results .picker-list")).to_have_attribute("data-q", "")  # the whole list again
    assert page.locator("#picker-results li[data-code]").count() > 40
    assert not any("targetError" in text for text in errors), errors


@pytest.mark.parametrize("size,language", [((390, 844), "en")], ids=["390-en"])
def test_build_the_bundled_hagmi_deck_from_empty_by_typing_names_and_enter(site, new_page, make_user, size,
                                                                           language):
    """At the phone width in English (typing its English names); Japanese typed into the box: the search box's test
    (補給), and the picker's ranking of a typed Japanese name, a page test (tests/web/test_editor_paste.py)."""
    deck = bundled("hagmi", "sample-vanguard")
    cards = cards_of("hagmi")
    page, game_list = open_editor(new_page, site, make_user, empty("hagmi"), size=size, language=language)
    page.locator("#q").click()
    keystrokes = 0
    for section, entries in deck["sections"].items():
        for entry in entries:
            card = cards[entry["card"]]
            name = card["name"] if language == "ja" else card["name_en"]
            words = f"{entry['qty']} {name}" if entry["qty"] > 1 else name
            page.keyboard.type(words)
            page.keyboard.press("Enter")
            keystrokes += len(words) + 1
            expect(qty(page, section, entry["card"])).to_have_value(str(entry["qty"]))
    wait_idle(page)
    same_entries(draft(page), deck)
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    page.locator("#save").click()
    note = page.locator("#save-note")
    expect(note).to_contain_text("保存しました" if language == "ja" else "Saved")
    expect(note).to_be_in_viewport()  # beside the button that was pressed
    same_entries(selectors.list_document(GameList.objects.get(pk=game_list.pk)), deck)
    assert keystrokes < 400  # about 12 keys a card with English names; one click on the box, one on Save


@pytest.mark.parametrize("size", [(1024, 768)], ids=["1024x768"])
def test_build_the_bundled_hagmi_deck_from_empty_by_pasting(site, new_page, make_user, size):
    deck = bundled("hagmi", "sample-vanguard")
    cards = cards_of("hagmi")
    lines = [f"{entry['qty']} {cards[entry['card']]['name']}" for entries in deck["sections"].values()
             for entry in entries]
    lines[3] = lines[3].replace("ハウンド", "ハウンデ")  # a misspelt line: the importer says what it knows
    page, game_list = open_editor(new_page, site, make_user, empty("hagmi"), size=size)
    page.locator("#paste").click()
    page.locator("#paste").fill("\n".join(lines))
    page.get_by_role("button", name="Add these lines").click()
    problems = page.locator(".paste-problems li")
    expect(problems).to_have_count(1)
    expect(problems).to_contain_text("line 1")
    expect(problems).to_contain_text('no card named "ハウンデ" in HAGMI!')  # said once: the suggestions are buttons
    expect(problems).not_to_contain_text("did you mean")
    expect(page.locator("#paste")).to_have_value("2 ハウンデ")  # the good lines are in the list, the bad one stays
    expect(page.locator(".paste-note")).to_contain_text("Added 44 cards.")
    page.get_by_role("button", name="Use 2 ハウンド (HS-009) for line 1").click()
    expect(page.locator(".paste-problems")).to_have_count(0)
    expect(page.locator("#paste")).to_have_value("")
    wait_idle(page)
    same_entries(draft(page), deck)
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    assert_nothing_covers_a_control(page, f"pasted, {size[0]}")
    page.locator("#save").click()
    expect(page.locator("#save-note")).to_contain_text("Saved")
    same_entries(selectors.list_document(GameList.objects.get(pk=game_list.pk)), deck)


# --- the mouse alone at 1280×900 ---------------------------------------------------------------------------------


def add_with_the_mouse(page, section: str, code: str, times: int) -> None:
    for number in range(1, times + 1):
        page.locator(f'#picker-results li[data-code="{code}"] button[value="add:{section}:{code}"]').click()
        expect(qty(page, section, code)).to_have_value(str(number))


def test_build_an_mwda_army_with_the_mouse_only(site, new_page, make_user):
    army = bundled("mwda", "steel-wolves-pack")
    page, game_list = open_editor(new_page, site, make_user, empty("mwda"))
    for entry in army["sections"]["army"]:
        add_with_the_mouse(page, "army", entry["card"], entry["qty"])
    extra = army["sections"]["army"][0]["card"]
    page.locator(f'#picker-results li[data-code="{extra}"] button[value="add:army:{extra}"]').click()
    expect(qty(page, "army", extra)).to_have_value("2")
    page.get_by_role("button", name=re.compile("^One fewer ")).first.click()  # and back with −
    expect(qty(page, "army", extra)).to_have_value("1")
    wait_idle(page)
    same_entries(draft(page), army)
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    assert_nothing_covers_a_control(page, "mwda army")
    page.locator("#save").click()
    expect(page.locator("#save-note")).to_contain_text("Saved")
    same_entries(selectors.list_document(GameList.objects.get(pk=game_list.pk)), army)


def test_build_a_warcaster_force_with_a_warjack_loadout_with_the_mouse_only(site, new_page, make_user):
    force = bundled("warcaster", "isa-starsteel-vanguard")
    page, game_list = open_editor(new_page, site, make_user, empty("warcaster"))
    for section in ("force", "rack"):
        for entry in force["sections"][section]:
            add_with_the_mouse(page, section, entry["card"], entry["qty"])
    cards = cards_of("warcaster")
    wait_idle(page)
    last_loadout = page.locator('section[data-section="force"] fieldset.loadout').last
    before = top_in_page(last_loadout)
    for index, entry in enumerate(force["sections"]["force"]):
        options = entry.get("options")
        if not options:
            continue
        row = page.locator(f'section[data-section="force"] li[data-card="{entry["card"]}"]')
        row.locator("label", has_text=cards[options["cortex"]]["name_en"]).click()
        expect(page.locator(f'#cortex-force-{index}-{options["cortex"]}')).to_be_checked()
        for weapon in options["weapons"]:
            box = page.locator(f"#weapons-force-{index}-{weapon}")
            box.click()  # the box itself, with the pointer, without waiting for the last tick's answer
            expect(page.locator(f"#weapons-force-{index}-{weapon}")).to_be_checked()
    wait_idle(page)
    # each warjack's odds appeared in the line kept for them when its first weapon was ticked: nothing below moved,
    # so a click made before the last tick's answer lands where the player aimed
    assert top_in_page(last_loadout) == before, "ticking a weapon moved the loadouts below it"
    same_entries(draft(page), force)
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    assert_nothing_covers_a_control(page, "warcaster force")
    page.locator("#save").click()
    expect(page.locator("#save-note")).to_contain_text("Saved")
    same_entries(selectors.list_document(GameList.objects.get(pk=game_list.pk)), force)


@pytest.mark.parametrize("size,language", [((390, 844), "ja")], ids=["ja-390x844"])
def test_w11_a_warjacks_weapon_odds_open_in_its_entry_and_follow_the_chosen_target(site, new_page, make_user, size,
                                                                                     language):
    """W11: the editor shows the exact odds of a force entry's weapons, a warjack's chosen weapons
    (options.weapons) included, in a panel the entry opens (the card page's own presenter and template, loaded by
    htmx); choosing another target reloads it and leaves the draft clean; nothing covers a control and the legality
    panel keeps its own column (1280) or comes below the draft (390); no sideways scroll."""
    from rules_engine.systems import system as game_system

    from tests.browser.test_layout import AXE, AXE_RUN, SERIOUS

    force = bundled("warcaster", "isa-starsteel-vanguard")
    page, _game_list = open_editor(new_page, site, make_user, force, size=size, language=language)
    page.context.add_init_script(path=str(AXE))  # axe-core on the editor with the panel open
    page.reload()
    index, entry = next((i, e) for i, e in enumerate(force["sections"]["force"]) if (e.get("options") or {}).get("weapons"))
    cards = cards_of("warcaster")
    jack = cards[entry["card"]]
    odds = page.locator(f'details.entry-odds[data-odds="{entry["card"]}"]')
    odds.locator("summary").click()
    panel = page.locator(f"#odds-force-{index}")
    weapons = [*(jack.get("weapons") or []), *(cards[code] for code in entry["options"]["weapons"])]
    expect(panel.locator("table.odds")).to_have_count(len(weapons))
    target = next(code for code, card in cards.items() if card.get("kind") == "mantlet")
    panel.locator("select").select_option(target)
    expect(panel.locator("select")).to_have_value(target)
    expect(panel).to_contain_text(cards[target]["name_en"] if language == "en" else cards[target]["name"])
    exact = game_system("warcaster").weapon_odds(jack, cards[entry["options"]["weapons"][0]], cards[target])
    expect(panel.locator("table.odds").nth(len(jack.get("weapons") or []))).to_contain_text(
        f"{exact['hit'].numerator}/{exact['hit'].denominator}")
    expect(page.locator("#save-note")).not_to_contain_text(re.compile("Unsaved|未保存"))  # the target is no edit
    side = page.locator("#editor-side").bounding_box()
    main = page.locator("#editor-live").bounding_box()
    if size[0] > 800:
        assert side["x"] >= main["x"] + main["width"], (side, main)
    else:
        assert side["y"] >= main["y"] + main["height"] - 1, (side, main)
    shoot(page, f"editor-odds-{language}-{size[0]}")
    assert_nothing_covers_a_control(page, f"the odds panel, {language} {size[0]}×{size[1]}")
    found = [v for contrast in (False, True) for v in page.evaluate(AXE_RUN, contrast) if v["impact"] in SERIOUS]
    assert found == [], found
    odds.locator("summary").click()  # closes again
    expect(panel).to_be_hidden()


# --- never lose work -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1280, 900)], ids=["1280x900"])
def test_leaving_with_unsaved_changes_warns_and_the_draft_is_offered_back(site, new_page, make_user, size):
    page, game_list = open_editor(new_page, site, make_user, empty("hagmi"), size=size, language="ja")
    edit_url = page.url
    add_with_the_mouse(page, "weapons", "HS-001", 2)
    dialog = page.locator("#leave-dialog")
    page.get_by_role("link", name="履歴").click()  # an in-page link: our own question
    expect(dialog).to_be_visible()
    shoot_window(page, f"leave-dialog-ja-{size[0]}")
    dialog.get_by_role("button", name="このページに留まる").click()
    expect(dialog).to_be_hidden()
    assert page.url == edit_url
    page.get_by_role("button", name="English").click()  # the language switch in the header (one button)
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="このページに留まる").click()
    expect(qty(page, "weapons", "HS-001")).to_have_value("2")

    page.once("dialog", lambda browser_dialog: browser_dialog.dismiss())  # the browser's own question: stay
    with page.expect_event("dialog") as asked:
        page.evaluate("setTimeout(() => location.reload(), 0)")  # reload (as Back or closing the tab)
    assert asked.value.type == "beforeunload"
    expect(qty(page, "weapons", "HS-001")).to_have_value("2")  # still here, nothing lost

    page.get_by_role("link", name="履歴").click()
    dialog.get_by_role("button", name="保存せずに移動").click()
    expect(page).to_have_url(re.compile(r"/history/$"))
    page.goto(edit_url)  # the next visit: the saved list (empty), and the draft this browser kept
    offer = page.locator("#draft-offer")
    expect(offer).to_be_visible()
    shoot_window(page, f"draft-offer-ja-{size[0]}")
    expect(qty(page, "weapons", "HS-001")).to_have_count(0)
    offer.get_by_role("button", name="保存していない変更を戻す").click()
    expect(qty(page, "weapons", "HS-001")).to_have_value("2")
    expect(offer).to_be_hidden()
    expect(page.locator(".status")).to_contain_text("未保存")
    page.locator("#save").click()
    expect(page.locator("#save-note")).to_contain_text("保存しました")
    expect(page.locator("#save-note")).to_be_in_viewport()
    page.goto(edit_url)
    expect(page.locator("#legality")).to_be_visible()
    expect(offer).to_be_hidden()  # saved: nothing left to offer
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('hangar:draft:')).length") == 0


def test_back_with_unsaved_changes_asks_the_browser_and_a_discarded_draft_is_gone(site, new_page, make_user):
    page, game_list = open_editor(new_page, site, make_user, empty("hagmi"))
    edit_url = page.url
    page.get_by_role("link", name="History").click()
    expect(page).to_have_url(re.compile(r"/history/$"))  # nothing changed: no question
    page.go_back()
    add_with_the_mouse(page, "tactics", "HS-029", 1)
    seen = []
    page.on("dialog", lambda browser_dialog: (seen.append(browser_dialog.type), browser_dialog.accept()))
    page.go_back()  # Back (to the page before the editor): the browser's own question (beforeunload), accepted
    expect(page).to_have_url(f"{site}/")
    assert seen == ["beforeunload"]
    page.goto(edit_url)
    offer = page.locator("#draft-offer")
    expect(offer).to_be_visible()
    offer.get_by_role("button", name="Discard them").click()
    expect(offer).to_be_hidden()
    page.reload()
    expect(page.locator("#legality")).to_be_visible()
    expect(offer).to_be_hidden()


def test_save_then_leave_saves_and_follows_the_link(site, new_page, make_user):
    page, game_list = open_editor(new_page, site, make_user, empty("mwda"))
    add_with_the_mouse(page, "army", "MW-008", 1)
    page.locator("#id_notes").fill("a note typed, not yet sent")
    page.get_by_role("link", name="View the list page").click()
    page.locator("#leave-dialog").get_by_role("button", name="Save, then leave").click()
    expect(page).to_have_url(f"{site}/lists/{game_list.slug}/")
    game_list.refresh_from_db()
    assert game_list.version == 2 and game_list.notes == "a note typed, not yet sent"
    assert selectors.list_document(game_list)["sections"]["army"] == [{"card": "MW-008", "qty": 1}]


def test_a_kept_draft_of_an_older_version_says_so_and_saving_it_asks_first(site, new_page, make_user):
    page, game_list = open_editor(new_page, site, make_user, empty("hagmi"))
    edit_url = page.url
    add_with_the_mouse(page, "tactics", "HS-029", 2)
    wait_idle(page)
    page.evaluate("window.dispatchEvent(new Event('pagehide'))")  # as when the tab is closed
    services.list_update(game_list=game_list, user=game_list.owner, notes="saved elsewhere", expected_version=1)
    page.goto(edit_url)
    offer = page.locator("#draft-offer")
    expect(offer).to_contain_text("version 1")  # made to version 1; the list is now at version 2
    offer.get_by_role("button", name="Restore my unsaved changes").click()
    expect(qty(page, "tactics", "HS-029")).to_have_value("2")
    page.locator("#save").click()
    expect(page.locator(".conflict")).to_contain_text("you edited version 1; it is now at version 2")
    expect(page.locator("#save-note")).to_contain_text("Not saved")
    page.get_by_role("button", name="Save my version over version 2").click()
    expect(page.locator("#save-note")).to_contain_text("Saved")
    assert selectors.list_document(GameList.objects.get(pk=game_list.pk))["sections"]["tactics"] == [
        {"card": "HS-029", "qty": 2}]


# --- the keyboard -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(390, 844)], ids=["390x844"])
def test_focus_stays_on_minus_and_plus_and_the_skip_link_reaches_the_search(site, new_page, make_user, size):
    deck = bundled("hagmi", "sample-vanguard")
    page, game_list = open_editor(new_page, site, make_user, deck, size=size)
    plus = page.get_by_role("button", name="One more Guren-maru", exact=True)
    plus.click()
    expect(qty(page, "weapons", "HS-001")).to_have_value("3")
    expect(page.get_by_role("button", name="One more Guren-maru", exact=True)).to_be_focused()
    page.keyboard.press("Enter")  # the same button again, from the keyboard
    expect(qty(page, "weapons", "HS-001")).to_have_value("4")
    minus = page.get_by_role("button", name="One fewer Guren-maru", exact=True)
    minus.click()
    expect(qty(page, "weapons", "HS-001")).to_have_value("3")
    expect(page.get_by_role("button", name="One fewer Guren-maru", exact=True)).to_be_focused()
    for left in ("2", "1"):
        page.keyboard.press("Space")
        expect(qty(page, "weapons", "HS-001")).to_have_value(left)
    page.keyboard.press("Enter")  # the last copy: the entry goes, focus moves to the entry now in its place
    expect(qty(page, "weapons", "HS-001")).to_have_count(0)
    expect(page.locator('section[data-section="weapons"] li[data-card="HS-013"] button.step').first).to_be_focused()
    qty(page, "weapons", "HS-013").fill("5")  # a quantity typed in place, applied on Enter
    page.keyboard.press("Enter")
    wait_idle(page)
    assert [e["qty"] for e in draft(page)["sections"]["weapons"] if e["card"] == "HS-013"] == [5]
    expect(qty(page, "weapons", "HS-013")).to_be_focused()

    page.goto(page.url)  # reload, then from the top of the page: Skip to content, Skip to the card search
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(".editor-skips a").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#q")).to_be_focused()
