"""List pages: my lists, gallery, new list, a sample list copied, the share page, fork, delete, restore, unlist,
history. The editor is builder/web/listeditor.py, the import page builder/web/listimport.py, the tournament sheet and
its verification builder/web/listsheet.py.

Thin: every read goes through builder.selectors, every write through builder.services (as the REST API does).
"""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from builder import event_selectors, selectors, services
from builder.forms import NewListForm
from builder.listio import ListFormatError, export_list_text
from builder.models import GameList, Visibility
from builder.services import ListServiceError
from cards.selectors import card_by_code, card_factions, sample_lists, systems_list

from . import draws
from . import presenters
from . import vocabulary
from .common import error_lines, error_page, system_or_404

LISTS_PAGE = 50
SCHEMA = "hangar.list/1"


def list_or_error(request: HttpRequest, slug: str) -> GameList:
    return selectors.list_get(slug=slug, user=request.user)


INDEX_FILTERS = ("system", "format", "legal", "deleted")
GALLERY_FILTERS = ("card", "faction", "sort")  # the gallery's search: by card, by faction, newest or most forked


def _filters(request: HttpRequest, scope: str) -> dict[str, str | None]:
    keys = INDEX_FILTERS + (GALLERY_FILTERS if scope == "public" else ())
    return {key: (request.GET.get(key) or "").strip() or None for key in keys}


def _index(request: HttpRequest, *, scope: str, template: str) -> HttpResponse:
    filters = _filters(request, scope)
    try:
        lists = selectors.list_search(user=request.user, scope=scope, **filters)
    except ListServiceError as error:
        return error_page(request, error)
    page = Paginator(lists, LISTS_PAGE).get_page(request.GET.get("page"))
    for item in page.object_list:  # legality as the catalog is now; what changed in it since each list was saved
        services.list_validation_refresh(game_list=item)
        if scope == "mine":
            item.card_change_count = selectors.list_card_changes(item)["count"]
    games = list(systems_list())
    systems = [(s.slug, presenters.system_name(s.slug)) for s in games]
    # The format filter: a select of the formats that exist, by game, in the UI language (never a slug box).
    formats = [(presenters.system_name(s.slug), [(f.slug, f.label) for f in presenters.format_options(s)])
               for s in games]
    known = {slug for _game, options in formats for slug, _label in options}
    if filters["format"] and filters["format"] not in known:  # a format no package has (any more): kept selectable
        formats.append((_("Other"), [(filters["format"], filters["format"])]))
    context = {"page": page, "filters": filters, "systems": systems, "formats": formats,
               "query": request.GET.urlencode()}
    filtered = any(value for key, value in filters.items() if key != "sort")
    if scope == "public":
        context["factions"] = [(presenters.system_name(s.slug),
                                vocabulary.choices(s.slug, "faction", card_factions(s.slug)))
                               for s in games]
        context["sorts"] = [("newest", _("Newest")), ("forks", _("Most forked"))]
        if filters["card"]:  # "lists using this card": its name, when the words name one card
            codes = selectors.card_codes_matching(filters["card"], system=filters["system"])
            if len(codes) == 1:
                card = card_by_code(codes[0], system=filters["system"])
                context["card_named"] = presenters.names(card.data, card.code)["main"] if card else ""
        # a new site has no public list yet: the bundled samples, to look at and copy
        if not page.object_list and not any(filters[key] for key in ("format", "legal", "card", "faction")):
            context["samples"] = _sample_rows(filters["system"])
    elif not page.object_list and not filtered:  # a new player's empty "My lists": what to do first
        context["first_steps"] = True
        context["games"] = systems
        context["samples"] = _sample_rows(None)
    return render(request, template, context)


def _sample_rows(system: str | None) -> list[dict[str, Any]]:
    return [{"system": sample["system"], "key": sample["key"], "name": sample["name"], "cards": sample["cards"],
             "game": presenters.system_name(sample["system"]),
             "format": presenters.format_name(sample["format"], sample["system"])}
            for sample in sample_lists(system)]


@login_required
@require_POST
def sample_fork(request: HttpRequest, system: str, key: str) -> HttpResponse:
    """Copy a bundled sample list into the user's lists (a private list) and open it in the editor."""
    try:
        game_list = services.list_fork_sample(system=system, key=key, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("Copied: “%(name)s” is a private list of yours. Change it as you like.")
                     % {"name": game_list.name})
    return redirect("list_edit", slug=game_list.slug)


@login_required
def my_lists(request: HttpRequest) -> HttpResponse:
    """The user's lists; `?deleted=1` is the trash (deleted lists, each with a Restore button)."""
    return _index(request, scope="mine", template="lists/mine.html")


def gallery(request: HttpRequest) -> HttpResponse:
    return _index(request, scope="public", template="lists/gallery.html")


@login_required
@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest) -> HttpResponse:
    slug = request.GET.get("system") or request.POST.get("system")
    if not slug:
        systems = [{"slug": s.slug, "name": presenters.system_name(s.slug)} for s in systems_list()]
        return render(request, "lists/new.html", {"systems": systems})
    game = system_or_404(slug)
    formats = presenters.format_options(game)
    default = next((f.slug for f in formats if f.default), None)
    form = NewListForm(request.POST or None, formats=formats, initial={"format": default})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        document = {"schema": SCHEMA, "system": game.slug, "format": data["format"], "name": data["name"],
                    "sections": {section: [] for section in selectors.system_sections(game.slug)}}
        try:
            game_list = services.list_create(owner=request.user, document=document, visibility=data["visibility"])
        except (ListServiceError, ListFormatError) as error:
            form.add_error(None, error_lines(error)[0]["message"])
        else:
            return redirect("list_edit", slug=game_list.slug)
    return render(request, "lists/new.html",
                  {"game": game, "system_name": presenters.system_name(game.slug), "form": form})


# --- the share page ----------------------------------------------------------------------------------------


def list_view(game_list: GameList, document: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    cat = presenters.catalog(game_list.system.slug)
    return {
        "list": game_list,
        "system_name": presenters.system_name(game_list.system.slug),
        "document": document,
        "sections": presenters.section_rows(document, cat),
        "result": result,
        "violations": presenters.violation_rows(result, cat),
        "counters": presenters.counters(game_list.system.slug, selectors.document_gauges(document), cat),
        "chart": presenters.cost_chart(document, cat),
        "card_changes": presenters.card_changes(game_list, cat),
        # the rows' word for a card's cost, as the filters say it
        "cost_word": presenters.cost_word(game_list.system.slug),
    }


def list_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Read-only, works without JS: copy as text, download JSON, fork, Open Graph tags. URL name used by the API."""
    try:
        game_list = list_or_error(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    document = selectors.list_document(game_list)
    result = selectors.list_validation(game_list, lang=presenters.ui_lang())
    cat = presenters.catalog(game_list.system.slug)
    context = list_view(game_list, document, result)
    roster = selectors.roster_exportable(document)
    context.update({
        "text_export": export_list_text(document, cat, lang=presenters.ui_lang()),
        # a BattleScribe / New Recruit roster of any list whose cards are loaded (docs/list-formats.md)
        "roster_download": roster,
        "roster_unavailable": not roster,
        # the editor's draw odds and sample hand (HAGMI!), here too: "Draw a sample hand" is a GET of this page
        "odds": draws.odds_panel(document, cat, seed=draws.seed_of(request.GET)),
        "is_owner": request.user.is_authenticated and game_list.owner_id == request.user.pk,
        "share_url": request.build_absolute_uri(reverse("list_detail", kwargs={"slug": game_list.slug})),
        # where it was forked from, unless that list is now private or trashed (its name is not ours to show)
        "forked_from": game_list.forked_from if game_list.forked_from_id
        and selectors.list_can_see(game_list.forked_from, request.user) else None,
    })
    if context["is_owner"]:
        context["event_notices"] = _event_notices(game_list, document)
    return render(request, "lists/detail.html", context)


def _sections_of(document: dict[str, Any]) -> dict[str, Any]:
    """A list's cards by section, empty sections left out (they do not make two lists differ)."""
    return {name: entries for name, entries in (document.get("sections") or {}).items() if entries}


def _event_notices(game_list: GameList, document: dict[str, Any]) -> list[dict[str, Any]]:
    """The events holding a locked submission of this list that differs from the list as it is now."""
    notices = []
    for submission in event_selectors.submissions_of_list(game_list):
        if _sections_of(submission.document) == _sections_of(document):
            continue
        event = submission.entrant.event
        notices.append({"event": event, "submission": submission,
                        "when": timezone.localtime(submission.created_at).strftime("%Y-%m-%d %H:%M")})
    return notices


@login_required
@require_POST
def list_fork(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        fork = services.list_fork(game_list=list_or_error(request, slug), user=request.user, lang=presenters.ui_lang())
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("Forked: “%(name)s” is a private copy in your lists. Rename it and change it as "
                                "you like; the original is unchanged.") % {"name": fork.name})
    return redirect("list_edit", slug=fork.slug)


@login_required
@require_POST
def list_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """Soft delete (the owner's trash keeps it, restorable): nothing a user made is lost."""
    try:
        services.list_delete(game_list=list_or_error(request, slug), user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("The list is in your trash; you can restore it from there."))
    return redirect(f"{reverse('my_lists')}?deleted=1")


@login_required
@require_POST
def list_restore(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game_list = services.list_restore(game_list=list_or_error(request, slug), user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("The list is restored."))
    return redirect("list_detail", slug=game_list.slug)


@login_required
@require_POST
def list_unlist(request: HttpRequest, slug: str) -> HttpResponse:
    """The private list page's "Make it unlisted": anyone with the link may then open it (its share link works)."""
    try:
        game_list = list_or_error(request, slug)
        was_private = game_list.visibility == Visibility.PRIVATE
        game_list = services.list_unlist(game_list=game_list, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    if was_private:
        messages.success(request, _("The list is unlisted: anyone with its link can open it."))
    return redirect(f"{reverse('list_detail', kwargs={'slug': game_list.slug})}#share-url")


# --- history -----------------------------------------------------------------------------------------------


def list_history(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game_list = list_or_error(request, slug)
        revisions = list(selectors.revision_list(game_list))
        diff = None
        if len(revisions) > 1 or "from" in request.GET:
            to = int(request.GET.get("to") or revisions[0].number)
            start = int(request.GET.get("from") or max(1, to - 1))
            diff = selectors.revision_diff(game_list, start, to)
    except ValueError:
        return error_page(request, ListServiceError("from/to must be revision numbers (1, 2, ...).",
                                                    code="history.revision_numbers"))
    except ListServiceError as error:
        return error_page(request, error)
    cat = presenters.catalog(game_list.system.slug)
    sections = []
    for section, change in (diff or {}).get("sections", {}).items():
        if any(change.values()):
            sections.append({"label": presenters.section_label(section), **{
                kind: [{**item, "names": presenters.names(cat.cards.get(item["card"]), item["card"])} for item in items]
                for kind, items in change.items()}})
    return render(request, "lists/history.html", {
        "list": game_list, "revisions": revisions, "diff": diff,
        "diff_fields": presenters.diff_field_rows(diff, game_list.system.slug), "diff_sections": sections})
