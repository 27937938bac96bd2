"""The analysis page and a replay's steps as positions (docs/positions.md).

`/analysis/` loads a position (hangar.position/1: pasted, uploaded, or one of the examples) and shows its board
(the replay's board of each game: the HAGMI board, the MWDA/Warcaster table), whose decision it is and its legal
actions, each a button that plays it; "simulate from here" plays games on from the position. Nothing is stored:
the position travels in the form. A replay's step opens here (`?run=&game=&step=`), downloads as a position file
(`/simulations/<id>/games/<n>/position/?step=k`), and "simulate from here" on the replay page plays games on from
that step with the run's policy, beside the run's own result.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods

from builder import selectors
from builder.services import ListServiceError
from builder.services.positions import (
    DEFAULT_POSITION_GAMES,
    MAX_WEB_POSITION_GAMES,
    PositionInvalid,
    position_analyse,
    position_cards,
    position_read,
)
from builder.throttles import scope_wait, work_charge
from cards.downloads import content_disposition
from rules_engine.replay import position_at, replay_events
from rules_engine.simulation import SimulationInputError

from . import gamereport, positionboard, presenters, vocabulary
from .common import error_page, is_htmx, throttled_page
from .simulations import with_shown_list

EXAMPLES_DIR = Path(settings.BASE_DIR) / "docs" / "positions"
EXAMPLE_SYSTEMS = ("hagmi", "mwda", "warcaster")


def example_position(system: str) -> str | None:
    path = EXAMPLES_DIR / f"{system}.position.json"
    return path.read_text(encoding="utf-8") if system in EXAMPLE_SYSTEMS and path.exists() else None


def _games(raw: Any) -> int:
    try:
        games = int(str(raw or DEFAULT_POSITION_GAMES).strip())
    except ValueError:
        raise PositionInvalid(pgettext("analysis", "Give the number of games as a whole number."),
                              path="games") from None
    if not 1 <= games <= MAX_WEB_POSITION_GAMES:
        raise PositionInvalid(pgettext("analysis", "Simulate 1 to %(max)s games from here.")
                              % {"max": MAX_WEB_POSITION_GAMES}, path="games")
    return games


def over_budget_words(problem: PositionInvalid) -> PositionInvalid:
    """A refusal of work over the page's budget (builder/services/budget.py), in the page's language."""
    if problem.code != "budget.exceeded":
        return problem
    details = problem.details or {}
    message = pgettext("analysis", "These games are estimated at %(estimate)s s of engine work, more than the "
                                   "%(limit)s s a page may play: simulate fewer games, or start a simulation run "
                                   "of a list.") % {"estimate": f"{details.get('estimate_seconds', 0):.1f}",
                                                   "limit": f"{details.get('limit_seconds', 0):g}"}
    # No path on the page: it names an API field ("games", "policy"), and the sentence already says which control
    # made the work dear; the API keeps the path in its details.
    worded = PositionInvalid(message, path="", code=problem.code)
    worded.details = details
    return worded


@require_http_methods(["GET", "POST"])
def analysis(request: HttpRequest) -> HttpResponse:
    """GET: the form (or `?example=SYSTEM`, or a replay's step: `?run=ID&game=N&step=K`). POST: `position` (text)
    or `file`, then `action` (an id to play) or `simulate` (with `games`)."""
    text, error, result, source, cards = "", None, None, None, None
    games = DEFAULT_POSITION_GAMES
    try:
        if request.method == "POST":
            if "simulate" in request.POST and (wait := scope_wait(request, "positions")) is not None:
                return throttled_page(request, wait)  # the same budget as POST /api/positions/
            upload = request.FILES.get("file")
            text = upload.read(2 * 1024 * 1024 + 1) if upload else request.POST.get("position", "")
            doc = position_read(text, upload.name if upload else pgettext("analysis", "the position"))
            if "download" in request.POST:
                position_analyse(doc)  # only a position that loads is handed back
                return _download(doc, "position.position.json")
            actions = [request.POST["action"]] if request.POST.get("action") else []
            simulate = "simulate" in request.POST
            games = _games(request.POST.get("games")) if simulate else games
            try:
                result = position_analyse(doc, actions=actions, games=games if simulate else None,
                                          seed=1, policy=request.POST.get("policy") or "greedy",
                                          charge=work_charge(request))
            except PositionInvalid as problem:
                if problem.code != "budget.exceeded":
                    raise
                error = over_budget_words(problem)  # the games are refused; the position stays on the page
                result = position_analyse(doc, actions=actions)
        elif request.GET.get("example"):
            text = example_position(request.GET["example"]) or ""
            if not text:
                raise PositionInvalid(pgettext("analysis", "There is no example position for that game."),
                                      path="example")
            result = position_analyse(position_read(text))
        elif request.GET.get("run"):
            run, index, step = _replay_step(request)
            source = {"run": run, "index": index, "step": step}
            doc = _step_position(run, index, step)
            cards = (run.snapshot or {}).get("cards")
            result = position_analyse(doc, cards=cards)
    except PositionInvalid as problem:
        error = over_budget_words(problem)
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
    except ListServiceError as problem:
        return error_page(request, problem)
    policy = request.POST.get("policy") or "greedy"
    context = {"text": text if error else "", "error": error, "games": games, "max_games": MAX_WEB_POSITION_GAMES,
               "policy": policy,
               "examples": [(system, presenters.system_name(system)) for system in EXAMPLE_SYSTEMS
                            if example_position(system)],
               "source": source}
    context["played"] = request.method == "POST" and bool(request.POST.get("action")) and error is None
    if result is not None:
        context.update(present(result, cards if cards is not None else position_cards(result["position"])))
        context["policies"] = [(value, vocabulary.label(result["system"], "policy", value))
                               for value in ("greedy", "random")]
    context["over_budget"] = error is not None and error.code == "budget.exceeded"
    return render(request, "analysis/analysis.html", context, status=400 if error else 200)


def present(result: dict[str, Any], cards: Any) -> dict[str, Any]:
    """What the page shows of an analysis: the board, the decision, the actions, the events and the summary."""
    system = result["system"]
    position = result["position"]
    names = positionboard.namer(system, position, result, cards)
    moves = [{**move, "words": positionboard.action_words(system, move["action"], names, position, result)}
             for move in result["moves"]]
    return {"result": result, "system": system, "system_name": presenters.system_name(system), "moves": moves,
            "board": positionboard.board(system, position, result, cards, names),
            "position_json": json.dumps(position, ensure_ascii=False),
            "lines": positionboard.event_lines(system, result, cards, names) if result["events"] else [],
            "decision": positionboard.decision_words(system, position, names),
            "summary": positionboard.summary_words(result["summary"]) if result["summary"] else None}


def _replay_step(request: HttpRequest) -> tuple[Any, int, int]:
    """The run, game and step of `?run=&game=&step=`."""
    try:
        index = int(request.GET.get("game", "0"))
    except ValueError:
        raise PositionInvalid(pgettext("analysis", "Give the game and the step as numbers."), path="game") from None
    run, step = _run_step(request, request.GET.get("run", ""), index, request.GET.get("step", "0"))
    return run, index, step


def _run_step(request: HttpRequest, public_id: str, index: int, raw_step: str) -> tuple[Any, int]:
    """The run `public_id` (if this user may see it: simulation_get_shared), checked to have game `index`, and the
    step `raw_step` as a number (PositionInvalid names the field otherwise)."""
    run = with_shown_list(selectors.simulation_get_shared(public_id=public_id, user=request.user), request.user)
    if not presenters.capable((run.snapshot or {}).get("system"), "positions"):
        raise PositionInvalid(pgettext("analysis", "This game has no positions: its steps cannot be saved or "
                                                   "played on from here."), path="game")
    if not 0 <= index < run.games:
        raise PositionInvalid(pgettext("replay", "This run has games 1 to %(last)s; there is no game %(n)s.")
                              % {"last": run.games, "n": index + 1}, path="game")
    try:
        return run, int(raw_step)
    except ValueError:
        raise PositionInvalid(pgettext("analysis", "Give the game and the step as numbers."), path="step") from None


def _step_position(run: Any, index: int, step: int) -> dict[str, Any]:
    try:
        return position_at(run.snapshot or {}, run.seed, index, step)
    except SimulationInputError as problem:
        raise PositionInvalid(pgettext("analysis", "This step cannot be set up: %(why)s") % {"why": problem},
                              path="step") from None


@require_http_methods(["GET", "HEAD"])
def replay_position(request: HttpRequest, public_id: str, index: int) -> HttpResponse:
    """`/simulations/<id>/games/<n>/position/?step=k`: step k of the game as a position file (a download)."""
    try:
        run, step = _run_step(request, public_id, index, request.GET.get("step", "0"))
        doc = _step_position(run, index, step)
    except ListServiceError as problem:
        return error_page(request, problem)
    return _download(doc, f"{public_id}-game{index + 1}-step{step}.position.json")


def _download(doc: dict[str, Any], filename: str) -> HttpResponse:
    response = HttpResponse(json.dumps(doc, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = content_disposition(filename)
    return response


@require_http_methods(["POST"])
def replay_from_here(request: HttpRequest, public_id: str, index: int) -> HttpResponse:
    """"Simulate from here" on the replay page: N games on from step k with the run's policy, beside the run's own
    result and this game's. htmx swaps in the fragment; without JavaScript it is a page of its own."""
    if (wait := scope_wait(request, "positions")) is not None:
        return throttled_page(request, wait)
    try:
        run, step = _run_step(request, public_id, index, request.POST.get("step", "0"))
        games = _games(request.POST.get("games"))
        doc = _step_position(run, index, step)
        snapshot = run.snapshot or {}
        result = position_analyse(doc, games=games, seed=run.seed, policy=snapshot.get("policy") or "greedy",
                                  cards=snapshot.get("cards"), charge=work_charge(request))
    except PositionInvalid as problem:
        return render(request, "analysis/_from_here.html", {"error": over_budget_words(problem)}, status=400)
    except ListServiceError as problem:
        return error_page(request, problem)
    run_result = run.result or {}
    context = {"run": run, "index": index, "step": step, "games": games,
               "summary": positionboard.summary_words(result["summary"]),
               "run_summary": positionboard.summary_words(run_result) if run_result.get("games") else None,
               "heading": _step_heading(run, index, step)}
    template = "analysis/_from_here.html" if is_htmx(request) else "analysis/from_here.html"
    return render(request, template, context)


def _step_heading(run: Any, index: int, step: int) -> str:
    """The step's heading as the replay's report and its turn menu say it ("Round 1 · Turn 2 (the opponent)")."""
    snapshot = run.snapshot or {}
    game = replay_events(snapshot, run.seed, index)
    cards = snapshot.get("cards") or {}
    coop = (snapshot.get("opponent") or {}).get("kind") in presenters.presentation(game["system"]).coop_opponent_kinds
    turns = gamereport.report(game["system"], game, cards, coop=coop)
    return str(turns[step]["heading"]) if 0 <= step < len(turns) else ""
