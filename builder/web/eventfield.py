"""The event's field on the pages that play opponents (docs/events.md "The event's field"): the events offered
beside the named fields on the gauntlet, doctor, "test every card", matrix and "what beats my list" forms, a
refusal of the services said next to the choice, and the words a result page gives an opponent that came from an
event (the event's name and how many players brought that list), in the reader's language."""
from __future__ import annotations

from typing import Any, Iterable

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from builder import event_selectors
from builder.errors import SimulationInvalid

EVENTS_OFFERED = 20  # the newest events a form offers; another one is chosen by its link (?event=)


def event_words(event, *, count: int | None = None, most: int | None = None) -> str:
    """"Event: Winter Cup (Dec. 20, 2026, 3 players)"; given `most` (the opponents the run may play) and `count`
    (the event's distinct lists), an event with more says before the form is sent that only its most brought lists
    will be played (builder.services.batches `_cut_events`)."""
    words = ngettext("Event: %(name)s (%(date)s, %(n)s player)", "Event: %(name)s (%(date)s, %(n)s players)",
                     event.players) % {"name": event.name, "date": date_format(event.date), "n": event.players}
    if most is not None and count is not None and count > most:
        words = _("%(field)s: %(count)s lists, more than this run may play: those brought by most players are "
                  "played") % {"field": words, "count": count}
    return words


def event_choices(request, system: str, most: int | None = None) -> tuple[list[tuple[str, str]], str]:
    """The events offered (one reached by ?event= first when it is not among the newest) and the one chosen by
    ?event= (or the POST) when it is offered, "" else."""
    user = request.user
    events = event_selectors.event_field_choices(user=user, system=system, limit=EVENTS_OFFERED)
    chosen = request.GET.get("event") or request.POST.get("event") or ""
    if chosen and not any(event.slug == chosen for event in events):
        linked = event_selectors.event_field_choice(slug=chosen, user=user, system=system)
        events = ([linked] if linked is not None else []) + events

    def count(event) -> int | None:
        return len(event_selectors.event_field(event, user=user)) if most is not None else None

    choices = [(event.slug, event_words(event, count=count(event), most=most)) for event in events]
    return choices, chosen if any(slug == chosen for slug, _words in choices) else ""


def event_error(form, error: SimulationInvalid) -> bool:
    """An event refused by the services said next to the event select, in the page's language (True), else False."""
    if error.code == "simulation.event" and "event" in form.fields:
        form.add_error("event", _("This event's lists cannot be played: they are not shown to you yet, or no list "
                                  "was submitted."))
        return True
    path = str((error.details or {}).get("path", ""))
    if ".event lists[" in path and "event" in form.fields:
        form.add_error("event", _("A list of this event cannot be played against this list."))
        return True
    return False


def origins(keys_weights: Iterable[tuple[str, Any]], user) -> dict[str, str]:
    """{opponent key: where it came from} for the opponents of an event's field among (key, weight) — the weight
    frozen in the run is how many players brought that list: "From the event Winter Cup (Dec. 20, 2026): brought
    by 2 players". An event the reader may not see (or one deleted since) is not named."""
    pairs = [(key, weight) for key, weight in keys_weights if event_selectors.event_field_key(key) is not None]
    if not pairs:
        return {}
    events = event_selectors.events_of_keys([key for key, _weight in pairs], user=user)
    found = {}
    for key, weight in pairs:
        players = int(round(float(weight or 0)))
        event = events.get(event_selectors.event_field_key(key)[0])
        if event is not None:
            found[key] = ngettext("From the event %(event)s (%(date)s): brought by %(n)s player",
                                  "From the event %(event)s (%(date)s): brought by %(n)s players", players) % {
                "event": event.name, "date": date_format(event.date), "n": players}
        else:
            found[key] = ngettext("From a tournament event: brought by %(n)s player",
                                  "From a tournament event: brought by %(n)s players", players) % {"n": players}
    return found


def event_coverage(keys_weights: Iterable[tuple[str, Any]], user) -> list[str]:
    """A sentence for each event whose field a run played only in part (more distinct lists than the run may play:
    builder.services.batches `_cut_events` kept the most brought): "From the event Winter Cup (Dec. 20, 2026), the
    64 lists brought by most players were played, of its 90 (74 of its 100 players)." Nothing for an event played
    whole, or one the reader may not see the lists of."""
    pairs = list(keys_weights)
    played: dict[str, list[float]] = {}
    for key, weight in pairs:
        parsed = event_selectors.event_field_key(key)
        if parsed is not None:
            played.setdefault(parsed[0], []).append(float(weight or 0))
    if not played:
        return []
    events = event_selectors.events_of_keys([key for key, _weight in pairs], user=user)
    sentences = []
    for slug, weights in played.items():
        event = events.get(slug)
        field = event_selectors.event_field(event, user=user) if event is not None else []
        if len(field) <= len(weights):
            continue
        players = sum(entry["weight"] for entry in field)
        sentences.append(_("From the event %(event)s (%(date)s), the %(lists)s lists brought by most players were "
                           "played, of its %(all)s (%(players)s of its %(everyone)s players): the others are left "
                           "out of the weighted total.") % {
            "event": event.name, "date": date_format(event.date), "lists": len(weights), "all": len(field),
            "players": int(round(sum(weights))), "everyone": players})
    return sentences
