"""A Warcaster player with BattleScribe data builds a force with a squad attachment and chooses the weapons of a hero
and a vehicle in the list editor (W5), with the real pointer at desktop and phone widths, in English and Japanese."""
from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from builder import selectors
from builder.listio import parse_roster
from builder.models import GameList
from cards.selectors import catalog_for, catalog_forget
from tests.browser.conftest import SCREENSHOTS, WIDTH_AND_LANGUAGE, WIDTH_AND_LANGUAGE_IDS, shoot
from tests.browser.test_editor import assert_nothing_covers_a_control, draft, open_editor, wait_idle

pytestmark = pytest.mark.django_db(transaction=True)

FIXTURES = Path(__file__).resolve().parents[1] / "cards" / "fixtures" / "battlescribe"
LEGEND = {"en": "Weapon choice of {}", "ja": "{}の武器選択"}


def no_sideways_scroll(page, where: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{where}: the page scrolls sideways by {wide} px"


@pytest.mark.parametrize("size, language", WIDTH_AND_LANGUAGE, ids=WIDTH_AND_LANGUAGE_IDS)
def test_choose_a_heros_and_a_vehicles_weapons_beside_a_squad_attachment(site, new_page, make_user, size, language):
    call_command("import_package", str(FIXTURES / "community-shape"), stdout=StringIO())
    catalog_forget()
    document = parse_roster((FIXTURES / "community-roster.ros").read_bytes(), catalog_for)
    chosen = {entry["card"]: entry.pop("options")["weapons"] for entry in document["sections"]["force"]
              if entry.get("options")}
    assert chosen == {"BS-CS-HERO-ISK": ["BS-CS-W-LANCE"], "BS-CS-SKIFF": ["BS-CS-P-RIVET"]}
    page, game_list = open_editor(new_page, site, make_user, document, size=size, language=language)
    force = page.locator('section[data-section="force"]')
    expect(force.locator('li[data-card="BS-CS-SPOTTER"]')).to_be_visible()  # the attachment: an entry of its own
    for code, (name, weapon) in {"BS-CS-HERO-ISK": ("Isk Marrow", "BS-CS-W-LANCE"),
                                 "BS-CS-SKIFF": ("Gale Skiff", "BS-CS-P-RIVET")}.items():
        row = force.locator(f'li[data-card="{code}"]')
        expect(row.locator("fieldset.loadout legend").first).to_have_text(LEGEND[language].format(name))
        index = [e["card"] for e in document["sections"]["force"]].index(code)
        box = page.locator(f"#weapons-force-{index}-{weapon}")
        box.click()  # the real pointer
        expect(box).to_be_checked()
        wait_idle(page)
    # the vehicle offers only what its Hardpoint group links (not the hero's or the warjack's other weapons)
    skiff = force.locator('li[data-card="BS-CS-SKIFF"] fieldset.loadout input[type=checkbox]')
    assert sorted(skiff.evaluate_all("els => els.map(e => e.value)")) == ["BS-CS-P-FLARE", "BS-CS-P-LASH",
                                                                                      "BS-CS-P-RIVET"]
    wait_idle(page)
    got = {e["card"]: (e.get("options") or {}).get("weapons") for e in draft(page)["sections"]["force"]}
    assert got["BS-CS-HERO-ISK"] == ["BS-CS-W-LANCE"] and got["BS-CS-SKIFF"] == ["BS-CS-P-RIVET"]
    expect(page.locator("#legality")).to_have_class(re.compile("is-legal"))
    where = f"weapon choices {size[0]} {language}"
    assert_nothing_covers_a_control(page, where)
    no_sideways_scroll(page, where)
    force.locator('li[data-card="BS-CS-SKIFF"]').scroll_into_view_if_needed()
    shoot(page, f"weapon-choices-{size[0]}-{language}")
    if SCREENSHOTS:  # the force's entries, close up: the attachment and both weapon choices
        force.screenshot(path=str(Path(SCREENSHOTS) / f"weapon-choices-{size[0]}-{language}-force.png"))
    page.locator("#save").click()
    expect(page.locator("#save-note .ok")).to_contain_text("Saved" if language == "en" else "保存しました")
    saved = selectors.list_document(GameList.objects.get(pk=game_list.pk))
    assert {e["card"]: (e.get("options") or {}).get("weapons") for e in saved["sections"]["force"]} == got
