"""Matchup matrix and "what beats my list" pages.

A matrix plays your chosen lists (rows) against a field of weighted opponents (columns: sample opponents, your lists,
gallery lists); every cell is a plain simulation run (builder.services.matrices), reused when a stored run answers
it. The page draws the cells as a heat map with the win rate and its 95 % interval in each cell; rows and columns are
sorted by links (`?rows=` and `?columns=`, on the server: no script needed). The numbers of every cell are listed
again under a toggle. "What beats my list" is a one-row matrix of the list against every sample opponent and public
list of its game, shown as a ranking (the worst matchup first) with a chart, a link to each opponent and to the
replay of a game the list lost.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.db.models import Count
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from builder import selectors
from builder.forms import BatchForm, event_field
from builder.errors import ListPermissionDenied, SimulationInvalid
from builder.models import MatrixKind, RunStatus
from builder.services import ListServiceError, matrices
from builder.templatetags.hangar import percent
from builder.throttles import scope_wait
from cards.selectors import system_get
from rules_engine.core.seats import seat_pairs

from . import presenters, results
from .batches import field_choices, field_error, gallery_lists, linked_field, opponent_words
from .common import error_page, is_htmx, throttled_page
from .eventfield import event_choices, event_coverage, event_error, origins
from .runforms import opponent_choices, policy_choices, start_from_form

SORTS = ("given", "name", "rate")
LOSS_TRIES = 64  # games of a cell played again, at most, to find a loss to replay (remembered in the cache)
LOSS_SEARCH_GAMES = 12 * LOSS_TRIES  # ... and for every opponent of one page view together


class MatrixForm(BatchForm):
    """The lists to play (your lists of one game: the rows) and the field (a weight for every sample opponent, every
    list of yours and the newest gallery lists; 0 leaves it out), the games per cell, the seed, seats and policies."""

    def __init__(self, *args, rows=(), **kwargs):
        super().__init__(*args, **kwargs)
        has_field = bool(self.initial.get("field") or self.initial.get("event"))
        for name in self.opponent_fields:  # every sample opponent is in the field at first (none with a field given)
            self.fields[name].initial = 1 if hasattr(self.fields[name], "slug") and not has_field else 0
        self.fields["field"].help_text = _("Its opponents are columns with their weights, together with any opponent "
                                           "below that has a weight above 0.")
        other_lists = _("Your other lists")  # BatchForm's words for a gauntlet; here every list of yours plays
        self.opponent_groups = [(_("Your lists") if legend == other_lists else legend, names)
                                for legend, names in self.opponent_groups]
        self.fields["rows"] = forms.MultipleChoiceField(
            label=_("Your lists to play (the rows)"), choices=list(rows), widget=forms.CheckboxSelectMultiple,
            error_messages={"required": _("Choose at least one of your lists to play.")})
        self.fields["games"].label = _("Games per list and opponent")
        self.fields["games"].initial = 100
        self.order_fields(["rows"])


def _my_lists(user, system: str) -> list[tuple[str, str]]:
    rows = (selectors.list_search(user=user, scope="mine", system=system).annotate(entry_count=Count("entries"))
            .filter(entry_count__gt=0)[:30])
    return [(row.slug, row.name or _("(untitled)")) for row in rows]


def _system_of(request: HttpRequest) -> str | None:
    """The game of the page: ?system=, else the game of the user's most recently changed list."""
    wanted = request.GET.get("system") or request.POST.get("system")
    if wanted:
        return wanted
    newest = selectors.list_search(user=request.user, scope="mine").first()
    return newest.system.slug if newest is not None else None


def _started(form, begin, *, too_large_at: str | None):
    """Start a matrix from a valid form (`begin()`): a refusal the form can say goes on it, next to the games or
    `too_large_at` (a matrix past its size) or the field select; (matrix or None, the page's status)."""
    def start():
        try:
            return begin()
        except SimulationInvalid as error:
            words = too_large_words(error)
            if words is not None:
                form.add_error("games" if error.details.get("path") == "games" else too_large_at, words)
                return None
            if not (field_error(form, error) or event_error(form, error)):
                raise
            return None

    return start_from_form(form, start)


@login_required
@require_http_methods(["GET", "POST"])
def matrix_new(request: HttpRequest) -> HttpResponse:
    """Choose your lists and a field, start the matrix (every cell a plain run), then watch it fill."""
    system_slug = _system_of(request)
    system = system_get(system_slug) if system_slug and len(system_slug) <= 32 else None
    if system is None:  # no list yet, or an unknown game in ?system=
        return render(request, "matrices/new.html", {
            "form": None, "system": None, "unknown": system_slug, "system_links": _system_links(request.user),
            "recent": recent_matrices(request.user)}, status=404 if system_slug else 200)
    if request.method == "POST" and (wait := scope_wait(request, "simulations")) is not None:
        return throttled_page(request, wait)
    mine = _my_lists(request.user, system.slug)
    fields, chosen = field_select(request, system.slug)
    events, event = event_choices(request, system.slug)
    form = MatrixForm(request.POST or None, rows=mine, opponents=opponent_choices(system),
                      lists=[(slug, _("Your list: %(name)s") % {"name": name}) for slug, name in mine],
                      gallery=_gallery(system.slug, request.user), policies=policy_choices(system.slug),
                      fields=fields, events=events, initial=_initial(chosen, event))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data

            matrix, status = _started(form, lambda: matrices.matrix_start(
                user=request.user, lists=list(data["rows"]), opponents=form.chosen_opponents(),
                games=data["games"], seed=data["seed"], seats=data.get("seats") or None,
                policy=data["policy"], opponent_policy=data.get("opponent_policy") or None), too_large_at=None)
            if matrix is not None:
                return redirect("matrix_detail", public_id=matrix.public_id)
        else:
            status = 400
    return render(request, "matrices/new.html", {
        "form": form, "system": system, "rows": form["rows"],
        "groups": [(legend, [form[name] for name in names]) for legend, names in form.opponent_groups],
        "pick": [form[name] for name in form.pick_fields], "most_cells": matrices.MAX_CELLS,
        "recent": recent_matrices(request.user), "system_links": _system_links(request.user),
    }, status=status)


def field_select(request: HttpRequest, system: str) -> tuple[list[tuple[str, str]], str]:
    """The fields offered (the player's own, then public ones; a field opened by its link first) and the one
    chosen by ?field= (or the POST), when it is offered: "" else."""
    fields = field_choices(system, request.user)
    chosen = request.GET.get("field") or request.POST.get("field") or ""
    if chosen and not any(slug == chosen for slug, _words in fields):  # a field given by its link (unlisted)
        fields = linked_field(chosen, system, request.user) + fields
    return fields, chosen if any(slug == chosen for slug, _words in fields) else ""


def _initial(field: str, event: str) -> dict[str, str]:
    return {name: value for name, value in (("field", field), ("event", event)) if value}


def too_large_words(error: SimulationInvalid) -> str | None:
    """A matrix past its size bound (matrix.too_large), in the page's language; None for any other error."""
    details = error.details or {}
    if error.code != "matrix.too_large":
        return None
    if details.get("path") == "games":
        return _("This matrix would play %(games)s games, more than the %(limit)s a run may play: play at most "
                 "%(most)s games per list and opponent, or choose fewer lists or opponents.") % {
            "games": details.get("games"), "limit": details.get("limit"), "most": details.get("most_per_cell")}
    return _("A matrix has at most %(limit)s cells (lists × opponents): choose fewer lists or opponents.") % {
        "limit": details.get("limit")}


def _gallery(system: str, user) -> list[tuple[str, str]]:
    class _Any:  # gallery_lists leaves out one list of yours; the matrix offers the gallery as it is
        pk = None

        class system:  # noqa: N801 - the attribute gallery_lists reads
            slug = system

    return gallery_lists(_Any, user)


def _system_links(user) -> list[dict[str, str]]:
    """The games the user has lists of: a link each to the matrix form of that game."""
    slugs = sorted(set(selectors.list_search(user=user, scope="mine").values_list("system__slug", flat=True)))
    return [{"slug": slug, "name": presenters.system_name(slug),
             "url": f"{reverse('matrix_new')}?system={slug}"} for slug in slugs]


@login_required
@require_http_methods(["GET", "POST"])
def beats_new(request: HttpRequest, slug: str) -> HttpResponse:
    """What beats my list: the owner's list against every sample opponent and public list of its game."""
    try:
        game_list = selectors.list_get(slug=slug, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    owner = game_list.owner_id == request.user.pk
    if not owner:  # the 403 page, without the list's name (as every refusal)
        return error_page(request, ListPermissionDenied(_("Only the owner of this list can ask what beats it.")))
    if request.method == "POST" and (wait := scope_wait(request, "simulations")) is not None:
        return throttled_page(request, wait)
    fields, chosen = field_select(request, game_list.system.slug)
    events, event = event_choices(request, game_list.system.slug)
    form = BeatsForm(request.POST or None, policies=policy_choices(game_list.system.slug), fields=fields,
                     events=events, initial=_initial(chosen, event))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data

            matrix, status = _started(form, lambda: matrices.beats_start(
                user=request.user, game_list=game_list, games=data["games"], seed=data["seed"],
                seats=data.get("seats") or None, policy=data["policy"],
                opponent_policy=data.get("opponent_policy") or None, field=data.get("field") or None,
                event=data.get("event") or None), too_large_at="event" if data.get("event") and not data.get("field")
                else "field")
            if matrix is not None:
                return redirect("matrix_detail", public_id=matrix.public_id)
        else:
            status = 400
    field, left_out = matrices.beats_field(game_list, user=request.user)
    earlier = [matrix for matrix in selectors.matrix_list(user=request.user, kind=MatrixKind.BEATS)[:50]
               if matrix.rows and matrix.rows[0]["list"] == game_list.slug][:5]
    return render(request, "matrices/beats_new.html", {
        "list": game_list, "form": form, "owner": owner, "field_size": len(field), "left_out": left_out,
        "earlier": earlier}, status=status)


class BeatsForm(forms.Form):
    """What beats my list: the field (every sample opponent and public list of the game, or a named field), the
    games against each opponent, the seed, seats and policies."""

    def __init__(self, *args, policies=(), fields=(), events=(), **kwargs):
        super().__init__(*args, **kwargs)
        template = BatchForm(policies=policies)
        for name in ("policy", "opponent_policy", "seats", "seed"):
            self.fields[name] = template.fields[name]
        self.fields["field"] = forms.ChoiceField(
            label=_("Against"), required=False,
            choices=[("", _("Every sample opponent and public list of this game"))] + list(fields),
            help_text=_("Or a field (a named set of opponents): its opponents you may see, with their weights."))
        self.fields["games"] = forms.IntegerField(label=_("Games against each opponent"), min_value=1,
                                                  max_value=template.fields["games"].max_value, initial=100)
        if events or self.data.get("event"):  # an event's field (docs/events.md), with the named field or alone
            self.fields["event"] = event_field(events)
            self.fields["event"].help_text = _("Each list the event's players submitted, weighted by how many "
                                               "players brought it, in place of every sample opponent and public "
                                               "list (with the field above, if one is chosen).")
        self.order_fields(["field", "event", "games", "seed", "seats", "policy", "opponent_policy"])


MATRICES_PAGE = 50


def matrix_words(matrix) -> str:
    """What a matrix played, in words: "What beats Blue rush", or "2 lists × 3 opponents"."""
    if matrix.kind == MatrixKind.BEATS:
        return _("What beats %(name)s") % {"name": (matrix.rows[0].get("name") if matrix.rows else "")
                                          or _("(untitled)")}
    return _("%(lists)s × %(opponents)s") % {
        "lists": ngettext("%(n)s list", "%(n)s lists", len(matrix.rows)) % {"n": len(matrix.rows)},
        "opponents": ngettext("%(n)s opponent", "%(n)s opponents", len(matrix.columns)) % {"n": len(matrix.columns)}}


def recent_matrices(user) -> list[dict[str, Any]]:
    """The user's 10 newest matrices, each with its words (the matrix form's "Your recent matrices")."""
    return [{"matrix": matrix, "words": matrix_words(matrix)} for matrix in selectors.matrix_list(user=user)[:10]]


@login_required
def matrix_mine(request: HttpRequest) -> HttpResponse:
    """Every matrix and "what beats my list" of the user, newest first, 50 a page (the form shows the 10 newest),
    each with its status (and its progress while it plays)."""
    page = Paginator(selectors.matrix_list(user=request.user), MATRICES_PAGE).get_page(request.GET.get("page"))
    states = selectors.matrix_states(page.object_list)
    rows = [{"matrix": matrix, "words": matrix_words(matrix), "system": presenters.system_name(matrix.system),
             "policy": results.policy_label(matrix.system, matrix.policy),
             "status": states[matrix.pk][0], "status_words": _status_words(states[matrix.pk][0]),
             "progress": states[matrix.pk][1]} for matrix in page.object_list]
    return render(request, "matrices/mine.html", {"page": page, "rows": rows})


# --- the matrix page ----------------------------------------------------------------------------------------


def _matrix_or_error(request, public_id):
    return selectors.matrix_get(public_id=public_id, user=request.user)


@login_required
def matrix_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    try:
        matrix = _matrix_or_error(request, public_id)
    except ListServiceError as error:
        return error_page(request, error)
    return render(request, "matrices/detail.html", matrix_view(request, matrix))


@login_required
@require_POST
def matrix_cancel(request: HttpRequest, public_id: str) -> HttpResponse:
    """Cancel the matrix's cells still queued or running (stored cells stay), then show the matrix, which says how
    many cells play on for the player's other matrices or simulations."""
    try:
        matrix = _matrix_or_error(request, public_id)
        matrix = matrices.matrix_cancel(matrix=matrix, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    return redirect("matrix_detail", public_id=matrix.public_id)


@login_required
def matrix_progress(request: HttpRequest, public_id: str) -> HttpResponse:
    """htmx polls this while the matrix plays: the heat map so far; once no cell plays, the page reloads."""
    try:
        matrix = _matrix_or_error(request, public_id)
    except ListServiceError as error:
        return error_page(request, error)
    context = matrix_view(request, matrix)
    response = render(request, "matrices/_live.html", context)
    if not context["active"] and is_htmx(request):
        response["HX-Refresh"] = "true"
    return response


def heat_class(rate: float | None) -> str:
    """The cell's colour class: heat-0 (the list wins under 10 %) to heat-9 (90 % or more); heat-none unplayed."""
    if rate is None:
        return "heat-none"
    return f"heat-{min(9, int(rate * 10))}"


def _sort_param(request, name: str) -> tuple[str, int | None, bool]:
    """?rows=given|name|rate:<column>[-] (and columns=): the key, the line sorted by, descending."""
    value = request.GET.get(name, "given")
    descending = value.endswith("-")
    value = value.rstrip("-")
    key, _sep, line = value.partition(":")
    if key not in SORTS:
        key = "given"
    index = int(line) if line.isdigit() else None
    return key, index, descending


def _order(count: int, key: str, index: int | None, descending: bool, names: list[str], rates) -> list[int]:
    order = list(range(count))
    if key == "name":
        order.sort(key=lambda i: names[i].casefold())
    elif key == "rate":
        order.sort(key=lambda i: (rates(i, index) is None, rates(i, index) or 0.0))
    if descending:
        order.reverse()
        if key == "rate":  # unplayed cells stay last
            order.sort(key=lambda i: rates(i, index) is None)
    return order


def _interval_words(cell: dict[str, Any]) -> str:
    low, high = cell["win_rate_interval"]
    return f"{percent(low)} – {percent(high)}"


def _playing_on(matrix, cells) -> str:
    """After its owner cancelled the matrix, the cells that play on (their runs also answer another question), in
    words; "" otherwise."""
    count = sum(1 for cell in cells if cell.run.is_active) if matrix.cancelled_at else 0
    if not count:
        return ""
    return ngettext("Cancelled: %(count)d cell plays on, as its run also answers another of your matrices or "
                    "simulations; its result shows here when it is done.",
                    "Cancelled: %(count)d cells play on, as their runs also answer your other matrices or "
                    "simulations; their results show here when they are done.", count) % {"count": count}


def matrix_view(request: HttpRequest, matrix) -> dict[str, Any]:
    cells = selectors.matrix_cells(matrix)
    data = selectors.matrix_result(matrix, request.user, cells)
    origin = origins([(column["key"], column["weight"]) for column in data["columns"]], request.user)
    columns = [{"name": opponent_words(matrix.system, {**column, "opponent": column["key"]}),
                "weight": column["weight"], "list": column["list"], "origin": origin.get(column["key"])}
               for column in data["columns"]]
    weight_sum = sum(column["weight"] for column in columns) or 1
    for column in columns:
        column["share"] = f"{column['weight'] / weight_sum * 100:.0f} %"
    rows = [{"name": row["name"] or _("(untitled)"), "list": row["list"], "total": row["total"]}
            for row in data["rows"]]
    grid = data["cells"]

    def cell_rate(row: int, column: int) -> float | None:
        cell = grid[row][column]
        return cell.get("win_rate") if cell else None

    def row_rate(row: int, column: int | None) -> float | None:
        if column is None or not 0 <= column < len(columns):
            total = rows[row]["total"]
            return total["win_rate"] if total else None
        return cell_rate(row, column)

    def column_rate(column: int, row: int | None) -> float | None:
        if row is None or not 0 <= row < len(rows):
            played = [cell_rate(r, column) for r in range(len(rows)) if cell_rate(r, column) is not None]
            return sum(played) / len(played) if len(played) == len(rows) else None
        return cell_rate(row, column)

    row_key, row_line, row_desc = _sort_param(request, "rows")
    column_key, column_line, column_desc = _sort_param(request, "columns")
    row_order = _order(len(rows), row_key, row_line, row_desc, [row["name"] for row in rows], row_rate)
    column_order = _order(len(columns), column_key, column_line, column_desc, [c["name"] for c in columns],
                          column_rate)
    heat = []
    for r in row_order:
        line = []
        for c in column_order:
            cell = grid[r][c] or {}
            rate = cell.get("win_rate")
            line.append({"rate": percent(rate) if rate is not None else None,
                         "interval": _interval_words(cell) if rate is not None else None,
                         "status": cell.get("status"), "status_words": _status_words(cell.get("status")),
                         "class": heat_class(rate), "run": cell.get("run"), "reused": cell.get("reused"),
                         "wins": cell.get("wins"), "losses": cell.get("losses"), "draws": cell.get("draws"),
                         "column": columns[c]["name"], "row": rows[r]["name"]})
        total = rows[r]["total"]
        heat.append({"index": r, **rows[r], "cells": line,
                     "total_rate": percent(total["win_rate"]) if total else None,
                     "total_interval": _interval_words(total) if total else None,
                     "total_class": heat_class(total["win_rate"] if total else None)})
    base = reverse("matrix_detail", kwargs={"public_id": matrix.public_id})

    def link(rows_value: str, columns_value: str) -> str:
        return f"{base}?rows={rows_value}&columns={columns_value}#heat-map"

    current_rows = request.GET.get("rows", "given")
    current_columns = request.GET.get("columns", "given")
    for position, c in enumerate(column_order):  # a column's heading sorts the rows by that column, best first
        columns[c]["sort_rows"] = link(f"rate:{c}" + ("" if current_rows == f"rate:{c}-" else "-"), current_columns)
    for row in heat:  # a row's heading sorts the columns by that row, best first
        row["sort_columns"] = link(current_rows, f"rate:{row['index']}" +
                                   ("" if current_columns == f"rate:{row['index']}-" else "-"))
    active = data["status"] in (RunStatus.QUEUED, RunStatus.RUNNING)
    view = {
        "matrix": matrix, "data": data, "rows": heat, "columns": [columns[c] for c in column_order],
        "active": active, "status_words": _status_words(data["status"]), "progress": data["progress"],
        "playing_on": _playing_on(matrix, cells),
        "event_coverage": event_coverage([(column["key"], column["weight"]) for column in data["columns"]],
                                         request.user),
        "reused_words": ngettext("%(reused)s of %(total)s cell was answered by a stored run: nothing was played "
                                 "for it.",
                                 "%(reused)s of %(total)s cells were answered by stored runs: nothing was played "
                                 "for them.", data["cells_total"]) % {
            "reused": data["cells_reused"], "total": data["cells_total"]},
        "sort_links": {
            "rows_name": link("name", current_columns), "rows_total": link("rate:-", current_columns),
            "rows_given": link("given", current_columns), "columns_name": link(current_rows, "name"),
            "columns_mean": link(current_rows, "rate:-"), "columns_given": link(current_rows, "given")},
        "interval_label": results.interval_words(),
        "seats_words": results.seat_mode_words({"mode": matrix.seats, "applies": True,
                                                "pairs": seat_pairs(matrix.games, matrix.seats, True)}),
        "policy_words": results.policy_label(matrix.system, matrix.policy),
        "opponent_policy_words": results.policy_label(matrix.system, matrix.opponent_policy)
        if matrix.opponent_policy else None,
    }
    if matrix.kind == MatrixKind.BEATS:
        view["beats"] = beats_rows(matrix, cells, heat[0] if heat else None, columns, data)
        view["chart"] = beats_chart(matrix, view["beats"])
    return view


def _status_words(status: str | None) -> str:
    from builder.templatetags.hangar import run_status

    return run_status(status) if status else "–"


def beats_rows(matrix, cells, row, columns, data) -> list[dict[str, Any]]:
    """The opponents ranked by how badly they beat the list: its lowest win rate first (ties: the lower upper bound
    of the interval first), each with the opponent's link while visible and a replay of a game the list lost."""
    by_column = {cell.column: cell for cell in cells if cell.row == 0}
    grid = data["cells"][0] if data["cells"] else []
    ranked = []
    budget = LOSS_SEARCH_GAMES
    for index, (column, cell) in enumerate(zip(columns, grid)):
        if cell is None or cell.get("win_rate") is None:
            ranked.append({"name": column["name"], "list": column["list"], "origin": column.get("origin"), "rate": None, "status": cell and
                           _status_words(cell.get("status")), "sort": (2, 0.0, 0.0)})
            continue
        low, high = cell["win_rate_interval"]
        ranked.append({"name": column["name"], "list": column["list"], "origin": column.get("origin"),
                       "rate_value": cell["win_rate"],
                       "rate": percent(cell["win_rate"]), "interval": f"{percent(low)} – {percent(high)}",
                       "their_rate": percent((cell["losses"] or 0) / cell["games"]),
                       "wins": cell["wins"], "losses": cell["losses"], "draws": cell["draws"], "games": cell["games"],
                       "low": low, "high": high, "run": cell["run"], "column": index,
                       "sort": (0 if cell["losses"] else 1, cell["win_rate"], high)})
    ranked.sort(key=lambda item: item["sort"])
    for item in ranked:
        run = by_column[item["column"]].run if "column" in item else None
        if run is None or not item.get("losses") or budget <= 0:
            continue
        loss = selectors.matrix_loss_game(run, tries=LOSS_TRIES)
        budget -= LOSS_TRIES
        if loss is not None:
            item["replay"] = reverse("replay", kwargs={"public_id": run.public_id, "index": loss})
            item["replay_words"] = _("Replay game %(n)s (a loss)") % {"n": loss + 1}
    for rank, item in enumerate(ranked, 1):
        item["rank"] = rank
    return ranked


def beats_chart(matrix, ranked) -> dict[str, Any] | None:
    played = [item for item in ranked if item.get("rate_value") is not None]
    if not played:
        return None
    return {"id": f"beats-{matrix.public_id}", "type": "winrate",
            "title": _("Your list's win rate against each opponent, worst first, with 95 percent intervals"),
            "labels": [item["name"] for item in played],
            "values": [results.percent(item["rate_value"]) for item in played],
            "lows": [results.percent(item["low"]) for item in played],
            "highs": [results.percent(item["high"]) for item in played],
            "interval_label": results.interval_words()}
