"""Home, accounts, catalog and rules pages."""
from __future__ import annotations

from functools import cache
import re
from pathlib import Path
from urllib.parse import urlencode

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods

from builder import rulebook, services
from builder.forms import CatalogFilterForm, SignupForm
from builder.throttles import LoginFailureThrottle, scope_wait
from cards import drafts
from cards.selectors import (
    CardQuery, card_get, card_search, cards_diff, formats_for, package_battlescribe_zip, package_version_get,
    package_versions, packages_list,
    systems_list,
)
from rules_engine.construction import RULES
from rules_engine.systems import system as game_system

from . import cardtext, weaponodds
from . import presenters
from . import vocabulary
from .common import is_htmx, system_or_404, throttled_page

CATALOG_PAGE = 48
FAVICON = Path(__file__).resolve().parents[2] / "static" / "hangar" / "favicon.ico"
FAVICON_MAX_AGE = 86_400  # seconds; the file changes with a deploy at most


@cache
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_http_methods(["GET", "HEAD"])
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers fetch before reading a page's <link rel="icon"> (and for the API's JSON)."""
    response = HttpResponse(_favicon_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = f"public, max-age={FAVICON_MAX_AGE}"
    return response


def home(request: HttpRequest) -> HttpResponse:
    systems = [{"slug": s.slug, "name": presenters.system_name(s.slug), "cards": s.card_count} for s in systems_list()]
    return render(request, "home.html", {"systems": systems})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and (wait := scope_wait(request, "signup")) is not None:
        return throttled_page(request, wait)  # the same budget as POST /api/auth/signup/ (docs/security.md)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user, _token = services.user_signup(username=data["username"], password=data["password"],
                                                email=data.get("email") or "")
        except services.AccountError as error:
            for field, messages in (error.details or {}).items():
                for message in messages:
                    form.add_error(field if field in form.fields else None, message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("my_lists")
    return render(request, "registration/signup.html", {"form": form})


def login_with_budget(request: HttpRequest, sign_in) -> HttpResponse:
    """POST to a sign-in page (`sign_in(request)`: Django's LoginView or the admin's login) within the budget of
    failed sign-ins per client address that the API shares (scope `login`, builder.throttles): 429 once spent.
    The page answers a redirect when it signed the user in, and its form again (200) when it did not."""
    throttle = LoginFailureThrottle()
    wait = throttle.begin(request)
    if wait is not None:
        return throttled_page(request, wait)
    response = sign_in(request)
    if response.status_code in (301, 302, 303):  # signed in: that attempt was no failure
        throttle.succeeded(request)
    return response


class LoginPage(auth_views.LoginView):
    """Django's login page; failed sign-ins share the API's budget per client address (scope `login`)."""

    def post(self, request, *args, **kwargs):
        return login_with_budget(request, lambda req: super(LoginPage, self).post(req, *args, **kwargs))


# --- catalog ------------------------------------------------------------------------------------------------


def _filter_choices(system_slug: str) -> dict[str, list[tuple[str, str]]]:
    """The values this system's cards have, as (value, words in the UI language) (builder.web.vocabulary)."""
    cards = card_search(CardQuery(system=system_slug)).order_by()

    def distinct(field: str, vocabulary_field: str) -> list[tuple[str, str]]:
        values = {str(value) for value in cards.values_list(field, flat=True) if value}
        return vocabulary.choices(system_slug, vocabulary_field, values)

    frames = distinct("data__frame", "frame") if "frame" in presenters.presentation(system_slug).filter_fields else []
    return {"categories": distinct("category", "category"), "factions": distinct("faction", "faction"),
            "frames": frames}


def card_rows(cards, system_slug: str) -> list[dict]:
    return [{"code": c.code, "names": presenters.names(c.data, c.code), "category": c.category, "faction": c.faction,
             "cost": c.cost, "frame": c.data.get("frame", ""),
             "section": presenters.default_section(system_slug, c.data),
             "category_label": vocabulary.label(system_slug, "category", c.category),
             "side_label": vocabulary.label(system_slug, "frame", c.data.get("frame")) if c.data.get("frame")
             else vocabulary.label(system_slug, "faction", c.faction) if c.faction else "",
             "partial": cardtext.not_modelled(c.data)}  # played only in part: the catalog's marker
            for c in cards]


def catalog(request: HttpRequest, system: str) -> HttpResponse:
    """Search and filters as a GET form (works without JS); htmx swaps only the results (as you type, 300 ms after
    the last key) and puts the filters that apply into the address bar (HX-Push-Url), so a reload or a shared
    link gives the same cards. A history restore (Back after the htmx cache lost the page) gets the whole page."""
    game = system_or_404(system)
    form = CatalogFilterForm(request.GET or None, **_filter_choices(system))
    page = Paginator(card_search(form.query(system)), CATALOG_PAGE).get_page(request.GET.get("page"))
    shown = form.canonical_query() if form.is_bound else {}
    if page.number > 1:
        shown["page"] = str(page.number)
    rows = card_rows(page.object_list, system)
    context = {"game": game, "system_name": presenters.system_name(system), "form": form, "page": page,
               "cards": rows, "any_partial": any(row["partial"] for row in rows), "query": urlencode(shown),
               "packages": packages_list(system).order_by("slug")}
    partial = is_htmx(request) and request.headers.get("HX-History-Restore-Request") != "true"
    response = render(request, "catalog/_results.html" if partial else "catalog/browse.html", context)
    if partial:
        response["HX-Push-Url"] = f"{request.path}?{urlencode(shown)}" if shown else request.path
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))  # never a cached part for a page
    return response


def card_detail(request: HttpRequest, system: str, code: str) -> HttpResponse:
    game = system_or_404(system)
    card = card_get(system, code)
    if card is None:
        raise Http404(f"No card {code!r} in {system}.")
    cat = presenters.catalog(system)
    text = cardtext.describe(system, card.data, lambda code: presenters.names(cat.cards.get(code), code)["main"],
                             page=True)
    return render(request, presenters.presentation(system).card_template, {
        "game": game, "system_name": presenters.system_name(system), "card": card, "data": card.data,
        "names": presenters.names(card.data, card.code), "text": text,  # every field in words (builder/web/cardtext.py)
        "weapons": cardtext.weapon_rows(system, card.data), "stats": cardtext.stat_rows(system, card.data),
        "odds": weaponodds.panel(game_system(system), card.data, cat.cards, request.GET.get("target")),
        "rules_text": cardtext.rules_text(card.data), "not_modelled": cardtext.not_modelled(card.data),
        "my_proposals": drafts.proposals_by(request.user, system, code),  # the card editor
    })


ODDS_MAX_WEAPONS = 12  # weapons one odds request may name (a warjack's loadout holds a few)
_PANEL_ID = re.compile(r"^odds-[a-z0-9-]{1,60}$")


@require_http_methods(["GET", "HEAD"])
def card_odds(request: HttpRequest, system: str, code: str) -> HttpResponse:
    """The exact odds of a model's weapons against a chosen target (W11): its fixed weapons and the warjack weapons
    named by ?weapon=CODE (a force entry's chosen loadout), ?target=CODE. The list editor loads it into an entry's
    odds panel (htmx: the panel alone, ?panel=ID names it); without JavaScript it is a page of its own."""
    game = system_or_404(system)
    card = card_get(system, code)
    if card is None:
        raise Http404(f"No card {code!r} in {system}.")
    cat = presenters.catalog(system)
    asked = [value for value in request.GET.getlist("weapon") if value]
    problems = []
    if len(asked) > ODDS_MAX_WEAPONS:
        problems.append(_("At most %(max)s weapons at a time: the first %(max)s are shown.") % {"max": ODDS_MAX_WEAPONS})
        asked = asked[:ODDS_MAX_WEAPONS]
    weapons = []
    for value in asked:
        item = cat.cards.get(value)
        if item is None or item.get("kind") != "weapon":
            problems.append(_("“%(code)s” is not a warjack weapon of this catalog: left out.") % {"code": value[:60]})
        elif value not in weapons:
            weapons.append(value)
    if weapons and not presenters.takes_weapons(card.data):
        problems.append(_("Only a warjack takes warjack weapons: %(name)s's own weapons are shown.")
                        % {"name": presenters.names(card.data, card.code)["main"]})
        weapons = []
    odds = weaponodds.panel(game_system(system), card.data, cat.cards, request.GET.get("target"), weapons)
    panel_id = request.GET.get("panel", "")
    partial = is_htmx(request) and bool(_PANEL_ID.match(panel_id))
    query = [("weapon", value) for value in weapons] + ([("panel", panel_id)] if partial else [])
    context = {"game": game, "system_name": presenters.system_name(system), "card": card,
               "names": presenters.names(card.data, card.code),
               "odds": odds, "odds_id": panel_id if partial else "odds",
               "odds_attacker": presenters.names(card.data, card.code),
               "odds_in_editor": partial, "odds_weapons": weapons, "odds_heading": "h4" if partial else "h2",
               "odds_url": f"{request.path}?{urlencode(query)}" if partial else request.path, "problems": problems}
    status = 200 if odds else 404
    response = render(request, "catalog/_weapon_odds_panel.html" if partial else "catalog/card_odds.html", context,
                      status=200 if partial else status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_http_methods(["GET", "HEAD"])
def package_detail(request: HttpRequest, system: str, slug: str) -> HttpResponse:
    """A data package's versions, newest first, and what changed between two of them (?from=&to=, by
    default the newest and the one before): the cards added, removed and changed, with the fields in words."""
    game = system_or_404(system)
    versions = list(package_versions(system, slug))
    if not versions:
        raise Http404(f"No package {slug!r} in {system}.")
    numbers = [version.number for version in versions]
    asked = {"to": request.GET.get("to"), "from": request.GET.get("from")}
    default = {"to": numbers[0], "from": numbers[1] if len(numbers) > 1 else numbers[0]}
    chosen, unknown = {}, []
    for key, value in asked.items():
        number = int(value) if value and value.isascii() and value.isdigit() and len(value) < 10 else None
        if value and number not in numbers:
            unknown.append(value)
        chosen[key] = number if number in numbers else default[key]
    old = package_version_get(system, slug, chosen["from"])
    new = package_version_get(system, slug, chosen["to"])
    diff = cards_diff(old.data.get("cards", []), new.data.get("cards", []))
    old_cards = {card["code"]: card for card in old.data.get("cards", [])}
    new_cards = {card["code"]: card for card in new.data.get("cards", [])}
    shown = presenters.catalog(system).cards

    def row(code: str, card: dict, fields: list[str] | None = None) -> dict:
        return {"code": code, "names": presenters.names(card, code), "linked": code in shown,
                "fields": [vocabulary.card_field(field) for field in fields or []]}

    return render(request, "catalog/package.html", {
        "game": game, "system_name": presenters.system_name(system), "slug": slug, "versions": versions,
        "current": versions[0], "chosen": chosen, "unknown": unknown, "old": old, "new": new,
        "added": [row(code, new_cards[code]) for code in diff["added"]],
        "removed": [row(code, old_cards[code]) for code in diff["removed"]],
        "changed": [row(code, new_cards[code], fields) for code, fields in diff["changed"].items()],
    })


@require_http_methods(["GET", "HEAD"])
def package_battlescribe(request: HttpRequest, system: str, slug: str) -> HttpResponse:
    """The package as BattleScribe data: one .zip of its game system (.gst) and catalogue (.cat), for BattleScribe
    and New Recruit (docs/data-packages.md "BattleScribe data out"). Public, as the package's JSON is."""
    system_or_404(system)
    raw = package_battlescribe_zip(system, slug)
    if raw is None:
        raise Http404(f"No package {slug!r} in {system}.")
    response = HttpResponse(raw, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="hangar-{system}-{slug}-battlescribe.zip"'
    return response


# --- rules --------------------------------------------------------------------------------------------------


def rules(request: HttpRequest, system: str) -> HttpResponse:
    game = system_or_404(system)
    lang = presenters.ui_lang()
    texts = rulebook.rule_texts(lang)
    rows = [{"id": info.id, "code": info.code, "title": info.title(lang), "severity": info.severity,
             "text": texts.get(info.id or "", ""), "interpretation": "[interpretation" in texts.get(info.id or "", "")}
            for info in RULES if info.system in (system, None)]
    formats = [{"slug": f.slug, "names": presenters.names({"name": f.name, "name_en": f.name_en}, f.slug),
                "options": (f.data.get("options") or {}), "default": f.is_default} for f in formats_for(game)]
    return render(request, "rules.html", {
        "game": game, "system_name": presenters.system_name(system), "rules": rows, "formats": formats,
        # How the simulator plays: the game rules of docs/rules.md, the engine's own account and its options.
        "game_sections": rulebook.game_sections(system, lang), "engine_rules": rulebook.engine_rules(system, lang),
        "engine_options": rulebook.engine_options(system, lang),
        # The texts in the page's language (docs/ja/ on a Japanese page); an untranslated one is said to be English.
        "rules_translated": rulebook.in_page_language(rulebook.RULES_NAME, lang),
        "engine_translated": rulebook.in_page_language(rulebook.engine_name(system), lang),
    })
