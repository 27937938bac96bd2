"""The list editor page: the form, the card picker and its filters, quantities, loadouts, pasted text, saving with
a version check (a conflict shows both sides). Works without JavaScript; htmx swaps the parts when it is there.

Thin: every read goes through builder.selectors, every write through builder.services (as the REST API does).
"""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods

from builder import selectors, services
from builder.forms import EditorForm
from builder.listio import ListFormatError
from builder.models import GameList
from builder.services import ListConflict, ListServiceError
from builder.services.lists import check_owner
from cards.selectors import CardQuery, card_search, catalog_for
from rules_engine.systems import system as game_system

from . import cardtext, draws
from . import picker as pickers
from . import presenters
from .common import error_lines, error_page, is_htmx
from .editing import (
    Edit, EditError, apply_edit, apply_loadouts, apply_quantities, paste_fix, paste_into, rank_matches, require_entry,
    split_quantity,
)
from .lists import list_or_error, list_view

PICKER_SIZE = 80


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
    context = list_view(game_list, draft, result)
    system = game_list.system.slug
    shows = presenters.presentation(system)
    _entry_texts(system, context["sections"])
    dirty = draft != saved_doc
    filters = None if swap else _picker_filters(system, request_data)  # the picker's pick-* fields
    context.update({
        "form": form, "draft_json": json.dumps(draft, ensure_ascii=False), "q": q, "picker_q": split_quantity(q)[1],
        "picker": [] if swap else _picker(system, q, filters), "picker_filters": filters,
        "picker_filtered": filters is not None and filters.active,
        "odds": draws.odds_panel(draft, presenters.catalog(system), seed=draws.seed_of(request_data)), "conflict": conflict, "problems": problems or [], "saved": saved,
        "save_failed": save_failed, "dirty": dirty, "also_adds_to": shows.picker_also_adds_to,
        "loadout": presenters.warjack_loadout_choices(presenters.catalog(system)) if shows.entry_loadouts else None,
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
    game_list = list_or_error(request, slug)
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
    if presenters.presentation(system).entry_loadouts:
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
        "also_adds_to": presenters.presentation(game_list.system.slug).picker_also_adds_to,
        "cost_word": presenters.cost_word(game_list.system.slug),
    })
