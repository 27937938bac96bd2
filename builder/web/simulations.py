"""Simulation pages: start a run, watch its progress bar (htmx polling), read the result in charts, compare two."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_http_methods

from builder import selectors, services
from builder.forms import SimulationForm
from builder.models import SimulationRun
from builder.services import ListServiceError
from builder.throttles import scope_wait

from . import presenters
from . import results
from .batches import batch_view
from .common import error_page, is_htmx, throttled_page
from .runforms import illegal_rows, opponent_choices, policy_choices, start_from_form


@login_required
@require_http_methods(["GET", "POST"])
def simulation_new(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game_list = selectors.list_get(slug=slug, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    if request.method == "POST" and (wait := scope_wait(request, "simulations")) is not None:
        return throttled_page(request, wait)  # the same budget per user as POST /api/simulations/
    system = game_list.system.slug
    form = SimulationForm(request.POST or None,
                          opponents=opponent_choices(game_list.system, selectors.list_document(game_list)),
                          policies=policy_choices(system))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            run, status = start_from_form(form, lambda: services.simulation_start(
                user=request.user, game_list=game_list, opponent_slug=data["opponent"], policy=data["policy"],
                opponent_policy=data.get("opponent_policy") or None, seats=data.get("seats") or None,
                games=data["games"], seed=data["seed"],
            ), request)
            if run is not None:
                return redirect("simulation_detail", public_id=run.public_id)
        else:
            status = 400
    validation = selectors.list_validation(game_list, lang=presenters.ui_lang())
    return render(request, "simulations/new.html", {
        "list": game_list, "form": form, "illegal": illegal_rows(validation, system)}, status=status)


def _run_or_error(request: HttpRequest, public_id: str) -> SimulationRun:
    return selectors.simulation_get(public_id=public_id, user=request.user)


def with_shown_list(run: SimulationRun, user) -> SimulationRun:
    """Set `run.shown_list`: the run's list if `user` may see it, else None. A run's result link is shareable, but
    the name of a private (or trashed) list stays its owner's (docs/security.md)."""
    game_list = run.game_list if run.game_list_id else None
    run.shown_list = game_list if game_list is not None and selectors.list_can_see(game_list, user) else None
    return run


@login_required
def simulation_list(request: HttpRequest) -> HttpResponse:
    known: dict[tuple[str, str], str] = {}  # one catalog look-up per opponent, not per run
    runs = [with_names(with_shown_list(run, request.user), request.user, known)
            for run in selectors.simulation_list(user=request.user)[:100]]
    for run in runs:  # every game the run plays (a gauntlet: against each of its opponents)
        run.games_total = results.number(selectors.simulation_games_total(run))
    return render(request, "simulations/list.html", {"runs": runs})


def simulation_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    """A run's page; its link is shareable: a finished result opens for anyone who has it."""
    try:
        run = with_shown_list(selectors.simulation_get_shared(public_id=public_id, user=request.user), request.user)
    except ListServiceError as error:
        return error_page(request, error)
    with_names(run, request.user)
    batch = is_batch_run(run)
    return render(request, "simulations/detail.html", {
        "run": run, "view": run_view(run, figures=not batch), "illegal": snapshot_illegal_rows(run),
        "batch": batch_view(run, request.user) if batch and run.status == "done" else None, "is_batch": batch,
        "can_apply": batch and run.owner_id == getattr(request.user, "pk", None),
        "share_url": request.build_absolute_uri(reverse("simulation_detail", kwargs={"public_id": run.public_id})),
        "reused_from": selectors.simulation_reused_from(run),
    })


@login_required
def simulation_progress(request: HttpRequest, public_id: str) -> HttpResponse:
    """htmx polls this every second; once the run is no longer active the whole page reloads to show the result."""
    try:
        run = _run_or_error(request, public_id)
    except ListServiceError as error:
        return error_page(request, error)
    response = render(request, "simulations/_progress.html", {"run": run, "view": run_view(run, figures=False)})
    if not run.is_active and is_htmx(request):
        response["HX-Refresh"] = "true"
    return response


def simulation_compare(request: HttpRequest) -> HttpResponse:
    try:
        runs = [with_names(with_shown_list(selectors.simulation_get_shared(public_id=request.GET.get(key, ""),
                                                                          user=request.user), request.user),
                           request.user) for key in ("a", "b")]
    except ListServiceError as error:
        return error_page(request, error)
    for letter, run in zip("AB", runs):
        run.letter = letter
    pairs = [(run, run_view(run, prefix=f"{run.letter}-{run.public_id}")) for run in runs]
    return render(request, "simulations/compare.html", {
        "pairs": pairs, "chart": compare_chart(runs), "figures": compare_figures([view for _run, view in pairs])})


# --- presentation of a run ---------------------------------------------------------------------------------


def with_names(run: SimulationRun, user, known: dict[tuple[str, str], str] | None = None) -> SimulationRun:
    """Set the words a page shows for a run (after with_shown_list): `list_name` (the list's name, or for someone
    who may not see the list "a private list"), `opponent_name` (its package name, never the slug),
    `policy_label` and `title` ("<list> vs <opponent>")."""
    frozen = run.snapshot if "snapshot" not in run.get_deferred_fields() else None
    frozen = frozen if isinstance(frozen, dict) else {}
    if run.shown_list is not None:
        name = run.shown_list.name
    elif run.owner_id == getattr(user, "pk", None):
        name = str((frozen.get("list") or {}).get("name") or "")  # the owner's own list, since deleted
    else:
        name = _("a private list")
    run.list_name = name or _("(untitled)")
    run.policy_label = results.policy_label(run.system, run.policy)
    if is_batch_run(run):  # a gauntlet or a list doctor: several opponents
        run.opponent_name = _("several opponents")
        words = (_("Gauntlet: %(list)s") if run.kind == "gauntlet" else _("Test every card: %(list)s")
                 if frozen.get("variant") == "impact" else _("List doctor: %(list)s"))
        run.title = words % {"list": run.list_name}
        return run
    known = {} if known is None else known
    key = (run.system, run.opponent)
    if key not in known:
        known[key] = presenters.opponent_name(run.system, run.opponent, frozen.get("opponent"))
    run.opponent_name = known[key]
    run.title = results.title_parts(run.list_name, run.opponent_name)
    return run


def is_batch_run(run: SimulationRun) -> bool:
    """A gauntlet or list doctor run, not a run against one opponent."""
    return getattr(run, "kind", "simulation") in ("gauntlet", "doctor")


def snapshot_illegal_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """What was illegal in the list the run played (its frozen copy, checked by today's rules and catalog)."""
    document = (run.snapshot or {}).get("list") if isinstance(run.snapshot, dict) else None
    try:
        validation = selectors.document_validate(document, lang=presenters.ui_lang())
    except ListServiceError:
        return []
    return illegal_rows(validation, run.system)


def run_view(run: SimulationRun, *, figures: bool = True, prefix: str = "") -> dict[str, Any]:
    """Progress in games, and (`figures`) every figure of the result as numbers and charts (builder/web/results.py)."""
    result = run.result if run.status == "done" and isinstance(run.result, dict) else None
    view: dict[str, Any] = {"progress": selectors.simulation_progress(run), "result": result, "charts": [],
                            "stats": [], "played": results.number(selectors.simulation_games_played(run)),
                            "games": results.number(selectors.simulation_games_total(run)),
                            "games_about": games_about(run)}
    if result is None or not figures:
        return view
    view.update(results.result_view(run.system, result, run.snapshot, prefix=prefix or run.public_id))
    return view


def games_about(run: SimulationRun) -> str:
    """How a gauntlet's or a doctor's games are shared out, after their total ("" for a run against one opponent):
    "100 against each of 3 opponents"; "the list and 8 changes against 2 opponents, 40 games each to screen them"."""
    if run.kind == "gauntlet":
        legs = selectors.simulation_legs(run)
        if legs < 2:
            return ""
        return _("%(each)s against each of %(n)s opponents") % {"each": results.number(run.games), "n": legs}
    if run.kind != "doctor" or "snapshot" in run.get_deferred_fields() or not isinstance(run.snapshot, dict):
        return ""
    legs = [leg for leg in run.snapshot.get("legs") or () if isinstance(leg, dict)]
    changes = len({leg.get("change") for leg in legs} - {"baseline", None})
    opponents = len({leg.get("opponent") for leg in legs} - {None}) or 1
    screen = run.stages[0].get("games") if isinstance(run.stages, list) and run.stages \
        and isinstance(run.stages[0], dict) else None
    if isinstance(screen, int) and run.snapshot.get("variant") == "impact":
        return ngettext(
            "the list and %(changes)s cards out against %(n)s opponent, %(screen)s games each to screen them, the "
            "rest to confirm the clearest effects",
            "the list and %(changes)s cards out against %(n)s opponents, %(screen)s games each to screen them, the "
            "rest to confirm the clearest effects", opponents) % {"changes": changes, "n": opponents,
                                                                 "screen": results.number(screen)}
    if isinstance(screen, int):
        return ngettext(
            "the list and %(changes)s changes against %(n)s opponent, %(screen)s games each to screen them, the rest "
            "to confirm the best",
            "the list and %(changes)s changes against %(n)s opponents, %(screen)s games each to screen them, the "
            "rest to confirm the best", opponents) % {"changes": changes, "n": opponents,
                                                     "screen": results.number(screen)}
    words = ngettext("the list and %(changes)s changes against %(n)s opponent",
                     "the list and %(changes)s changes against %(n)s opponents", opponents) % {
        "changes": changes, "n": opponents}
    return words


def compare_figures(views: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The two runs' headline figures in one table: (label, [A's value, B's value]) in the order they appear ("–"
    where a run has no such figure: another game, or a run not finished)."""
    labels: dict[str, str] = {}
    for view in views:
        for stat in view.get("stats") or []:
            labels.setdefault(stat["name"], stat["label"])
    values = [{stat["name"]: stat["value"] for stat in view.get("stats") or []} for view in views]
    return [(label, [shown.get(name, "–") for shown in values]) for name, label in labels.items()]


def compare_chart(runs: list[SimulationRun]) -> dict[str, Any]:
    labels, values, lows, highs = [], [], [], []
    for run in runs:
        if run.status == "done" and isinstance(run.result, dict):
            low, high = (list(run.result.get("win_rate_interval") or []) + [None, None])[:2]
            labels.append(f"{getattr(run, 'letter', '')}: {getattr(run, 'title', run.public_id)}")
            values.append(results.percent(run.result.get("win_rate")))
            lows.append(results.percent(low))
            highs.append(results.percent(high))
    return {"id": "compare", "type": "winrate", "title": _("Win rate side by side, with 95 percent intervals"),
            "labels": labels, "values": values, "lows": lows, "highs": highs,
            "interval_label": results.interval_words()}
