"""What the forms that start a run share (a simulation: simulations.py; a gauntlet or a list doctor: batches.py):
their choices of opponent and policy, the warnings of an illegal list, and starting the run from a valid form."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.utils import timezone
from django.utils.translation import gettext as _

from builder import selectors
from builder.forms import POLICY_CHOICES
from builder.listio import ListFormatError
from builder.models import SimulationRun
from builder.services import ListServiceError
from cards.selectors import opponents_for

from . import presenters, results
from .common import error_lines


def start_from_form(form, start, request=None) -> tuple[SimulationRun | None, int]:
    """Start a run from a valid form (`start()` calls the service): (the run, 302), or (None, the error's status)
    with what is wrong added to the form (a run refused by the services is never a 500); a `start()` that put its
    own error on the form and returned None gives (None, 400). Given the `request`, a run of the user's that
    already asked the same question (returned as it is, nothing played again) is said so on the next page."""
    asked_at = timezone.now()
    try:
        run = start()
        if request is not None and run is not None and run.reused_from_id is None and run.created_at < asked_at:
            messages.info(request, _("Answered from an earlier run of the same question: your run below asked it "
                                     "already, so nothing was played again."))
        return run, (302 if run is not None else 400)
    except (ListServiceError, ListFormatError) as error:
        for row in error_lines(error):
            form.add_error(None, row["message"])
        return None, getattr(error, "status", 400)


def opponent_choices(system, document: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The form's opponents: the sample decks, armies and forces first (the first is the default), the co-op
    scenarios next, and the goldfish, which never acts, last and named for what it is: target practice. A sample
    holding the very cards of `document` (the list is a copy of it) comes after the other samples: the default is
    never a mirror match when another sample exists."""
    rank = {"goldfish": 3, "coop": 2}
    sections = selectors.list_cards(document)

    def order(opp) -> tuple[int, str]:
        kind = rank.get(opp.data.get("kind"), 0)
        if kind == 0 and sections and selectors.list_cards(opp.data.get("list")) == sections:
            kind = 1
        return kind, opp.slug

    opponents = sorted(opponents_for(system), key=order)
    return [(opp.slug, presenters.opponent_name(system, opp.slug, presenters.opponent_item(opp)))
            for opp in opponents]


def policy_choices(system: str) -> list[tuple[str, str]]:
    return [(slug, results.policy_label(system, slug)) for slug in POLICY_CHOICES.get(system, ("greedy", "random"))]


def illegal_rows(validation: dict[str, Any] | None, system: str) -> list[dict[str, Any]]:
    """What makes a list illegal (its errors, with card names), or [] for a legal list: the form and the run page
    warn with it, and the simulation still plays the list."""
    if not isinstance(validation, dict) or validation.get("legal", True):
        return []
    rows = presenters.violation_rows(validation, presenters.catalog(system))
    return [row for row in rows if row.get("severity") != "warning"] or rows
