"""Simulation pages: start a run, watch its progress bar (htmx polling), read the result in charts, compare two."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from builder import selectors, services
from builder.forms import SimulationForm
from builder.listio import ListFormatError
from builder.models import SimulationRun
from builder.services import ListServiceError
from builder.throttles import scope_wait

from . import presenters as p
from .common import error_lines, error_page, is_htmx, throttled_page

TOP_CARDS = 15


@login_required
@require_http_methods(["GET", "POST"])
def simulation_new(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game_list = selectors.list_get(slug=slug, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    if request.method == "POST" and (wait := scope_wait(request, "simulations")) is not None:
        return throttled_page(request, wait)  # the same budget per user as POST /api/simulations/
    form = SimulationForm(request.POST or None, opponents=p.opponent_options(game_list.system))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                run = services.simulation_start(
                    user=request.user, game_list=game_list, opponent_slug=data["opponent"], policy=data["policy"],
                    games=data["games"], seed=data["seed"],
                )
            except (ListServiceError, ListFormatError) as error:
                for row in error_lines(error):
                    form.add_error(None, row["message"])
                status = getattr(error, "status", 400)
            else:
                return redirect("simulation_detail", public_id=run.public_id)
        else:
            status = 400
    return render(request, "simulations/new.html", {"list": game_list, "form": form}, status=status)


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
    runs = [with_shown_list(run, request.user) for run in selectors.simulation_list(user=request.user)[:100]]
    return render(request, "simulations/list.html", {"runs": runs})


def simulation_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    """A run's page; its link is shareable: a finished result opens for anyone who has it."""
    try:
        run = with_shown_list(selectors.simulation_get_shared(public_id=public_id, user=request.user), request.user)
    except ListServiceError as error:
        return error_page(request, error)
    return render(request, "simulations/detail.html", {
        "run": run, "view": run_view(run),
        "share_url": request.build_absolute_uri(reverse("simulation_detail", kwargs={"public_id": run.public_id})),
    })


@login_required
def simulation_progress(request: HttpRequest, public_id: str) -> HttpResponse:
    """htmx polls this every second; once the run is no longer active the whole page reloads to show the result."""
    try:
        run = _run_or_error(request, public_id)
    except ListServiceError as error:
        return error_page(request, error)
    response = render(request, "simulations/_progress.html", {"run": run, "view": run_view(run)})
    if not run.is_active and is_htmx(request):
        response["HX-Refresh"] = "true"
    return response


def simulation_compare(request: HttpRequest) -> HttpResponse:
    try:
        runs = [with_shown_list(selectors.simulation_get_shared(public_id=request.GET.get(key, ""), user=request.user),
                                request.user) for key in ("a", "b")]
    except ListServiceError as error:
        return error_page(request, error)
    return render(request, "simulations/compare.html", {"pairs": [(run, run_view(run)) for run in runs],
                                                       "chart": compare_chart(runs)})


# --- presentation of a run ---------------------------------------------------------------------------------


def run_view(run: SimulationRun) -> dict[str, Any]:
    """Progress, and the result's numbers and charts (win rate with its interval, turns, damage, cards played)."""
    result = run.result if run.status == "done" and isinstance(run.result, dict) else None
    view: dict[str, Any] = {"progress": selectors.simulation_progress(run), "result": result, "charts": []}
    if result is None:
        return view
    low, high = _interval(result)
    view.update({"win_rate": result.get("win_rate"), "low": low, "high": high,
                 "turns_mean": (result.get("turns") or {}).get("mean"),
                 "damage_mean": (result.get("damage_per_turn") or {}).get("mean")})
    view["charts"] = _charts(run, result, low, high)
    return view


def _interval(result: dict[str, Any]) -> tuple[float | None, float | None]:
    interval = result.get("win_rate_interval") or result.get("win_rate_95") or [None, None]
    return interval[0], interval[1]


def _percent(value: Any) -> float | None:
    return round(100 * value, 2) if isinstance(value, (int, float)) else None


def _charts(run: SimulationRun, result: dict[str, Any], low, high) -> list[dict[str, Any]]:
    charts = []
    if result.get("win_rate") is not None:
        charts.append({"id": f"win-{run.public_id}", "type": "winrate", "title": _("Win rate with its 95 percent interval"),
                       "labels": [_("win rate")], "value": _percent(result["win_rate"]),
                       "low": _percent(low), "high": _percent(high)})
    histogram = (result.get("turns") or {}).get("histogram") or {}
    if histogram:
        charts.append({"id": f"turns-{run.public_id}", "type": "bar", "title": _("Game length (turns)"),
                       "labels": list(histogram), "series": [{"label": _("games"), "data": list(histogram.values())}]})
    damage = (result.get("damage_per_turn") or {}).get("mean")
    if damage is not None:
        charts.append({"id": f"damage-{run.public_id}", "type": "bar", "title": _("Damage dealt per turn (mean)"),
                       "labels": [_("damage per turn")], "series": [{"label": _("damage"), "data": [damage]}]})
    played = (result.get("cards_played") or [])[:TOP_CARDS]
    if played:
        charts.append({"id": f"cards-{run.public_id}", "type": "bar", "horizontal": True,
                       "title": _("Cards played per game"), "labels": [_card_name(run, row) for row in played],
                       "series": [{"label": _("per game"), "data": [row.get("per_game", 0) for row in played]}]})
    return charts


def _card_name(run: SimulationRun, row: dict[str, Any]) -> str:
    """The card's name in the UI language, from the run's frozen snapshot (the catalog may have changed since)."""
    card = ((run.snapshot or {}).get("cards") or {}).get(row.get("card"))
    return p.names(card, row.get("name") or row.get("card", ""))["main"]


def compare_chart(runs: list[SimulationRun]) -> dict[str, Any]:
    labels, data = [], []
    for run in runs:
        if run.status == "done" and isinstance(run.result, dict):
            labels.append(f"{run.public_id} ({run.opponent})")
            data.append(_percent(run.result.get("win_rate")))
    return {"id": "compare", "type": "bar", "title": _("Win rate side by side, in percent"), "labels": labels,
            "series": [{"label": _("win rate in percent"), "data": data}]}
