"""Gauntlet and list doctor pages: start one from a list, read its rows, apply a change.

A gauntlet plays the list against several weighted opponents (the sample ones and your other lists); the doctor
screens single changes on the same seeds, confirms the leaders on fresh ones and gives each a verdict. Both are simulation runs (builder.services), watched on the
run's page like any other; `batch_view` turns their results into the rows, chart and sentences the page shows.
"""
from __future__ import annotations

import math
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from builder import selectors, services
from builder.forms import BatchForm
from builder.models import SimulationRun
from builder.errors import DoctorApplyRefused, SimulationInvalid
from builder.services import ListServiceError
from builder.services.batches import MAX_LEGS, apply_refusal
from builder.templatetags.hangar import percent  # the pages' one way of writing a rate: "25.0%"
from builder.throttles import scope_wait

from . import presenters
from . import results
from .common import error_page, throttled_page
from .eventfield import event_choices, event_coverage, event_error, origins
from .runforms import illegal_rows, opponent_choices, policy_choices, start_from_form

GAUNTLET, DOCTOR, IMPACT = "gauntlet", "doctor", "impact"


def other_lists(game_list, user) -> list[tuple[str, str]]:
    """The user's other lists of the same game that can play, as gauntlet opponents: (public id, name), an illegal
    list marked so (it still plays, as a simulation of an illegal list does). Empty lists are left out
    (left_out_lists says which)."""
    return [(row.slug, _opponent_list_words(_("Your list: %(name)s") % {"name": row.name or _("(untitled)")}, row))
            for row in _mine(game_list, user) if row.entry_count]


def _opponent_list_words(words: str, row) -> str:
    if row.legal:
        return words
    return ngettext("%(list)s (not legal: %(n)s error)", "%(list)s (not legal: %(n)s errors)",
                    row.error_count or 1) % {"list": words, "n": row.error_count or 1}


def _mine(game_list, user):
    return (selectors.list_search(user=user, scope="mine", system=game_list.system.slug).exclude(pk=game_list.pk)
            .annotate(entry_count=Count("entries"))[:30])


def left_out_lists(game_list, user) -> list[str]:
    """The names of the user's lists of this game not offered as opponents: they have no cards, so cannot play."""
    return [row.name or _("(untitled)") for row in _mine(game_list, user) if not row.entry_count]


def field_choices(system: str, user, most: int | None = None) -> list[tuple[str, str]]:
    """The fields a gauntlet or the doctor offers: the player's own, then other players' public ones, as (id,
    words): "Spring league (yours, 5 opponents)", "Store meta by alice (4 opponents)"; given `most` (the opponents
    the run may play), a field with more says so in its words, before the form is sent."""
    rows = []
    for field in selectors.field_choices(user=user, system=system):
        count = field.entry_count
        if field.owner_id != getattr(user, "pk", None):  # the entries this player may play: a private list of the
            count = len(selectors.field_entries(field, user=user))  # field's owner is not counted, nor played
        if field.owner_id == getattr(user, "pk", None):
            words = ngettext("%(name)s (yours, %(n)s opponent)", "%(name)s (yours, %(n)s opponents)", count)
        else:
            words = ngettext("%(name)s by %(player)s (%(n)s opponent)", "%(name)s by %(player)s (%(n)s opponents)",
                             count)
        words = words % {"name": field.name, "player": field.owner.username, "n": count}
        if most is not None and count > most:
            words = _("%(field)s: more than the %(limit)s opponents this run may play") % {"field": words,
                                                                                           "limit": most}
        rows.append((field.slug, words))
    return rows


def linked_field(slug: str, system: str, user) -> list[tuple[str, str]]:
    """The field `slug` as a choice when the player may see it and it is of this game (e.g. another player's
    unlisted field opened by its link), else nothing."""
    try:
        field = selectors.field_get(slug=slug, user=user)
    except ListServiceError:
        return []
    if field.system.slug != system:
        return []
    count = len(selectors.field_entries(field, user=user))
    return [(field.slug, ngettext("%(name)s by %(player)s (%(n)s opponent)", "%(name)s by %(player)s (%(n)s opponents)",
                                  count) % {"name": field.name, "player": field.owner.username, "n": count})]


def field_error(form, error: SimulationInvalid) -> bool:
    """A field refused by the services said next to the field select, in the page's language (True), else False."""
    details = error.details or {}
    if error.code == "simulation.field":  # the field chosen has nothing this player may play
        form.add_error("field", _("This field has no opponent you may play against."))
        return True
    if error.code == "simulation.too_many_opponents":
        at = "field" if form.cleaned_data.get("field") else "event" if form.cleaned_data.get("event") else None
        form.add_error(at, too_many_opponents_words(details))
        return True
    path = str(details.get("path", ""))
    if ".field entries[" in path and path.endswith("]"):  # a field's entry given twice
        form.add_error("field", _("An opponent of this field also has a weight below: give it one weight (0 below, "
                                  "or choose no field)."))
        return True
    return False


def too_many_opponents_words(details: dict[str, Any]) -> str:
    """More opponents (a field's entries counted) than the run may play, in the page's language."""
    return ngettext("These are %(given)s opponents with the field's entries; at most %(limit)s opponent may be "
                    "played here: choose a smaller field or fewer opponents.",
                    "These are %(given)s opponents with the field's entries; at most %(limit)s opponents may be "
                    "played here: choose a smaller field or fewer opponents.", details.get("limit") or 0) % {
        "given": details.get("given"), "limit": details.get("limit")}


GALLERY_SHOWN = 12  # the newest gallery lists offered with a weight; any other one is given by its link


def gallery_lists(game_list, user) -> list[tuple[str, str]]:
    """The newest public lists of other players of the same game that can play (not empty), as gauntlet
    opponents: (public id, words), an illegal one marked so."""
    rows = (selectors.list_search(user=user, scope="public", system=game_list.system.slug)
            .exclude(pk=game_list.pk).exclude(owner_id=getattr(user, "pk", None))
            .annotate(entry_count=Count("entries")).filter(entry_count__gt=0)[:GALLERY_SHOWN])
    return [(row.slug, _opponent_list_words(_("%(name)s by %(player)s") % {
        "name": row.name or _("(untitled)"), "player": row.owner.username}, row)) for row in rows]


def _batch_new(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    try:
        game_list = selectors.list_get(slug=slug, user=request.user)
    except ListServiceError as error:
        return error_page(request, error)
    if request.method == "POST" and (wait := scope_wait(request, "simulations")) is not None:
        return throttled_page(request, wait)
    system = game_list.system.slug
    fields = field_choices(system, request.user, most=MAX_LEGS // 2 if kind in (DOCTOR, IMPACT) else None)
    chosen = request.GET.get("field") or request.POST.get("field") or ""
    if chosen and not any(slug == chosen for slug, _words in fields):  # a field given by its link (unlisted)
        fields = linked_field(chosen, system, request.user) + fields
    events, event = event_choices(request, system, most=MAX_LEGS // 2 if kind in (DOCTOR, IMPACT) else MAX_LEGS)
    initial = {"field": chosen} if any(slug == chosen for slug, _words in fields) else {}
    form = BatchForm(request.POST or None,
                     opponents=opponent_choices(game_list.system, selectors.list_document(game_list)),
                     lists=other_lists(game_list, request.user), gallery=gallery_lists(game_list, request.user),
                     policies=policy_choices(system), doctor=kind == DOCTOR, impact=kind == IMPACT, fields=fields,
                     events=events, initial={**initial, "event": event} if event else initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            common = {"user": request.user, "game_list": game_list, "opponents": form.chosen_opponents(),
                      "policy": data["policy"], "opponent_policy": data.get("opponent_policy") or None,
                      "seats": data.get("seats") or None, "games": data["games"], "seed": data["seed"]}

            def start():
                try:
                    if kind == IMPACT:
                        return services.impact_start(**common)
                    return (services.doctor_start(**common, changes=data["changes"]) if kind == DOCTOR
                            else services.gauntlet_start(**common))
                except SimulationInvalid as error:  # the list given by its link: said next to it, in words
                    if error.code == "doctor.too_few_games":  # the budget: said next to the games, in words
                        form.add_error("games", impact_too_few_games_words(error.details or {}) if kind == IMPACT
                                       else too_few_games_words(error.details or {}))
                        return None
                    if error.code == "impact.too_few_cards":
                        form.add_error(None, _("This list has a single card (unit): with it out nothing would be "
                                               "left to play, so there is nothing to test. Add cards first."))
                        return None
                    if error.code == "impact.too_many_lists":
                        form.add_error(None, _("This list has %(cards)s distinct cards: with that many, give at most "
                                               "%(most)s opponents (a run holds at most %(limit)s lists).") % {
                            "cards": (error.details or {}).get("cards"), "limit": (error.details or {}).get("limit"),
                            "most": max(1, (error.details or {}).get("limit", 64)
                                        // ((error.details or {}).get("cards", 1) + 1))})
                        return None
                    if field_error(form, error) or event_error(form, error):  # said next to it, in words
                        return None
                    if error.code != "simulation.opponent_list" or not data.get("another_list") \
                            or (error.details or {}).get("list") != data["another_list"]:
                        raise
                    form.add_error("another_list", _(
                        "There is no list %(id)s of this game you may play against: give the link of a list in the "
                        "gallery (or of one of your own), not in the trash.") % {"id": data["another_list"]})
                    return None

            run, status = start_from_form(form, start, request)
            if run is not None:
                return redirect("simulation_detail", public_id=run.public_id)
        else:
            status = 400
    validation = selectors.list_validation(game_list, lang=presenters.ui_lang())
    return render(request, "simulations/batch_new.html", {
        "list": game_list, "form": form, "kind": kind, "illegal": illegal_rows(validation, system),
        "groups": [(legend, [form[name] for name in names]) for legend, names in form.opponent_groups],
        "pick": [form[name] for name in form.pick_fields], "left_out": left_out_lists(game_list, request.user),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def gauntlet_new(request: HttpRequest, slug: str) -> HttpResponse:
    return _batch_new(request, slug, GAUNTLET)


@login_required
@require_http_methods(["GET", "POST"])
def doctor_new(request: HttpRequest, slug: str) -> HttpResponse:
    return _batch_new(request, slug, DOCTOR)


@login_required
@require_http_methods(["GET", "POST"])
def impact_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Test every card: one copy of each distinct card out, on the same seeds as the list itself."""
    return _batch_new(request, slug, IMPACT)


@login_required
@require_POST
def doctor_apply(request: HttpRequest, public_id: str) -> HttpResponse:
    """Save a doctor's change as the list's next revision, then show the list."""
    try:
        run = selectors.simulation_get(public_id=public_id, user=request.user)
        game_list, revision = services.doctor_apply(user=request.user, run=run,
                                                    change_key=request.POST.get("change", ""))
    except DoctorApplyRefused as error:  # back to the run, saying why in the page's language; nothing is saved
        messages.error(request, refusal_words(error.details["reason"]))
        return redirect("simulation_detail", public_id=public_id)
    except ListServiceError as error:
        return error_page(request, error)
    messages.success(request, _("The change is saved as revision %(number)s of the list.") % {
        "number": revision.number})
    return redirect("list_detail", slug=game_list.slug)


# --- presentation -------------------------------------------------------------------------------------------


def refusal_words(reason: str) -> str:
    """Why a doctor's change cannot be applied (services.batches.Refusal.reason), in the page's language."""
    if reason == "playing":
        return _("The doctor is still playing: its ranking can still change. Apply a change when it is done.")
    if reason == "incomplete":
        return _("This doctor run stopped before all its games were played, so its ranking is incomplete. "
                 "Run the doctor again.")
    if reason == "not_confirmed":
        return _("This change was not confirmed better on fresh games: its effect may be luck, so it cannot be "
                 "applied.")
    return _("The list's cards have changed since this doctor run: its figures are for the cards it had then. "
             "Run the doctor again on the list as it is now.")


def too_few_games_words(details: dict[str, Any]) -> str:
    """Why the doctor refused its budget, in the page's language (the service's doctor.too_few_games details)."""
    return _("The list doctor needs at least %(minimum)s games in all for this run (changes to try: %(changes)s; "
             "opponents: %(opponents)s): 100 games per list and opponent to screen the list and every change, then "
             "300 per list and opponent to confirm a change on fresh games. With fewer games a 5-point change could "
             "not be told from luck. Give more games, or try fewer changes.") % {
        "minimum": details.get("minimum"), "changes": details.get("changes"), "opponents": details.get("opponents")}


def impact_too_few_games_words(details: dict[str, Any]) -> str:
    """Why "test every card" refused its budget, in the page's language."""
    return _("Testing every card of this list needs at least %(minimum)s games in all (cards: %(changes)s; "
             "opponents: %(opponents)s): 100 games per list and opponent to screen the list and every card, then 300 "
             "per list and opponent to confirm an effect on fresh games. Give more games.") % {
        "minimum": details.get("minimum"), "changes": details.get("changes"), "opponents": details.get("opponents")}


IMPACT_VERDICT_WORDS = {"helps": lambda: _("Helps (confirmed)"), "hurts": lambda: _("Hurts (confirmed)"),
                        "none": lambda: _("No detectable effect")}


def impact_correction_words() -> str:
    return _("Every card is tested at once, so some would look important by luck alone. Holm's correction is used: "
             "across the cards tested in a stage, the chance of calling any of them helpful or harmful when it is "
             "not is at most 5 percent. A card is said to help or hurt only when its effect is confirmed on fresh "
             "games (the second stage); every other card reads \"no detectable effect\", which is not proof of no "
             "effect.")


def impact_chart(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """An inline SVG chart (no script, no inline style): one band per card — its name, then its effect in
    percentage points as a dot on its 95 % interval — under an axis in steps of 5 points, the zero line dashed.
    Names sit above their line, the full width given to the scale, so they stay readable on a phone."""
    width, margin, row_h, top = 440, 12, 36, 30
    reach = max([5.0] + [abs(v) for row in rows for v in (row["low"], row["high"])])
    reach = float(5 * math.ceil(reach / 5))
    plot = width - 2 * margin

    def x(value: float) -> float:
        return round(margin + (value + reach) / (2 * reach) * plot, 1)

    lines = []
    for index, row in enumerate(rows):
        y = top + index * row_h
        lines.append({"text_y": y + 13, "y": y + 25, "x_low": x(row["low"]), "x_high": x(row["high"]),
                      "x": x(row["effect"]), "name": row["name"], "verdict": row["verdict"]})
    steps = [-reach, -reach / 2, 0.0, reach / 2, reach]
    ticks = [{"x": x(v), "label": f"{v:+.0f}" if v else "0",
              "anchor": "start" if v == -reach else "end" if v == reach else "middle"} for v in steps]
    return {"width": width, "height": top + len(rows) * row_h + 6, "lines": lines, "ticks": ticks,
            "zero": x(0.0), "bottom": top + len(rows) * row_h, "label_x": margin}


def impact_view(run: SimulationRun, result: dict[str, Any]) -> dict[str, Any]:
    """What a finished "test every card" run shows: the causal effects (chart, sentences, numbers) and, apart, the
    correlation figures of the list's own games against each opponent."""
    lang = presenters.ui_lang()
    rows = []
    for change in result["changes"]:
        verdict = change.get("verdict") or "none"
        stats = change["stats"]
        low, high = change["effect_interval"]
        name = (change.get("name") or {}).get(lang) or change.get("card") or change["key"]
        rows.append({"key": change["key"], "name": name, "verdict": verdict,
                     "verdict_words": IMPACT_VERDICT_WORDS[verdict](),
                     "sentence": change["sentence"].get(lang) or change["sentence"]["en"],
                     "effect": round(100 * change["effect"], 1), "low": round(100 * low, 1),
                     "high": round(100 * high, 1), "legal": change.get("legal", True),
                     "stage": _("confirm") if change.get("stage") == "confirm" else _("screen"),
                     "games": results.number(stats.get("games")),
                     "changed": results.number(stats.get("gains", 0) + stats.get("losses", 0)),
                     "adjusted_p": "< 0.001" if stats.get("adjusted_p", 1) < 0.001
                     else f"{stats.get('adjusted_p', 1):.3f}"})
    legs = [leg for leg in (run.snapshot or {}).get("legs") or [] if isinstance(leg, dict)]
    correlations = []
    for row in result["baseline"]["opponents"]:
        leg = next((leg for leg in legs if leg.get("change") == "baseline" and leg.get("opponent") == row["opponent"]),
                   {})
        view = results.result_view(run.system, row["result"], leg.get("snapshot"),
                                   prefix=f"{run.public_id}-{len(correlations)}")
        for table in view.get("tables") or []:
            table["title"] = _("Against %(opponent)s: win rate when each card was used (a correlation)") % {
                "opponent": opponent_words(run.system, {**row, "key": row["opponent"]})}
            correlations.append(table)
    return {"rows": rows, "chart": impact_chart(rows), "correlations": correlations,
            "correction": impact_correction_words(),
            "illegal": any(not row["legal"] for row in rows)}


VERDICT_WORDS = {"better": lambda: _("Confirmed better"), "worse": lambda: _("Worse"),
                 "none": lambda: _("No detectable effect")}


def correction_words() -> str:
    return _("Many changes are tested at once, so some would look better by luck alone. Holm's correction is used: "
             "across the changes tested in a stage, the chance of calling any of them better or worse when it is "
             "not is at most 5 percent; the adjusted p-value of each change is shown. A change is called better only "
             "when it is confirmed on fresh games (the second stage).")


def _stage_words(stage: dict[str, Any]) -> str:
    return _("Screen: the list and every change") if stage["stage"] == "screen" \
        else _("Confirm: the list and the leaders, on fresh games")


def opponent_words(system: str, row: dict[str, Any]) -> str:
    """A gauntlet row's opponent in the page's language: a sample opponent's package name, a list's name."""
    frozen = {"name": row.get("name"), "name_en": row.get("name_en"), "kind": row.get("kind")}
    return presenters.opponent_name(system, row.get("opponent") or row.get("key") or "", frozen)


def _length_words(unit: str) -> str:
    return _("turns") if unit == "turns" else _("rounds")


def seat_cells(result: dict[str, Any]) -> dict[str, str]:
    """A row's win rate going first and going second, each with its 95 % interval ("–" with no games there)."""
    seats = result.get("seats") if isinstance(result.get("seats"), dict) else {}
    cells = {}
    for seat in ("first", "second"):
        block = seats.get(seat) if isinstance(seats.get(seat), dict) else {}
        if block.get("games"):
            low, high = block["win_rate_interval"]
            cells[seat] = f"{percent(block['win_rate'])} ({percent(low)} – {percent(high)})"
        else:
            cells[seat] = "–"
    return cells


def seat_labels() -> dict[str, str]:
    """The column headings of the seats: "Going first (95% interval)", "Going second (95% interval)"."""
    interval = results.interval_words()
    return {"first_label": _("Going first (%(interval)s)") % {"interval": interval},
            "second_label": _("Going second (%(interval)s)") % {"interval": interval}}


def seats_about(system: str, results_: list[dict[str, Any]]) -> dict[str, str] | None:
    """The run's seat mode and who played each side, in words, from its rows' results (None for an old result)."""
    applied = [r for r in results_ if isinstance(r.get("seats"), dict)]
    if not applied:
        return None
    played = next((r for r in applied if r["seats"].get("applies")), applied[0])
    fixed = [r for r in applied if not r["seats"].get("applies")]
    return {"seats": results.seat_mode_words(played["seats"]),
            "fixed": _("Against the beasts or a target that takes no turns the order is fixed by the rules.")
            if fixed and len(fixed) < len(applied) else "",
            "policies": results.policies_words(system, played.get("policies") or {})}


def _frozen_weights(run: SimulationRun) -> list[tuple[str, Any]]:
    """(opponent key, weight as given) of a batch run's opponents, from its frozen legs: an event's list was given
    the number of players who brought it."""
    legs = [leg for leg in (run.snapshot or {}).get("legs") or [] if isinstance(leg, dict)]
    if run.kind == GAUNTLET:
        return [(leg.get("key"), leg.get("weight", 1)) for leg in legs]
    return [(leg.get("opponent"), leg.get("weight", 1)) for leg in legs if leg.get("change") == "baseline"]


def batch_view(run: SimulationRun, user=None) -> dict[str, Any]:
    """What a finished gauntlet or doctor run shows to `user`: rows in words and numbers, the chart, the
    sentences; an opponent from an event's field says which event (when the reader may see it) and how many players
    brought it, and an event's field played in part says how much of it was played (`event_coverage`)."""
    view = _batch_rows(run, user)
    if view:
        view["event_coverage"] = event_coverage(_frozen_weights(run), user)
    return view


def _batch_rows(run: SimulationRun, user=None) -> dict[str, Any]:
    result = run.result if isinstance(run.result, dict) else None
    if result is None:
        return {}
    lang = presenters.ui_lang()
    origin = origins(_frozen_weights(run), user)
    if result.get("kind") == GAUNTLET:
        rows = []
        for row in result["opponents"]:
            low, high = row["win_rate_interval"]
            rows.append({"name": opponent_words(run.system, row), "origin": origin.get(row.get("key")),
                         "weight": f"{row['weight'] * 100:.0f} %",
                         "win_rate": percent(row["win_rate"]), "interval": f"{percent(low)} – {percent(high)}",
                         "length": "–" if row["length"]["mean"] is None else f"{row['length']['mean']:.1f}",
                         **seat_cells(row.get("result") or {})})
        total = result["total"]
        low, high = total["win_rate_interval"]
        chart = {"id": f"gauntlet-{run.public_id}", "type": "winrate",
                 "title": _("Win rate against each opponent, with 95 percent intervals"),
                 "labels": [row["name"] for row in rows],
                 "values": [results.percent(row["win_rate"]) for row in result["opponents"]],
                 "lows": [results.percent(row["win_rate_interval"][0]) for row in result["opponents"]],
                 "highs": [results.percent(row["win_rate_interval"][1]) for row in result["opponents"]],
                 "interval_label": results.interval_words()}
        return {"kind": GAUNTLET, "rows": rows, "chart": chart, "interval_label": results.interval_words(),
                **seat_labels(),
                "about": seats_about(run.system, [row.get("result") or {} for row in result["opponents"]]),
                "length_unit": _length_words(total["length"]["unit"]),
                "total": {"win_rate": percent(total["win_rate"]), "interval": f"{percent(low)} – {percent(high)}",
                          "length": "–" if total["length"]["mean"] is None else f"{total['length']['mean']:.1f}"}}
    baseline = []
    for row in result["baseline"]["opponents"]:
        low, high = row["result"]["win_rate_interval"]
        baseline.append({"name": opponent_words(run.system, {**row, "key": row["opponent"]}),
                         "origin": origin.get(row["opponent"]),
                         "weight": f"{row['weight'] * 100:.0f} %", "win_rate": percent(row["result"]["win_rate"]),
                         "interval": f"{percent(low)} – {percent(high)}", **seat_cells(row["result"])})
    if result.get("variant") == IMPACT:
        return {"kind": IMPACT, "baseline": baseline, **impact_view(run, result),
                "about": seats_about(run.system, [row["result"] for row in result["baseline"]["opponents"]]),
                **seat_labels(), "interval_label": results.interval_words(),
                "played": results.number(result.get("games_played", result.get("games"))),
                "budget": results.number(result.get("games"))}
    changes = []
    for rank, change in enumerate(result["changes"], 1):
        verdict = change.get("verdict") or "none"
        stats = change["stats"]
        changes.append({"rank": rank, "key": change["key"], "sentence": change["sentence"].get(lang) or
                        change["sentence"]["en"], "verdict": verdict, "verdict_words": VERDICT_WORDS[verdict](),
                        "confirmed": bool(change.get("confirmed")),
                        "cuts_rarely_used": bool(change.get("cuts_rarely_used")),
                        "stage": _("confirm") if change.get("stage") == "confirm" else _("screen"),
                        "adjusted_p": "< 0.001" if stats.get("adjusted_p", 1) < 0.001
                        else f"{stats.get('adjusted_p', 1):.3f}",
                        "label": (change.get("label") or {}).get(lang)})
    stages = [{"name": _stage_words(stage), "lists": stage["lists"], "games": results.number(stage["games"]),
               "total": results.number(stage["games_total"])} for stage in result.get("stages") or []]
    unused = [{"name": (row["name"] if lang == "ja" else row["name_en"]) or row["card"], "copies": row["copies"],
               "use": _("never used") if row["never"] else
               _("used %(times)s times a game per copy") % {"times": f"{row['per_game']:.3f}"}}
              for row in result.get("rarely_used") or []]
    refusal = apply_refusal(run) if run.game_list_id is not None else None
    return {"kind": DOCTOR, "baseline": baseline, "changes": changes, "best": result.get("best"),
            "about": seats_about(run.system, [row["result"] for row in result["baseline"]["opponents"]]),
            **seat_labels(),
            "stages": stages, "rarely_used": unused, "correction": correction_words(),
            "played": results.number(result.get("games_played", result.get("games"))),
            "budget": results.number(result.get("games")),
            "interval_label": results.interval_words(),
            "can_apply": run.game_list_id is not None and refusal is None,
            "apply_note": refusal_words(refusal.reason) if refusal is not None else None}
