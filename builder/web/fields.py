"""Field pages: my fields and the public ones, a new field, a field's page (its opponents with their shares), its
edit form and its delete button. A field (a "meta") is a named, shareable set of weighted opponents of one game
that a gauntlet or the list doctor plays a list against (builder.services.fields, docs/simulations.md "Fields").

Thin: every read goes through builder.selectors, every write through builder.services (as the REST API does). A
field shown to someone other than its owner never shows a list that reader may not see (selectors.field_entries).
"""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from builder import selectors, services
from builder.forms import FieldForm
from builder.models import OpponentField
from builder.services import ListServiceError
from cards.selectors import systems_list

from . import presenters
from .common import error_lines, error_page, system_or_404
from .runforms import opponent_choices

PUBLIC_SHOWN = 50
GALLERY_SHOWN = 12


def field_list(request: HttpRequest) -> HttpResponse:
    """The signed-in player's fields, and everyone's public fields (newest change first)."""
    mine = list(selectors.field_search(user=request.user, scope="mine")[:200]) \
        if request.user.is_authenticated else []
    public = selectors.field_search(user=request.user, scope="public")
    if request.user.is_authenticated:
        public = public.exclude(owner_id=request.user.pk)
    return render(request, "fields/index.html", {"mine": mine, "public": list(public[:PUBLIC_SHOWN]),
                                                 "systems": _systems()})


def _systems() -> list[dict[str, str]]:
    return [{"slug": system.slug, "name": presenters.system_name(system.slug)} for system in systems_list()]


def _entry_rows(field: OpponentField, user) -> list[dict[str, Any]]:
    """The entries the reader may see, with their names in the page's language and their shares of the total."""
    entries = selectors.field_entries(field, user=user)
    total = sum(entry.weight for entry in entries) or 1.0
    rows = []
    for entry in entries:
        if entry.game_list_id is None:
            name, url, by = presenters.opponent_name(field.system.slug, entry.opponent), None, None
        else:
            name = entry.game_list.name or _("(untitled)")
            url = reverse("list_detail", kwargs={"slug": entry.game_list.slug})
            by = entry.game_list.owner.username
        rows.append({"name": name, "url": url, "by": by, "weight": _number(entry.weight),
                     "share": f"{entry.weight / total * 100:.0f} %", "share_value": entry.weight / total * 100})
    return rows


def _number(value: float) -> str:
    return f"{value:g}"


def field_detail(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        field = selectors.field_get(slug=slug, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    own = field.owner_id == getattr(request.user, "pk", None)
    my_lists = []
    if request.user.is_authenticated:
        my_lists = list(selectors.list_search(user=request.user, scope="mine", system=field.system.slug)[:30])
    return render(request, "fields/detail.html", {
        "field": field, "rows": _entry_rows(field, request.user), "own": own,
        "hidden": selectors.field_hidden_count(field, user=request.user),
        "system_name": presenters.system_name(field.system.slug), "my_lists": my_lists,
        "share_url": request.build_absolute_uri(reverse("field_detail", kwargs={"slug": field.slug})),
    })


def _choices(system, user, field: OpponentField | None) -> dict[str, Any]:
    """The weight rows of the form: the sample opponents, the lists already in the field, the player's lists and the
    newest gallery lists of the game."""
    current = []
    if field is not None:
        for entry in selectors.field_entries(field, user=user):
            if entry.game_list_id is not None:
                game_list = entry.game_list
                words = game_list.name or _("(untitled)")
                if game_list.owner_id != getattr(user, "pk", None):
                    words = _("%(name)s by %(player)s") % {"name": words, "player": game_list.owner.username}
                current.append((game_list.slug, words))
    mine = (selectors.list_search(user=user, scope="mine", system=system.slug)
            .annotate(entry_count=Count("entries")).filter(entry_count__gt=0)[:30])
    gallery = (selectors.list_search(user=user, scope="public", system=system.slug)
               .exclude(owner_id=getattr(user, "pk", None))
               .annotate(entry_count=Count("entries")).filter(entry_count__gt=0)[:GALLERY_SHOWN])
    return {
        "opponents": opponent_choices(system),
        "current": current,
        "lists": [(row.slug, row.name or _("(untitled)")) for row in mine],
        "gallery": [(row.slug, _("%(name)s by %(player)s") % {"name": row.name or _("(untitled)"),
                                                               "player": row.owner.username}) for row in gallery],
    }


def _initial(field: OpponentField, user) -> dict[str, Any]:
    initial: dict[str, Any] = {"name": field.name, "description": field.description,
                               "visibility": field.visibility}
    for entry in selectors.field_entries(field, user=user):
        name = f"opponent-{entry.opponent}" if entry.game_list_id is None else f"list-{entry.game_list.slug}"
        initial[name] = float(f"{entry.weight:g}") if entry.weight != int(entry.weight) else int(entry.weight)
    return initial


def _save(request: HttpRequest, form: FieldForm, write) -> OpponentField | None:
    """Call the service with the form's data; its refusal is said on the form (the entry's path in words)."""
    try:
        return write(form.cleaned_data, form.entries())
    except ListServiceError as error:
        for row in error_lines(error):
            form.add_error(None, entry_error_words(error, form) or row["message"])
        return None


def entry_error_words(error: ListServiceError, form: FieldForm) -> str | None:
    """A refused entry or name in the page's language (the service says it in English with its path)."""
    details = error.details if isinstance(error.details, dict) else {}
    path = str(details.get("path") or "")
    if error.code == "field.limit":
        return _("You already have the most fields a player may keep: delete one first.")
    if path == "entries":
        return _("A field holds at most %(n)s opponents.") % {"n": services.fields.MAX_ENTRIES}
    if path.endswith(".list"):
        return _("There is no list %(id)s you may put in this field: give the link of one of your lists, or of "
                 "another player's public or unlisted list of this game, not in the trash.") % {
            "id": details.get("list", "")}
    if path == "name":
        return _("Give the field a name.")
    return None


@login_required
@require_http_methods(["GET", "POST"])
def field_new(request: HttpRequest) -> HttpResponse:
    slug = request.GET.get("system") or request.POST.get("system")
    if not slug:
        return render(request, "fields/new.html", {"systems": _systems()})
    system = system_or_404(slug)
    form = FieldForm(request.POST or None, **_choices(system, request.user, None))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            field = _save(request, form, lambda data, entries: services.field_create(
                owner=request.user, system=system.slug, name=data["name"], description=data["description"],
                visibility=data["visibility"], entries=entries))
            if field is not None:
                messages.success(request, _("The field is saved."))
                return redirect("field_detail", slug=field.slug)
        status = 400
    return render(request, "fields/edit.html", {"form": form, "system": system, "field": None,
                                                "system_name": presenters.system_name(system.slug),
                                                "groups": _groups(form)}, status=status)


def _groups(form: FieldForm):
    return [(legend, [form[name] for name in names]) for legend, names in form.opponent_groups]


def _owned(request: HttpRequest, slug: str) -> OpponentField:
    """The field if the user owns it: ListPermissionDenied (403) for one they may only see, else ListNotFound."""
    field = selectors.field_get(slug=slug, user=request.user)
    if field.owner_id != request.user.pk:
        raise services.ListPermissionDenied(_("Only the owner of this field can change it."))
    return field


@login_required
@require_http_methods(["GET", "POST"])
def field_edit(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        field = _owned(request, slug)
    except ListServiceError as error:
        return error_page(request, error)
    form = FieldForm(request.POST or None, initial=_initial(field, request.user),
                     **_choices(field.system, request.user, field))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            saved = _save(request, form, lambda data, entries: services.field_update(
                field=field, user=request.user, name=data["name"], description=data["description"],
                visibility=data["visibility"], entries=entries))
            if saved is not None:
                messages.success(request, _("The field is saved."))
                return redirect("field_detail", slug=saved.slug)
        status = 400
    return render(request, "fields/edit.html", {"form": form, "system": field.system, "field": field,
                                                "system_name": presenters.system_name(field.system.slug),
                                                "groups": _groups(form)}, status=status)


@login_required
@require_POST
def field_delete(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        field = _owned(request, slug)
        services.field_delete(field=field, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("The field is deleted."))
    return redirect("field_list")
