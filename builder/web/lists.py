"""List pages: my lists, gallery, new, share page, editor, fork, history, import, tournament sheet, verification.

Thin: every read goes through builder.selectors, every write through builder.services (as the REST API does).
"""
from __future__ import annotations

import json
from types import SimpleNamespace
from urllib.parse import urlencode
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from builder import selectors, services
from builder.forms import EditorForm, ImportForm, NewListForm, SheetForm, VerifyForm
from builder.listio import ListFormatError, export_list_text
from builder.models import GameList, Visibility
from builder.services import ListConflict, ListNotFound, ListServiceError
from builder.services.lists import check_owner
from cards.selectors import (
    CardQuery, card_by_code, card_factions, card_search, catalog_for, sample_lists, systems_list,
)
from rules_engine.systems import system as game_system

from . import cardtext, draws
from . import picker as pickers
from . import presenters
from . import vocabulary
from .common import error_lines, error_page, is_htmx, system_or_404
from .editing import (
    Edit, EditError, apply_edit, apply_loadouts, apply_quantities, paste_fix, paste_into, rank_matches, require_entry,
    split_quantity,
)

LISTS_PAGE = 50
PICKER_SIZE = 80
SCHEMA = "hangar.list/1"


def _list_or_error(request: HttpRequest, slug: str) -> GameList:
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


def _list_view(game_list: GameList, document: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
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
        game_list = _list_or_error(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    document = selectors.list_document(game_list)
    result = selectors.list_validation(game_list, lang=presenters.ui_lang())
    cat = presenters.catalog(game_list.system.slug)
    context = _list_view(game_list, document, result)
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
    return render(request, "lists/detail.html", context)


@login_required
@require_POST
def list_fork(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        fork = services.list_fork(game_list=_list_or_error(request, slug), user=request.user, lang=presenters.ui_lang())
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
        services.list_delete(game_list=_list_or_error(request, slug), user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("The list is in your trash; you can restore it from there."))
    return redirect(f"{reverse('my_lists')}?deleted=1")


@login_required
@require_POST
def list_restore(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game_list = services.list_restore(game_list=_list_or_error(request, slug), user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("The list is restored."))
    return redirect("list_detail", slug=game_list.slug)


@login_required
@require_POST
def list_unlist(request: HttpRequest, slug: str) -> HttpResponse:
    """The private list page's "Make it unlisted": anyone with the link may then open it (its share link works)."""
    try:
        game_list = _list_or_error(request, slug)
        was_private = game_list.visibility == Visibility.PRIVATE
        game_list = services.list_unlist(game_list=game_list, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    if was_private:
        messages.success(request, _("The list is unlisted: anyone with its link can open it."))
    return redirect(f"{reverse('list_detail', kwargs={'slug': game_list.slug})}#share-url")


# --- the editor --------------------------------------------------------------------------------------------


def _picker_filters(system: str, data: Any = None) -> pickers.PickerFilterForm:
    """The picker's filters (category or kind, frame, faction, suit, cost), from the request's pick-* fields."""
    opponent_only = list(game_system(system).opponent_categories)
    players = card_search(CardQuery(system=system)).exclude(category__in=opponent_only)
    return pickers.PickerFilterForm(system, players, pickers.bound_data(data))


def _picker(system: str, q: str, filters: pickers.PickerFilterForm | None = None) -> list[dict[str, Any]]:
    # 機獣 and 母艦 are the co-op opponent's cards, never a player's (H3): the picker leaves them out.
    # A number typed first is how many to add ("3 補給"): the search is for the words after it, best match first.
    q = split_quantity(q)[1]
    opponent_only = list(game_system(system).opponent_categories)  # 機獣 and 母艦: no list holds them
    filters = filters or _picker_filters(system)
    cards = filters.narrow(card_search(filters.query(q))).exclude(category__in=opponent_only)[:PICKER_SIZE]
    return rank_matches(pickers.rows(system, cards, presenters.catalog(system)), q)  # each row with its card text


def _draft_validation(draft: dict[str, Any]) -> dict[str, Any]:
    try:
        return selectors.document_validate(draft, lang=presenters.ui_lang())
    except ListServiceError as error:
        return {"legal": False, "violations": [{"code": error.code, "severity": "error", "rule": None,
                                                "message": error.message, "section": None, "cards": []}],
                "summary": {}}


def _entry_texts(system: str, sections: list[dict[str, Any]]) -> None:
    """Each entry of the draft gets its card's text in words (shown on hover, focus or a tap of its name)."""
    cat = presenters.catalog(system)
    if cat is None:
        return
    for row in sections:
        for index, entry in enumerate(row["entries"]):
            card = cat.cards.get(entry["card"])
            if card is None:
                continue
            text = cardtext.describe(system, card, lambda code: presenters.names(cat.cards.get(code), code)["main"])
            entry.update({"text": text, "has_text": bool(text["facts"] or text["lines"] or text["text"]),
                          "tip": f"tip-{row['section']}-{index}"})


def _editor_context(game_list, form, draft, *, saved_doc, q="", conflict=None, problems=None, saved=False,
                    save_failed=False, paste=None, request_data=None, swap=False):
    """The editor's context; `swap`: for an htmx answer, which shows no picker (lists/_editor_swap.html)."""
    result = _draft_validation(draft)
    context = _list_view(game_list, draft, result)
    system = game_list.system.slug
    _entry_texts(system, context["sections"])
    dirty = draft != saved_doc
    filters = None if swap else _picker_filters(system, request_data)  # the picker's pick-* fields
    context.update({
        "form": form, "draft_json": json.dumps(draft, ensure_ascii=False), "q": q, "picker_q": split_quantity(q)[1],
        "picker": [] if swap else _picker(system, q, filters), "picker_filters": filters,
        "picker_filtered": filters is not None and filters.active,
        "odds": draws.odds_panel(draft, presenters.catalog(system), seed=draws.seed_of(request_data)), "conflict": conflict, "problems": problems or [], "saved": saved,
        "save_failed": save_failed, "dirty": dirty, "hagmi": system == "hagmi",
        "loadout": presenters.warjack_loadout_choices(presenters.catalog(system)) if system == "warcaster" else None,
        "paste": paste or {"text": "", "problems": [], "added": None, "swap": False},
        "example": presenters.text_example(system),  # the hints' example in this game's own cards
        # what static/hangar/editor.js needs: the draft's key in the browser (slug and version) and whether it differs
        # from the saved list (the warning before leaving, the draft kept in localStorage)
        "editor_state": {"slug": game_list.slug, "version": int(form["version"].value() or game_list.version),
                         "saved_version": game_list.version, "dirty": dirty, "saved": saved},
    })
    return context


def _formats(game_list: GameList) -> list[Any]:
    """The system's formats, plus the list's own format when the catalog no longer has it (list.unknown_format)."""
    formats = presenters.format_options(game_list.system)
    if game_list.format and game_list.format not in {fmt.slug for fmt in formats}:
        formats.append(SimpleNamespace(slug=game_list.format, label=game_list.format, default=False))
    return formats


def _initial_form(game_list: GameList, document: dict[str, Any]) -> EditorForm:
    return EditorForm(
        formats=_formats(game_list),
        initial={"document": json.dumps(document, ensure_ascii=False), "version": game_list.version,
                 "name": game_list.name, "format": game_list.format, "visibility": game_list.visibility,
                 "notes": game_list.notes},
    )


def _owned(request: HttpRequest, slug: str) -> GameList:
    game_list = _list_or_error(request, slug)
    check_owner(game_list, request.user)
    if game_list.deleted_at is not None:
        raise ListServiceError("This list is in the trash; restore it before editing.", code="list.deleted")
    return game_list


@login_required
@require_http_methods(["GET", "POST"])
def list_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Add/remove with + and −, a live legality panel (htmx swaps #editor-live), Save with the version edited."""
    try:
        game_list = _owned(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    saved_doc = selectors.list_document(game_list)
    if request.method == "GET":
        form = _initial_form(game_list, saved_doc)
        context = _editor_context(game_list, form, saved_doc, saved_doc=saved_doc, q=request.GET.get("q", ""),
                                  saved=request.GET.get("saved") == "1", request_data=request.GET)
        return render(request, "lists/edit.html", context)
    return _editor_post(request, game_list, saved_doc)


def _editor_post(request: HttpRequest, game_list: GameList, saved_doc: dict[str, Any]) -> HttpResponse:
    form = EditorForm(request.POST, formats=_formats(game_list))
    q = request.POST.get("q", "")
    if not form.is_valid():
        problems = [" ".join(errors) if name not in form.fields or not form.fields[name].label
                    else f"{form.fields[name].label}: {' '.join(errors)}" for name, errors in form.errors.items()]
        context = _editor_context(game_list, _initial_form(game_list, saved_doc), saved_doc,
                                  saved_doc=saved_doc, q=q, problems=problems, swap=is_htmx(request))
        return _editor_render(request, context, 400)
    data = form.cleaned_data
    try:
        draft, _system = services.check_document(data["document"])
    except (ListServiceError, ListFormatError) as error:
        context = _editor_context(game_list, _initial_form(game_list, saved_doc), saved_doc, saved_doc=saved_doc,
                                  q=q, problems=[row["message"] for row in error_lines(error)], swap=is_htmx(request))
        return _editor_render(request, context, 400)
    draft = {**draft, "name": data["name"], "format": data["format"] or None}
    op = request.POST.get("op", "")
    system = game_list.system.slug
    sections = selectors.system_sections(system)
    # the form is the draft: warjack loadouts and quantities typed in place apply with whatever button was pressed
    # (both name their entry by its place in the draft as shown, so loadouts first: a quantity of 0 removes an entry)
    if system == "warcaster":
        choices = presenters.warjack_loadout_choices(presenters.catalog(system))
        draft = apply_loadouts(draft, request.POST, sections, choices["warjacks"], choices["choosers"])
    draft, problems = apply_quantities(draft, request.POST, sections)
    paste = None
    if op == "paste" or op.startswith("pastefix:"):
        draft, paste = _paste(request.POST.get("paste", ""), op, game_list, draft, sections)
    elif op not in ("", "save", "overwrite", "search", "refresh"):
        try:
            edit = Edit.parse(op)
            if edit.op == "loadout":  # "Set loadout": the entry's own fields, already applied above (W5)
                require_entry(draft, edit, sections)
            else:  # "add" from the fast-add box carries how many ("3 補給")
                draft = apply_edit(draft, edit, sections, count=_count(request.POST.get("add_qty")))
        except EditError as error:
            problems.append(str(error))
    conflict, saved, save_failed = None, False, False
    if op in ("save", "overwrite"):
        version = request.POST.get("current_version") if op == "overwrite" else data["version"]
        try:
            game_list = services.list_update(game_list=game_list, user=request.user, document=draft,
                                             notes=data["notes"], visibility=data["visibility"],
                                             expected_version=version)
        except ListConflict as error:
            conflict = {"yours": data["version"], "current": error.current.version,
                        "current_name": error.current.name}
            save_failed = True
        except (ListServiceError, ListFormatError) as error:
            problems += [row["message"] for row in error_lines(error)]
            save_failed = True
        else:
            if not is_htmx(request):
                return redirect(f"{reverse('list_edit', kwargs={'slug': game_list.slug})}?saved=1")
            saved_doc, saved = selectors.list_document(game_list), True
            draft = saved_doc
    post = request.POST.copy()
    post["document"] = json.dumps(draft, ensure_ascii=False)
    if saved:
        post["version"] = str(game_list.version)
    form = EditorForm(post, formats=_formats(game_list))
    form.is_valid()
    context = _editor_context(game_list, form, draft, saved_doc=saved_doc, q=q, conflict=conflict,
                              problems=problems, saved=saved, save_failed=save_failed, paste=paste,
                              request_data=request.POST, swap=is_htmx(request))
    return _editor_render(request, context, 409 if conflict else 200)


def _count(written: str | None) -> int:
    """How many copies an "add" adds: the fast-add box's number (1 to MAX_QTY), else 1."""
    return int(written) if written and written.isascii() and written.isdigit() and len(written) <= 3 else 1


def _paste(text: str, op: str, game_list: GameList, draft: dict[str, Any], sections: list[str]
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Add the pasted text-format lines to the draft; the bad lines stay in the box with the importer's messages.
    "pastefix:LINE:K" first rewrites line LINE of the box with its K-th "did you mean" (editing.paste_fix)."""
    system = game_list.system.slug
    if op.startswith("pastefix:"):
        text = paste_fix(text, op.removeprefix("pastefix:"), system, catalog_for)
    cat = presenters.catalog(system)

    def home(code: str) -> str:
        card = cat.cards.get(code)
        return presenters.default_section(system, card) if card else sections[0]

    pasted = paste_into(draft, text, system, catalog_for, home, sections)
    return pasted.document, {"text": pasted.text, "problems": pasted.problems, "added": pasted.added, "swap": True}


def _editor_render(request: HttpRequest, context: dict[str, Any], status: int) -> HttpResponse:
    """The editor's answer to a POST. htmx keeps only #editor-live, #editor-side and, after a paste, #paste-box
    (the form's hx-select, hx-select-oob and the box's hx-swap-oob): it gets just those, in the same markup as the
    whole page (lists/_editor_swap.html), not the picker and the rest of the page it would throw away. A plain form
    POST (no JavaScript) gets the whole page."""
    template = "lists/_editor_swap.html" if is_htmx(request) else "lists/edit.html"
    response = render(request, template, context, status=_status(request, status))
    patch_vary_headers(response, ("HX-Request",))  # never a fragment for a page, nor a page for htmx
    return response


def _status(request: HttpRequest, status: int) -> int:
    """htmx swaps only 2xx answers: the editor's 400/409 pages reach it as 200 (the page itself says what is wrong)."""
    return 200 if is_htmx(request) else status


@login_required
def list_picker(request: HttpRequest, slug: str) -> HttpResponse:
    """htmx: the editor's card search results (add buttons belong to the editor form)."""
    try:
        game_list = _owned(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    q = request.GET.get("q", "")
    filters = _picker_filters(game_list.system.slug, request.GET)
    return render(request, "lists/_picker.html", {
        "picker": _picker(game_list.system.slug, q, filters), "picker_q": split_quantity(q)[1],
        "picker_filtered": filters.active,
        "hagmi": game_list.system.slug == "hagmi", "cost_word": presenters.cost_word(game_list.system.slug),
    })


# --- history -----------------------------------------------------------------------------------------------


def list_history(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game_list = _list_or_error(request, slug)
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


# --- import ------------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def list_import(request: HttpRequest) -> HttpResponse:
    systems = [(s.slug, presenters.system_name(s.slug)) for s in systems_list()]
    form = ImportForm(request.POST or None, request.FILES or None, systems=systems)
    issues: list[dict[str, Any]] = []
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            common = {"owner": request.user, "name": data["name"] or None, "visibility": data["visibility"]}
            try:
                if data.get("file"):
                    upload = data["file"]
                    game_list = services.list_import_file(filename=upload.name, content=upload.read(),
                                                          system=data["system"] or None, **common)
                else:
                    game_list = services.list_import_text(text=data["text"], system=data["system"] or None,
                                                          **common)
            except (ListServiceError, ListFormatError) as error:
                issues, status = error_lines(error), getattr(error, "status", 400)
            else:
                return redirect("list_edit", slug=game_list.slug)
        else:
            status = 400
    return render(request, "lists/import.html",
                  {"form": form, "issues": issues, "examples": presenters.text_examples()},
                  status=status)


# --- tournament sheet and verification -------------------------------------------------------------------------


SHEET_SESSION_KEY = "hangar.sheet.{slug}"  # the player and event this browser remembers for a list's sheet


@require_http_methods(["GET", "POST"])
def list_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable: the list, its legality, a verification code (sha256 of the canonical JSON + revision) and link.

    `?player=&event=` print a player name and an event on the sheet; they are never part of the list. POST
    `remember` keeps them for this list in the visitor's session (this browser only), `forget` drops them; both
    answer a redirect to the sheet with them in its address."""
    try:
        game_list = _list_or_error(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    key = SHEET_SESSION_KEY.format(slug=game_list.slug)
    if request.method == "POST":
        form = SheetForm(request.POST)
        form.is_valid()
        people = {name: form.cleaned_data.get(name, "") for name in ("player", "event")}
        if "forget" in request.POST:
            request.session.pop(key, None)
            messages.success(request, _("The sheet no longer remembers the player and event."))
            return redirect("list_sheet", slug=game_list.slug)
        request.session[key] = people
        messages.success(request, _("This browser remembers the player and event for this list's sheet."))
        return redirect(f"{reverse('list_sheet', kwargs={'slug': game_list.slug})}?{urlencode(people)}")
    remembered = request.session.get(key) or {}
    sheet_form = SheetForm(request.GET if ("player" in request.GET or "event" in request.GET) else remembered)
    sheet_form.is_valid()
    revision = selectors.revision_list(game_list).first()
    document = revision.document if revision else selectors.list_document(game_list)
    result = selectors.document_validate(document, lang=presenters.ui_lang())
    context = _list_view(game_list, document, result)
    context.update({
        "revision": revision,
        "code": presenters.verification_code(document, revision.number if revision else 0),
        "verify_url": request.build_absolute_uri(reverse("verify")),
        "share_url": request.build_absolute_uri(reverse("list_detail", kwargs={"slug": game_list.slug})),
        "sheet_form": sheet_form, "player": sheet_form.cleaned_data.get("player", ""),
        "event": sheet_form.cleaned_data.get("event", ""), "remembered": bool(remembered),
    })
    return render(request, "lists/sheet.html", context)


def verify(request: HttpRequest) -> HttpResponse:
    """An organiser types the list link/ID and the code from a sheet: does the sheet match the stored list?"""
    form = VerifyForm(request.GET or None)
    outcome: dict[str, Any] | None = None
    if request.GET and form.is_valid():
        outcome = _verify(request, form.cleaned_data["list"], form.cleaned_data["code"])
    return render(request, "lists/verify.html", {"form": form, "outcome": outcome})


def _verify(request: HttpRequest, slug: str, code: str) -> dict[str, Any]:
    parsed = presenters.parse_verification_code(code)
    if parsed is None:
        return {"ok": False, "reason": "format"}
    _digest, number = parsed
    try:
        game_list = _list_or_error(request, slug)
        revision = selectors.revision_get(game_list, number)
    except ListNotFound:
        return {"ok": False, "reason": "missing", "revision": number}
    ok = presenters.verification_code(revision.document, revision.number) == code.strip().lower().replace(" ", "")
    latest = selectors.revision_list(game_list).first()
    result = selectors.document_validate(revision.document, lang=presenters.ui_lang())
    return {"ok": ok, "reason": "" if ok else "mismatch", "list": game_list, "revision": revision,
            "latest": latest.number if latest else None, "legal": result.get("legal"),
            "sections": (presenters.section_rows(revision.document, presenters.catalog(game_list.system.slug))
                         if ok else [])}
