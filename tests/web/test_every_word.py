"""Every page in the player's language: a crawler visits every page of the permission matrix's URL list
(tests/security/test_permission_matrix.py) with a site full of data — the bundled packages of the three games, a
list of each sample list, a finished run and replays of each game, a list with a history of edits
(tests/support/showcase.py) — in Japanese and in English, and fails on what a player should never read:

- a slug of a vocabulary (formats, opponents, policies, end reasons, violation codes, card-field values, sections,
  visibilities, run statuses, sort orders) where words belong;
- raw Markdown (`**` or a backtick) outside code, and engine text (`key=value`, `P0`, `True`/`False`);
- a Japanese vocabulary word on an English page, an English vocabulary word on a Japanese page;
- English prose on a Japanese page (the rules pages' texts come from docs/ja/ there).

The lists of words come from the vocabularies themselves (builder/web/vocabulary.py, the packages' formats and
opponents, the registry's rules and sections), so a new value is checked too. Data is data: card, list, unit and
user names show in both languages by design and are taken out of the text before the word checks.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from builder import selectors, services
from builder.forms import ORDERING_CHOICES
from builder.models import RunStatus, Visibility
from builder.templatetags.hangar import run_status, visibility_label
from builder.web import presenters, vocabulary
from cards.models import Card, DataPackage, Format, Opponent
from cards.selectors import package_document
from cards.services import package_import
from cards.systems import SECTION_LABELS
from rules_engine.construction import RULES
from rules_engine.core.outcome import END_REASONS
from tests.security.test_permission_matrix import MATRIX
from tests.support.showcase import GAMES, build_showcase, load_bundled

pytestmark = pytest.mark.django_db

LANGUAGES = ("ja", "en")
# Elements whose text is code or input, not words of the page.
SKIPPED = {"script", "style", "code", "pre", "textarea", "template", "kbd", "samp"}
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class PageText(HTMLParser):
    """The words a page shows: text outside code/script/style, and the title/aria-label/placeholder/alt of
    elements, and the value of buttons."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if not self._skip:
            self.parts.extend(str(values[name]) for name in SHOWN_ATTRIBUTES if values.get(name))
            if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
                self.parts.append(str(values["value"]))
        if tag in VOID:
            return
        self._stack.append(tag)
        if tag in SKIPPED:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag not in self._stack:
            return
        while self._stack:
            top = self._stack.pop()
            if top in SKIPPED:
                self._skip -= 1
            if top == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())

    @classmethod
    def of(cls, html: str) -> str:
        parser = cls()
        parser.feed(html)
        return "\n".join(parser.parts)


# --- the site -------------------------------------------------------------------------------------------------


@dataclass
class Site:
    client: Client
    urls: dict[str, list[str]]  # matrix page name -> the URLs the crawler opens for it
    data_words: tuple[str, ...]  # names that are data (cards, lists, units, users), longest first


def _page_names() -> set[str]:
    """The matrix's pages: the names with a GET call of a page (not the API) that someone may open."""
    names = set()
    for name, calls in MATRIX.items():
        for call in calls:
            if call.api or call.method != "GET":
                continue
            if any(call.expect(actor, state).status == 200 for actor in call.actors for state in call.states):
                names.add(name)
    return names


@pytest.fixture
def site(owner) -> Site:
    load_bundled()
    owner.is_staff = True  # the crawler opens the staff pages too (the data import); no other page differs for staff
    owner.save(update_fields=["is_staff"])
    show = build_showcase(owner)
    client = Client()
    client.force_login(owner)
    lists = list(show.lists.values())
    runs = show.runs
    edited = show.edited
    revision = selectors.revision_list(edited).first()
    code = presenters.verification_code(revision.document, revision.number)
    hagmi = DataPackage.objects.get(system__slug="hagmi")  # a second version, so that its page has a diff
    second = package_document("hagmi", hagmi.slug)
    second["cards"][0] = {**second["cards"][0], "fuel_cost": second["cards"][0].get("fuel_cost", 0) + 1}
    package_import(second)
    packages = list(DataPackage.objects.select_related("system").order_by("system__slug", "slug"))
    proposals = _card_editor_showcase(owner)
    cards = list(Card.objects.select_related("system", "package").order_by("system__slug", "code"))
    systems = sorted({card.system.slug for card in cards})
    fields = []  # a field of each game: its first sample opponent and a list of the owner, with weights
    for system in systems:
        opponent = Opponent.objects.filter(system__slug=system).order_by("slug").first()
        own = [gl for gl in lists if gl.system.slug == system][:1]
        entries = ([{"opponent": opponent.slug, "weight": 3}] if opponent else []) \
            + [{"list": gl.slug, "weight": 1} for gl in own]
        fields.append(services.field_create(owner=owner, system=system, name="Store league", visibility="public",
                                            entries=entries))
    event, sheets, event_code = _event_showcase(owner)
    urls: dict[str, list[str]] = {
        "home": ["/"],
        "favicon": [],  # an image
        "signup": ["/accounts/signup/"],
        "login": ["/accounts/login/"],
        "catalog": [f"/catalog/{system}/" for system in systems]
        + [f"/catalog/{system}/?sort=-cost" for system in systems],
        "card_detail": [f"/catalog/{card.system.slug}/{card.code}/" for card in cards],
        "card_odds": [f"/catalog/warcaster/{card.code}/odds/" for card in cards
                      if card.system.slug == "warcaster" and card.data.get("weapons")][:4]
        + [f"/catalog/warcaster/{jack.code}/odds/?weapon={weapon.code}" for jack, weapon in zip(
            [c for c in cards if c.system.slug == "warcaster" and c.data.get("kind") == "warjack"][:1],
            [c for c in cards if c.system.slug == "warcaster" and c.data.get("kind") == "weapon"][:1])],
        "rules": [f"/rules/{system}/" for system in systems],
        "verify": ["/verify/", f"/verify/?list={edited.slug}&code={code}",
                   f"/verify/?list={sheets[0].public_id}&code={event_code}"],
        "my_lists": ["/lists/"],
        "gallery": ["/lists/gallery/"],
        "list_new": [f"/lists/new/?system={system}" for system in systems],
        "list_import": ["/lists/import/"],
        "data_import": ["/data/import/"],
        "simulation_list": ["/simulations/"],
        "list_detail": [f"/lists/{gl.slug}/" for gl in lists],
        "list_edit": [f"/lists/{gl.slug}/edit/" for gl in lists],
        "list_picker": [f"/lists/{gl.slug}/edit/cards/" for gl in lists],
        "list_history": [f"/lists/{edited.slug}/history/"] + [f"/lists/{gl.slug}/history/" for gl in lists[:1]],
        "list_sheet": [f"/lists/{gl.slug}/sheet/" for gl in lists],
        "simulation_new": [f"/lists/{gl.slug}/simulate/" for gl in lists],
        "gauntlet_new": [f"/lists/{gl.slug}/gauntlet/" for gl in lists],
        "doctor_new": [f"/lists/{gl.slug}/doctor/" for gl in lists],
        "impact_new": [f"/lists/{gl.slug}/impact/" for gl in lists],
        "beats_new": [f"/lists/{gl.slug}/beats/" for gl in lists[:3]],
        "matrix_new": ["/matrices/"] + [f"/matrices/?system={system}" for system in systems],
        "matrix_detail": [f"/matrices/{matrix.public_id}/" for matrix in show.matrices]
        + [f"/matrices/{show.matrices[0].public_id}/?rows=name-&columns=rate:0-"],
        "matrix_progress": [f"/matrices/{matrix.public_id}/progress/" for matrix in show.matrices],
        "matrix_cancel": [],  # POST only (tests/web/test_matrix_pages.py)
        "matrix_mine": ["/matrices/mine/"],
        "simulation_detail": [f"/simulations/{run.public_id}/" for run in runs],
        "simulation_progress": [f"/simulations/{run.public_id}/progress/" for run in runs],
        "replay": [f"/simulations/{run.public_id}/games/{game}/" for run in runs for game in range(GAMES)],
        "simulation_compare": [f"/simulations/compare/?a={runs[0].public_id}&b={runs[-1].public_id}"],
        "analysis": ["/analysis/"] + [f"/analysis/?example={system}" for system in systems]
        + [f"/analysis/?run={run.public_id}&game=0&step=1" for run in runs],
        "replay_position": [f"/simulations/{run.public_id}/games/0/position/?step=1" for run in runs],  # JSON
        "replay_from_here": [],  # POST only (tests/web/test_analysis.py)
        "doctor_apply": [],  # POST only (tests/web/test_batch_pages.py)
        "field_list": ["/fields/"],
        "field_new": ["/fields/new/"] + [f"/fields/new/?system={system}" for system in systems],
        "field_detail": [f"/fields/{field.slug}/" for field in fields],
        "field_edit": [f"/fields/{field.slug}/edit/" for field in fields],
        "field_delete": [],  # POST only (tests/web/test_field_pages.py)
        # the card editor: a draft with a change, history and proposals, every kind's form
        "data_home": ["/data/"],
        "proposal_list": ["/data/proposals/"],
        "proposal_detail": [f"/data/proposals/{proposal.pk}/" for proposal in proposals],
        "draft_detail": [f"/data/{package.system.slug}/{package.slug}/" for package in packages],
        "draft_card_new": [f"/data/{package.system.slug}/{package.slug}/cards/new/"
                           + (f"?{'category' if package.system.slug == 'hagmi' else 'kind'}={kind}" if kind else "")
                           for package in packages for kind in ["", *sorted({card.category for card in cards
                                                                             if card.package_id == package.pk})]],
        "draft_card": [f"/data/{card.system.slug}/{card.package.slug}/cards/{card.code}/" for card in
                       _one_of_each_kind(cards)],
        "card_propose": [f"/catalog/{card.system.slug}/{card.code}/propose/" for card in _one_of_each_kind(cards)],
        "package_battlescribe": [],  # a .zip of BattleScribe data, no page (tests/web/test_package_page.py)
        # a tournament event of the owner (staff) with a legal list, an illegal one and a player without one
        "event_manage": [f"/events/{event.slug}/manage/"],
        "event_sheet": [f"/events/{event.slug}/submissions/{sheet.public_id}/sheet/" for sheet in sheets],
        "event_pack": [f"/events/{event.slug}/pack/"],
        "event_export": [],  # CSV, JSON, PDF: no page (tests/events/test_event_exports.py)
        "package_detail": [f"/catalog/{package.system.slug}/packages/{package.slug}/" for package in packages]
        + [f"/catalog/hagmi/packages/{hagmi.slug}/?from=2&to=1", f"/catalog/hagmi/packages/{hagmi.slug}/?from=9"],
    }
    missing = _page_names() - set(urls)
    assert not missing, f"the crawler has no URL for the matrix's pages {sorted(missing)}: add them above"
    data = {card.name for card in cards} | {card.name_en for card in cards} | {package.title for package in packages}
    for card in cards:  # MWDA/Warcaster unit names, weapons and cortex options are data too
        for key in ("name", "name_en"):
            for item in (card.data.get("weapons") or []) + (card.data.get("options") or []):
                if isinstance(item, dict) and item.get(key):
                    data.add(str(item[key]))
    data |= {gl.name for gl in lists} | {opp.name for opp in Opponent.objects.all()}
    data |= {str(opp.data.get("name_en") or "") for opp in Opponent.objects.all()}
    data |= {fmt.name for fmt in Format.objects.all()} | {fmt.name_en for fmt in Format.objects.all()}
    data |= {event.name, event.place} | set(EVENT_PLAYERS) | set(EVENT_PLAYERS.values())
    data |= {f"{name}'s list" for name in EVENT_PLAYERS.values()}
    data |= {owner.username, "Store league", "Tuned for the store championship.", "The printed card says so.", "Thank you."}
    words = tuple(sorted((w for w in data if w and len(w) > 1), key=len, reverse=True))
    return Site(client=client, urls=urls, data_words=words)


EVENT_PLAYERS = {"ichiro": "Ichiro Tanaka", "hanako": "鈴木 花子", "jiro": "Jiro Sato"}  # username -> display name


def _event_showcase(owner) -> tuple[Any, list[Any], str]:
    """A HAGMI event organised by `owner`: a legal list, an illegal one (three copies: H4), a player without one."""
    from django.contrib.auth.models import User

    from builder import event_selectors
    from builder.services import events as event_services
    from tests.events.conftest import event_data, hagmi_doc

    event = event_services.event_create(organiser=owner, data=event_data(name="Winter Cup", place="Akihabara"))
    sheets = []
    for (username, name), copies in zip(EVENT_PLAYERS.items(), (2, 3, 0)):
        user = User.objects.create_user(username, password="pw-x-12345", email=f"{username}@example.org")
        event_services.event_join(event=event, user=user, display_name=name)
        if copies:
            game_list = services.list_create(owner=user, document=hagmi_doc(f"{name}'s list", copies=copies))
            sheets.append(event_services.event_submit(event=event, user=user, game_list=game_list))
    return event, sheets, event_selectors.submission_code(sheets[0])


def _one_of_each_kind(cards: list[Card]) -> list[Card]:
    """A card of each system and category (HAGMI) or kind (MWDA, Warcaster): every shape of the editor's form."""
    found: dict[tuple[str, str], Card] = {}
    for card in cards:
        found.setdefault((card.system.slug, card.category), card)
    return list(found.values())


def _card_editor_showcase(owner) -> list:
    """Two corrections proposed to HAGMI cards: one accepted (so the package has a draft and a history), one open."""
    from cards import drafts

    first, second = Card.objects.filter(system__slug="hagmi", category="unit").order_by("code")[:2]
    made = []
    for card in (first, second):
        changed = {**card.data, "armor": card.data["armor"] + 1}
        made.append(drafts.proposal_create("hagmi", card.code, changed, user=owner, note="The printed card says so."))
    drafts.proposal_accept(made[0], user=owner, reply="Thank you.")
    return made


def _pages(site: Site, language: str, part: tuple[int, int] = (0, 1)) -> Iterator[tuple[str, str, str]]:
    """(page name, url, the words it shows) of every page, in `language` (of every n-th page from the k-th, with
    `part` (k, n))."""
    site.client.cookies["django_language"] = language
    visits = [(name, url) for name, urls in sorted(site.urls.items()) for url in urls]
    for name, url in visits[part[0]::part[1]]:
        response = site.client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, (url, response.status_code)
        if not response["Content-Type"].startswith("text/html"):
            continue
        html = response.content.decode()
        assert "<html" not in html or f'<html lang="{language}">' in html, (url, language)  # or a fragment
        yield name, url, PageText.of(html)


# --- the vocabularies -------------------------------------------------------------------------------------------


def _in(language: str, text: Any) -> str:
    with translation.override(language):
        return str(text)


def vocabularies() -> dict[str, dict[str, tuple[str, str]]]:
    """vocabulary -> slug -> (Japanese words, English words). Every vocabulary a page shows."""
    table: dict[str, dict[str, tuple[str, str]]] = {}
    for (system, field), values in vocabulary.all_words().items():
        words = table.setdefault(f"{system}.{field}", {})
        for slug, label in values.items():
            words[slug] = (_in("ja", label), _in("en", label))
    for fmt in Format.objects.select_related("system"):
        table.setdefault(f"{fmt.system.slug}.format", {})[fmt.slug] = (fmt.name, fmt.name_en or fmt.name)
    for opp in Opponent.objects.select_related("system"):
        table.setdefault(f"{opp.system.slug}.opponent", {})[opp.slug] = (opp.name, str(opp.data.get("name_en") or ""))
    for info in RULES:
        if info.code:
            table.setdefault("violation", {})[info.code] = (info.title_ja or "", info.title_en or "")
    for section, labels in SECTION_LABELS.items():
        table.setdefault("section", {})[section] = (labels["ja"], labels["en"])
    for reason in END_REASONS:
        table.setdefault("end_reason", {})[reason] = (vocabulary.label("*", "end_reason", reason),) * 2
    for status in RunStatus.values:
        table.setdefault("run_status", {})[status] = (_in("ja", run_status(status)), _in("en", run_status(status)))
    for visibility in Visibility.values:
        table.setdefault("visibility", {})[visibility] = (_in("ja", visibility_label(visibility)),
                                                           _in("en", visibility_label(visibility)))
    for slug, label in ORDERING_CHOICES:
        table.setdefault("sort", {})[slug] = (_in("ja", label), _in("en", label))
    return table


JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
MARKDOWN = re.compile(r"\*\*|`")
ENGINE_TEXT = re.compile(r"\b[a-z_][a-z0-9_]*=\S|\bP[01]\b|\b(?:True|False|None)\b")
# A slug is shown raw when it is a word of its own: not part of a longer word, a path or an address.
def _word(slug: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w/.\-]){re.escape(slug)}(?![\w/\-])")


# An English word of prose: lower-case Latin letters standing alone. Names (Warcaster, Mobile HQ), abbreviations
# (SPD, ARM, LCG), code (left out of the text), paths and files (docs/rules.md, odds.py) are not prose.
ENGLISH_WORD = re.compile(r"(?<![\w/.\-])[a-z]{3,}(?![\w/.\-])")
# Warcaster's stats as its Japanese rules text (seed 003: 「RATおよびMATが-1される」, 「高DEF低ARM」) and its cards write
# them: the rules pages' texts keep them; the other pages show the stats by their labels.
RULES_STAT_NAMES = {"SPD", "MAT", "RAT", "DEF", "ARM", "FOC", "STR", "POW"}
ENGLISH_PROSE_SHARE = 0.02  # at most this share of a Japanese page's words may be English ones


def english_prose(text: str) -> list[str]:
    """English prose on a Japanese page (such as rule texts left in English): when English words are more than
    ENGLISH_PROSE_SHARE of the page's words (a Japanese word counted as two characters), the lines that have them."""
    english = ENGLISH_WORD.findall(text)
    japanese = len(JAPANESE.findall(text)) / 2
    if not english or len(english) <= ENGLISH_PROSE_SHARE * (len(english) + japanese):
        return []
    lines = [line for line in text.splitlines() if ENGLISH_WORD.search(line)]
    return [f"English prose ({len(english)} English words to {japanese:.0f} Japanese) in {line[:120]!r}"
            for line in lines[:20]]


def _without_data(text: str, site: Site) -> str:
    for word in site.data_words:
        text = text.replace(word, " ")
    return text


def _slug_like(slug: str) -> bool:
    """A slug no English sentence contains: with a hyphen, underscore, dot or digit (tactics-v4, hero_attachment)."""
    return bool(re.search(r"[-_.\d]", slug)) and not JAPANESE.search(slug)


def problems_of(site: Site, language: str, part: tuple[int, int] = (0, 1)) -> list[str]:
    table = vocabularies()
    raw_slugs = {slug for words in table.values() for slug in words if _slug_like(slug)}
    ja_words = {ja for words in table.values() for ja, en in words.values() if ja and JAPANESE.search(ja) and ja != en}
    en_words = {en for words in table.values() for ja, en in words.values()
                if en and ja and ja != en and not JAPANESE.search(en) and re.search(r"[A-Za-z]{3}", en)}
    slug_patterns = {slug: _word(slug) for slug in raw_slugs}
    # On a Japanese page a plain-word slug is English too (greedy, jump, energy, single, unit, black).
    plain_slugs = {slug for words in table.values() for slug in words
                   if slug not in raw_slugs and re.fullmatch(r"[a-z][a-z ]+[a-z]", slug)}
    plain_patterns = {slug: _word(slug) for slug in plain_slugs}
    en_patterns = {word: _word(word) for word in en_words}
    found: list[str] = []
    for name, url, text in _pages(site, language, part):
        where = f"{language} {url}"
        for line in text.splitlines():
            if MARKDOWN.search(line):
                found.append(f"{where}: raw Markdown in {line[:120]!r}")
            if ENGINE_TEXT.search(line):
                found.append(f"{where}: engine text in {line[:120]!r}")
        words = _without_data(text, site)
        for slug, pattern in slug_patterns.items():
            if pattern.search(words):
                found.append(f"{where}: the slug {slug!r} where words belong")
        if language == "en" and name != "rules":  # the English rule texts name the Japanese originals (兵器 deck)
            for word in ja_words:
                if word in words:
                    found.append(f"{where}: the Japanese word {word!r} on an English page")
        elif language == "ja":  # the Japanese rules pages read docs/ja/: their rule texts are checked too
            if name == "rules":
                found += [f"{where}: {problem}" for problem in english_prose(words)]
            for word, pattern in en_patterns.items():
                if name == "rules" and word in RULES_STAT_NAMES:
                    continue
                if pattern.search(words):
                    found.append(f"{where}: the English word {word!r} on a Japanese page")
            for slug, pattern in plain_patterns.items():
                if pattern.search(words):
                    found.append(f"{where}: the slug {slug!r} on a Japanese page")
    return sorted(set(found))


PARTS = 2  # each language's pages in two tests (every other page), so that no test crawls for a minute


@pytest.mark.parametrize("language, part", [(language, part) for language in LANGUAGES for part in range(PARTS)],
                         ids=[f"{language}-{part + 1}of{PARTS}" for language in LANGUAGES for part in range(PARTS)])
def test_every_page_speaks_the_players_language(site, language, part):
    """No slug, raw Markdown, engine text or word of the other language on any page (this test: every
    other page, from the first or the second)."""
    problems = problems_of(site, language, (part, PARTS))
    if os.environ.get("HANGAR_CRAWL_DUMP"):  # all of them, for the one fixing them: HANGAR_CRAWL_DUMP=/tmp/words
        Path(f"{os.environ['HANGAR_CRAWL_DUMP']}-{language}-{part}.txt").write_text("\n".join(problems),
                                                                                    encoding="utf-8")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:200])


def test_the_crawler_sees_what_it_must_catch():
    """The checks themselves: a page with a slug, Markdown, engine text and the other language's word fails."""
    bad = "<html lang='en'><body><p>Format: tactics-v4 · **bold** · card=HS-005 · P0 plays · 兵装</p></body></html>"
    text = PageText.of(bad)
    assert MARKDOWN.search(text) and ENGINE_TEXT.search(text)
    assert _word("tactics-v4").search(text) and "兵装" in text
    assert _word("tactics-v4").search("see /formats/tactics-v4/") is None  # a path is not a shown slug
    assert PageText.of("<p>words <code>`code`</code> <script>x=1</script></p>") == "words"


def test_a_japanese_page_with_english_prose_fails():
    """A Japanese rules page whose rule texts are English fails; names, abbreviations, code and paths in Japanese
    sentences do not count."""
    english_rule = PageText.of("<h1>HAGMI! の構築ルール</h1><p><strong>H1</strong> The Weapons deck has at least "
                               "20 cards; each player shuffles the decks separately.</p>")
    assert english_prose(english_rule)
    japanese_rule = PageText.of("<p><strong>W11</strong> 攻撃ロールは RAT の数のアタックダイスを振る（<code>pools</code>、"
                                "docs/rules.md、odds.py、Warcaster、Mobile HQ）。</p>")
    assert not english_prose(japanese_rule)
