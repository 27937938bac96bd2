"""The permission matrix (docs/security.md): every URL pattern of the site and the API, every actor (anonymous,
the owner, another user, staff), every state of the object (a list private / unlisted / public / in the trash; a
run finished or queued), every method -> the expected status.

`test_every_url_pattern_has_a_matrix_entry` walks Django's URL resolver: a new endpoint (or a new method of an API
endpoint) fails the suite until someone writes down here who may do what with it.

Besides the status, every refusal (403/404) must not contain the name of the list it refused, and reads that show
a list must show it (so a 404 page cannot pass for a page that leaks, nor a page that leaks for a 404).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from builder import selectors, services
from builder.web import presenters
from tests.builder.conftest import hagmi_doc

from tests.security.conftest import (
    ACTORS, EVENT_ACTORS, EVENT_STATES, FIELD_STATES, LIST_STATES, MATRIX_STATES, PASSWORD, RUN_STATES, World,
)

pytestmark = pytest.mark.django_db

LOGIN = "login"  # a page that needs an account: 302 to /accounts/login/?next=...
SHARED = ("unlisted", "public")


@dataclass(frozen=True)
class Expect:
    status: int | str | tuple[int, ...]  # a status, several allowed (health: 503 when the broker is down), or LOGIN
    shows: bool | None = None  # the object's name must (True) / must not (False) appear in the body


def sees(actor: str, state: str) -> bool:
    """Who may read a list: its owner always (trash included); anyone else only unlisted and public lists."""
    return actor == "owner" or state in SHARED


def run_shows_list(actor: str, state: str) -> bool:
    return actor == "owner" or state == "done-public"


# --- policies: (actor, state) -> Expect ---------------------------------------------------------------------


def read(actor: str, state: str) -> Expect:
    """Reading a list (detail, validation, export, revisions, diff, history, sheet): a list you may not see is a
    404, never a 403, so its existence is not revealed."""
    return Expect(200, True) if sees(actor, state) else Expect(404, False)


def read_quiet(actor: str, state: str) -> Expect:
    """As `read`, for answers that do not carry the list's name (validation, revisions, diff, odds, export)."""
    return Expect(200, None) if sees(actor, state) else Expect(404, False)


def api_owner_write(ok: int | str, owner_in_trash: int) -> Callable[[str, str], Expect]:
    """Changing a list: the owner only; a list you can see is a 403, one you cannot a 404."""

    def policy(actor: str, state: str) -> Expect:
        if actor == "owner":
            return Expect(owner_in_trash if state == "deleted" else ok)
        return Expect(403 if sees(actor, state) else 404, False)

    return policy


def api_restore(actor: str, state: str) -> Expect:
    if actor == "owner":
        return Expect(200 if state == "deleted" else 400)  # 400 list.not_deleted
    return Expect(403 if sees(actor, state) else 404, False)


def api_fork(actor: str, state: str) -> Expect:
    """Any list you can see, signed in; the owner is told to restore a list in the trash first (400)."""
    if not sees(actor, state):
        return Expect(404, False)
    if actor == "anon":
        return Expect(403, False)  # not_authenticated
    if actor == "owner" and state == "deleted":
        return Expect(400)
    return Expect(201, True)


def api_simulate_list(actor: str, state: str) -> Expect:
    if actor == "anon":
        return Expect(403, False)
    return Expect(202) if sees(actor, state) else Expect(404, False)


def api_opponent_list(actor: str, state: str) -> Expect:
    """A saved list as a gauntlet's or the doctor's opponent: a list you may see (public, unlisted by its link,
    or one of your own); anyone else's private list is a 400 that names the id given, never the list (its name
    stays out). Your own list in the trash: 400 (restore it first)."""
    if actor == "anon":
        return Expect(403, False)
    if actor == "owner":
        return Expect(400 if state == "deleted" else 202)
    return Expect(202) if state in SHARED else Expect(400, False)


def page_owner(ok: int | str, owner_in_trash: int) -> Callable[[str, str], Expect]:
    """The editor and the owner's buttons: sign in first; then as `api_owner_write` (403 page / 404 page)."""
    signed_in = api_owner_write(ok, owner_in_trash)

    def policy(actor: str, state: str) -> Expect:
        return Expect(LOGIN, False) if actor == "anon" else signed_in(actor, state)

    return policy


def page_restore(actor: str, state: str) -> Expect:
    if actor == "anon":
        return Expect(LOGIN, False)
    if actor == "owner":
        return Expect(302 if state == "deleted" else 400)
    return Expect(403 if sees(actor, state) else 404, False)


def page_fork(actor: str, state: str) -> Expect:
    if actor == "anon":
        return Expect(LOGIN, False)
    if not sees(actor, state):
        return Expect(404, False)
    return Expect(400 if state == "deleted" else 302)


def page_signed_in_read(ok: int) -> Callable[[str, str], Expect]:
    """Pages about a list you can see that need an account (the Simulate form and its POST)."""

    def policy(actor: str, state: str) -> Expect:
        if actor == "anon":
            return Expect(LOGIN, False)
        return Expect(ok, True if ok == 200 else None) if sees(actor, state) else Expect(404, False)

    return policy


def post_only_page(actor: str, state: str) -> Expect:
    """GET on a button's address: sign in first, then 405 (nothing happens on GET)."""
    return Expect(LOGIN, False) if actor == "anon" else Expect(405, False)


def sheet_remember(actor: str, state: str) -> Expect:
    """The tournament sheet's "remember the player and event" (the visitor's own session): a list you can see."""
    return Expect(302) if sees(actor, state) else Expect(404, False)


def verify_page(actor: str, state: str) -> Expect:
    """The sheet verification page answers 200 for any id; a list you may not see is reported missing."""
    return Expect(200, sees(actor, state))


def options_metadata(actor: str, state: str) -> Expect:
    return Expect(200, False)  # DRF's OPTIONS metadata never carries the list


# runs


def api_run_read(actor: str, state: str) -> Expect:
    """The runs API is owner-only: 403 without an account, 404 for anyone else's run."""
    if actor == "anon":
        return Expect(403, False)
    return Expect(200, None) if actor == "owner" else Expect(404, False)


def api_run_cancel(actor: str, state: str) -> Expect:
    if actor == "anon":
        return Expect(403, False)
    if actor != "owner":
        return Expect(404, False)
    return Expect(200 if state == "queued" else 409)


def api_run_apply(actor: str, state: str) -> Expect:
    """Applying a doctor run's change: the run's owner only (and the list's: builder.services.batches.doctor_apply);
    the matrix's runs are plain simulations, so the owner is told it is not a doctor run (400)."""
    if actor == "anon":
        return Expect(403, False)
    return Expect(400) if actor == "owner" else Expect(404, False)


def run_shared_page(actor: str, state: str) -> Expect:
    """A run's page, replay and comparison: the owner always; anyone with the link once it is finished (the
    shareable result), without the name of a list they may not see; an unfinished run of someone else is a 404."""
    if actor == "owner":
        return Expect(200, True)
    if state == "queued":
        return Expect(404, False)
    return Expect(200, run_shows_list(actor, state))


def run_shared_quiet(actor: str, state: str) -> Expect:
    """A run's step as a position (download, analysis, simulate from here): as `run_shared_page`, but the answer
    never carries the list's name (a position names the list's cards, not the list), not even to its owner."""
    if actor != "owner" and state == "queued":
        return Expect(404, False)
    return Expect(200, None if actor == "owner" else False)


def run_owner_apply(actor: str, state: str) -> Expect:
    """Apply a list doctor's change: the run's owner only (the matrix's run is a plain one: a 400 that says so)."""
    if actor == "anon":
        return Expect(LOGIN, False)
    return Expect(400) if actor == "owner" else Expect(404, False)


def run_owner_page(actor: str, state: str) -> Expect:
    """The progress fragment (htmx polling): its owner only."""
    if actor == "anon":
        return Expect(LOGIN, False)
    return Expect(200) if actor == "owner" else Expect(404, False)


# matchup matrices (owner-only, as runs: builder.services.matrices)


def api_matrix_read(actor: str, state: str) -> Expect:
    """A matrix through the API: 403 without an account, 404 for anyone else's (its list's name never shown)."""
    if actor == "anon":
        return Expect(403, False)
    return Expect(200, True) if actor == "owner" else Expect(404, False)


def matrix_page(actor: str, state: str) -> Expect:
    """A matrix's page and its progress fragment: sign in first; the owner's only (anyone else: the 404 page)."""
    if actor == "anon":
        return Expect(LOGIN, False)
    return Expect(200, True) if actor == "owner" else Expect(404, False)


def matrix_cancel_page(actor: str, state: str) -> Expect:
    """Cancel a matrix's playing cells: its owner (back to the matrix); anyone else the 404 page."""
    if actor == "anon":
        return Expect(LOGIN, False)
    return Expect(302) if actor == "owner" else Expect(404, False)


def beats_page(ok: int) -> Callable[[str, str], Expect]:
    """What beats my list: sign in first; the list's owner asks (a list in the trash: 400 on POST, restore it
    first); anyone else is refused (403 for a list they can see, 404 otherwise), the list's name never shown."""
    def policy(actor: str, state: str) -> Expect:
        if actor == "anon":
            return Expect(LOGIN, False)
        if actor == "owner":
            return Expect(400 if state == "deleted" and ok != 200 else ok)
        return Expect(403 if sees(actor, state) else 404, False)

    return policy


def api_beats(actor: str, state: str) -> Expect:
    if actor == "anon":
        return Expect(403, False)
    if actor == "owner":
        return Expect(400 if state == "deleted" else 202)
    return Expect(403 if sees(actor, state) else 404, False)


# global endpoints (no object): actor -> Expect


def everyone(status: int | tuple[int, ...]) -> Callable[[str, str], Expect]:
    return lambda actor, state: Expect(status)


def signed_in_api(status: int) -> Callable[[str, str], Expect]:
    return lambda actor, state: Expect(403) if actor == "anon" else Expect(status)


def signed_in_page(status: int) -> Callable[[str, str], Expect]:
    return lambda actor, state: Expect(LOGIN) if actor == "anon" else Expect(status)


def staff_page(status: int) -> Callable[[str, str], Expect]:
    """The staff pages (the data import): sign in first; a user who is not staff gets the 403 page."""
    def policy(actor: str, state: str) -> Expect:
        if actor == "anon":
            return Expect(LOGIN)
        return Expect(status) if actor == "staff" else Expect(403)

    return policy


def editor_page(status: int) -> Callable[[str, str], Expect]:
    """The card editor: sign in first; data editors and staff may, any other user gets the 403
    page ("owner" is an ordinary user here)."""
    def policy(actor: str, state: str) -> Expect:
        if actor == "anon":
            return Expect(LOGIN)
        return Expect(status) if actor in ("editor", "staff") else Expect(403)

    return policy


def signed_in_any(status: int) -> Callable[[str, str], Expect]:
    """Proposing a correction to a card: any signed-in user, editor or not."""
    return lambda actor, state: Expect(LOGIN) if actor == "anon" else Expect(status)


# fields: read like a list (a private field is a 404 for anyone but its owner); changed by their owner only


def hides_secrets(world: World, actor: str, body: str) -> str | None:
    """A field shown to anyone but its owner never names the owner's private list inside it."""
    if actor == "owner":
        return None
    leaked = [name for name in world.secrets if name in body]
    return f"the private list {leaked[0]!r} of a field leaks to {actor}" if leaked else None


def fields_index(shown_states: Callable[[str], tuple[str, ...]]) -> Callable[[World, str, str], str | None]:
    def check(world: World, actor: str, body: str) -> str | None:
        for state in FIELD_STATES:
            name = world.field(state).name
            if (name in body) != (state in shown_states(actor)):
                return f"{state} field {'missing from' if state in shown_states(actor) else 'leaks into'} the index"
        return hides_secrets(world, actor, body)

    return check


def api_opponent_field(actor: str, state: str) -> Expect:
    """A field as a gauntlet's opponents: one you may see (yours, or an unlisted or public one: played without the
    owner's private list); a private field of someone else is a 400 that names the id given, never the field."""
    if actor == "anon":
        return Expect(403, False)
    return Expect(202) if sees(actor, state) else Expect(400, False)


def field_body(world: World, field) -> dict[str, Any]:
    return {"name": field.name, "description": "", "visibility": field.visibility, "opponent-goldfish": 1}


def gauntlet_against_field(world: World, field) -> dict[str, Any]:
    return {"document": hagmi_doc(), "field": field.slug, "games": 2, "seed": 5}


# tournament events, the organiser's side: the owner organises, "entrant" submitted a list (its name is the secret)


def event_seen(actor: str, state: str) -> bool:
    """Who sees the event itself: open registration for anyone; a join-code event for its organiser, staff, players."""
    return state != "code" or actor in ("owner", "staff", "entrant")


def event_lists_seen(actor: str, state: str) -> bool:
    """Who sees the entrant's list: the entrant, the organiser and staff always; others once it is published."""
    return actor in ("owner", "staff", "entrant") or (state == "published" and event_seen(actor, state))


def event_organiser(ok: int, shows: bool | None = None) -> Callable[[str, str], Expect]:
    """The organiser's pages and buttons: sign in first; the organiser and staff; anyone else 403 when they see the
    event, 404 when they do not, the list's name never shown."""
    def policy(actor: str, state: str) -> Expect:
        if actor == "anon":
            return Expect(LOGIN, False)
        if actor in ("owner", "staff"):
            return Expect(ok, shows)
        return Expect(403 if event_seen(actor, state) else 404, False)

    return policy


# tournament events (builder.event_selectors): the owner organises them; staff may run any; `entrant` joined and
# submitted a private list. A join-code event is a 404 to anyone without its code; nothing of a list before the lists
# are shown (the "published" state) reaches anyone but its player, the organiser and staff.

ORGANISING = ("owner", "staff")


def event_sees(actor: str, state: str) -> bool:
    """Who may open an event's page (without its code)."""
    return state != "code" or actor in ORGANISING + ("entrant",)


def event_locked(state: str) -> bool:
    return state in ("locked", "published")


def event_page(actor: str, state: str) -> Expect:
    return Expect(200, True) if event_sees(actor, state) else Expect(404, False)


def event_organiser_page(ok: int) -> Callable[[str, str], Expect]:
    """The event's form and its delete: sign in first; the organiser and staff; 403 for a reader who may see it."""
    def policy(actor: str, state: str) -> Expect:
        if actor == "anon":
            return Expect(LOGIN, False)
        if actor in ORGANISING:
            return Expect(ok)
        return Expect(403) if event_sees(actor, state) else Expect(404, False)

    return policy


def event_sheet(actor: str, state: str) -> Expect:
    """A player's sheet: 404 (nothing leaks) for whoever may not see the list."""
    return Expect(200, True) if event_lists_seen(actor, state) else Expect(404, False)


def event_verify(actor: str, state: str) -> Expect:
    """/verify/ with an event sheet's code: 200 for any input; the list shows only to whoever may see it."""
    return Expect(200, event_lists_seen(actor, state))


def event_verify_query(world: World, event) -> dict[str, Any]:
    from builder import event_selectors

    return {"list": event.submission.public_id, "code": event_selectors.submission_code(event.submission)}
def event_join(actor: str, state: str) -> Expect:
    """Anyone signed in who may see the event joins it (the entrant again: nothing changes) until the lists lock."""
    if actor == "anon":
        return Expect(LOGIN, False)
    if not event_sees(actor, state):
        return Expect(404, False)
    return Expect(409) if event_locked(state) else Expect(302)


def event_withdraw(actor: str, state: str) -> Expect:
    if actor == "anon":
        return Expect(LOGIN, False)
    if actor != "entrant":
        return Expect(404, False)  # not in the event (a join-code event is not revealed either)
    return Expect(409) if event_locked(state) else Expect(302)


def event_submit(actor: str, state: str) -> Expect:
    """An entrant's list until the lock; anyone else who may see the event is told to join first (403)."""
    if actor == "anon":
        return Expect(LOGIN, False)
    if not event_sees(actor, state):
        return Expect(404, False)
    if actor != "entrant":
        return Expect(403, False)
    return Expect(409) if event_locked(state) else Expect(302)


def event_lists_page(actor: str, state: str) -> Expect:
    """Every entrant's list: the organiser and staff always; anyone who may see the event once published."""
    if actor in ORGANISING or (state == "published" and event_sees(actor, state)):
        return Expect(200, True)
    return Expect(404, False)


def event_submission_page(actor: str, state: str) -> Expect:
    """A submission: its player always, then as the event's lists."""
    return Expect(200, True) if actor == "entrant" else event_lists_page(actor, state)


def hides_entries(world: World, actor: str, body: str) -> str | None:
    """An event's page shows its reader's own entry only: no one else's list name (the entrant's is theirs)."""
    if actor == "entrant":
        return None
    leaked = [name for name in world.entry_names() if name in body]
    return f"the entry {leaked[0]!r} leaks to {actor}" if leaked else None


def event_form(world: World, event) -> dict[str, Any]:
    """The event's form as its page fills it (the locked fields unchanged), with a new name."""
    from django.utils import timezone

    return {"format": event.format, "name": event.name, "date": event.date.isoformat(), "place": "",
            "player_cap": "", "registration": event.registration, "lists_shown": event.lists_shown,
            "deadline": timezone.localtime(event.deadline).strftime("%Y-%m-%dT%H:%M"), "publish_at": ""}


def new_event_form(world: World, actor: str) -> dict[str, Any]:
    from datetime import timedelta

    from django.utils import timezone

    deadline = timezone.localtime(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    return {"system": "hagmi", "format": "", "name": world.unique("New cup"), "date": "2026-12-24", "place": "",
            "player_cap": "", "registration": "open", "deadline": deadline, "lists_shown": "publish",
            "publish_at": ""}


# --- tournament events through the API (builder/api/events.py): actors EVENT_ACTORS, states EVENT_STATES ----------
# The owner organises; "entrant" joined and submitted a list (the cell's name), as did a player who is no actor (the
# hidden list, in `world.event_lists` with the entrant's: hides_event_lists checks both).


def event_runs(actor: str) -> bool:
    return actor in ("owner", "staff")


def event_all_lists_seen(actor: str, state: str) -> bool:
    """Every player's list (the hidden one too): the organiser and staff always; anyone who may see the event once
    they are shown."""
    return event_runs(actor) or (state == "published" and event_seen(actor, state))


def event_taking_lists(state: str) -> bool:
    return state in ("open", "code")


def api_event_refused(actor: str, state: str) -> Expect:
    """An event you may not see is a 404 (not revealed, its name never shown); one you may see is a 403 (anonymous:
    not signed in)."""
    return Expect(403 if event_seen(actor, state) else 404, False)


def api_event_read(actor: str, state: str) -> Expect:
    """The event itself: it never carries a player's list."""
    return Expect(200, False) if event_seen(actor, state) else Expect(404, False)


def api_event_submissions(actor: str, state: str) -> Expect:
    """The current lists: the entrant's shows to whoever may see it (event_lists_seen), to nobody else."""
    return Expect(200, event_lists_seen(actor, state)) if event_seen(actor, state) else Expect(404, False)


def api_event_history(actor: str, state: str) -> Expect:
    """Every submission (?history=1): the organiser's and staff's of every player, anyone else's of their own."""
    if not event_seen(actor, state):
        return Expect(404, False)
    return Expect(200, actor in ("owner", "staff", "entrant"))


def api_event_lists(actor: str, state: str) -> Expect:
    """Another player's submission, the event's field: 404 until the lists are shown to the reader."""
    return Expect(200) if event_all_lists_seen(actor, state) else Expect(404, False)


def api_event_organiser(ok: Callable[[str], int]) -> Callable[[str, str], Expect]:
    """The organiser's and staff's actions: `ok(state)` for them; anyone else refused."""
    def policy(actor: str, state: str) -> Expect:
        return Expect(ok(state)) if event_runs(actor) else api_event_refused(actor, state)

    return policy


def api_event_join(with_code: bool) -> Callable[[str, str], Expect]:
    """Joining: signed in; a join-code event with its code (its organiser, staff and its players without);
    nobody once the lists are locked (409)."""
    def policy(actor: str, state: str) -> Expect:
        if not (with_code or event_seen(actor, state)):
            return Expect(404, False)
        if actor == "anon":
            return Expect(403, False)
        return Expect(200 if event_taking_lists(state) else 409)

    return policy


def api_event_withdraw(actor: str, state: str) -> Expect:
    if actor == "entrant":
        return Expect(200 if event_taking_lists(state) else 409)
    if actor == "anon":
        return api_event_refused(actor, state)
    return Expect(404, False)  # not one of its players (or an event they may not see)


def api_event_submit(actor: str, state: str) -> Expect:
    """Submitting: its players, until the lists lock; anyone else who may see the event: 403 (join first)."""
    if actor == "entrant":
        return Expect(201 if event_taking_lists(state) else 409)
    return api_event_refused(actor, state)


def hides_event_lists(world: World, actor: str, body: str) -> str | None:
    """No answer names a player's list to anyone but that player, the organiser and staff before the lists are
    shown; the join code is the organiser's and staff's."""
    for name, (state, submitter) in world.event_lists.items():
        if name in body and actor != submitter and not event_all_lists_seen(actor, state):
            return f"the list {name!r} of a {state} event leaks to {actor}"
    if not event_runs(actor):
        for event in world._events.values():
            if event.join_code in body:
                return f"the join code of event {event.slug} leaks to {actor}"
    return None


def events_index(shown_states: Callable[[str], tuple[str, ...]]) -> Callable[[World, str, str], str | None]:
    def check(world: World, actor: str, body: str) -> str | None:
        for state in EVENT_STATES:
            name = world.event(state).name
            if (name in body) != (state in shown_states(actor)):
                return f"{state} event {'missing from' if state in shown_states(actor) else 'leaks into'} the index"
        return hides_event_lists(world, actor, body)

    return check


def new_event_body(world: World, actor: str) -> dict[str, Any]:
    return {"system": "hagmi", "name": world.unique("Cup"), "date": "2026-12-20", "deadline": "2030-01-01T10:00Z"}


EVENT_TEXT = "System: hagmi\n[兵器]\n2 HT-001\n"


# --- request bodies ------------------------------------------------------------------------------------------


def put_body(world: World, game_list) -> dict[str, Any]:
    return {"document": hagmi_doc(name=game_list.name), "version": game_list.version}


def patch_body(world: World, game_list) -> dict[str, Any]:
    return {"notes": "changed", "version": game_list.version}


def editor_save(world: World, game_list) -> dict[str, Any]:
    return {"document": json.dumps(hagmi_doc(name=game_list.name)), "version": game_list.version,
            "name": game_list.name, "format": "tactics-v4", "visibility": game_list.visibility, "notes": "",
            "op": "save"}


def simulate_form(world: World, obj) -> dict[str, Any]:
    return {"opponent": "goldfish", "policy": "greedy", "games": 2, "seed": 3}


def gauntlet_form(world: World, obj) -> dict[str, Any]:
    return {"opponent-goldfish": 1, "policy": "greedy", "games": 2, "seed": 3}


def doctor_form(world: World, obj) -> dict[str, Any]:
    return {"opponent-goldfish": 1, "policy": "greedy", "games": 800, "seed": 3, "changes": 1}  # the minimum


def impact_form(world: World, obj) -> dict[str, Any]:
    return {"opponent-goldfish": 1, "policy": "greedy", "games": 4000, "seed": 3}  # above the minimum of 21 cards


def impact_api(world: World, actor) -> dict[str, Any]:
    return {"document": hagmi_doc(), "opponents": [{"opponent": "goldfish"}], "games": 4000, "seed": 5}


def impact_of_list(world: World, game_list) -> dict[str, Any]:
    return {"list": game_list.slug, "opponents": [{"opponent": "goldfish"}], "games": 4000, "seed": 5}


def simulate_api(world: World, game_list) -> dict[str, Any]:
    return {"list": game_list.slug, "opponent": "goldfish", "games": 2, "seed": 3}


def gauntlet_api(world: World, actor) -> dict[str, Any]:
    return {"document": hagmi_doc(), "opponents": [{"opponent": "goldfish", "weight": 2}], "games": 2, "seed": 5}


def gauntlet_of_list(world: World, game_list) -> dict[str, Any]:
    return {"list": game_list.slug, "opponents": [{"opponent": "goldfish"}], "games": 2, "seed": 5}


def gauntlet_against_list(world: World, game_list) -> dict[str, Any]:
    return {"document": hagmi_doc(), "opponents": [{"list": game_list.slug}], "games": 2, "seed": 5}


def doctor_api(world: World, actor) -> dict[str, Any]:
    return {"document": hagmi_doc(), "opponents": [{"opponent": "goldfish"}], "changes": 1, "games": 800, "seed": 5}


def doctor_of_list(world: World, game_list) -> dict[str, Any]:
    return {"list": game_list.slug, "opponents": [{"opponent": "goldfish"}], "changes": 1, "games": 800, "seed": 5}


def matrix_form(world: World, actor: str) -> dict[str, Any]:
    """The matrix form of `actor`: one list of their own against the goldfish (anonymous: the owner's, refused)."""
    game_list = world.new_list("private", owner="owner" if actor == "anon" else actor)
    return {"system": "hagmi", "rows": [game_list.slug], "opponent-goldfish": 1, "policy": "greedy", "games": 2,
            "seed": 3}


def matrix_api(world: World, actor: str) -> dict[str, Any]:
    game_list = world.new_list("private", owner="owner" if actor == "anon" else actor)
    return {"lists": [game_list.slug], "opponents": [{"opponent": "goldfish"}], "games": 2, "seed": 3}


def verify_query(world: World, game_list) -> dict[str, Any]:
    revision = selectors.revision_list(game_list).first()
    return {"list": game_list.slug, "code": presenters.verification_code(revision.document, revision.number)}


def credentials(world: World, actor: str) -> dict[str, Any]:
    user = world.users["owner" if actor == "anon" else actor]
    return {"username": user.username, "password": PASSWORD}


def new_account(world: World, actor: str) -> dict[str, Any]:
    return {"username": world.unique(f"new-{actor}"), "password": PASSWORD, "password_again": PASSWORD, "email": ""}


# --- content checks for the indexes (which lists / runs of the owner does each actor see?) ------------------


def lists_index(shown_states: Callable[[str], tuple[str, ...]]) -> Callable[[World, str, str], str | None]:
    def check(world: World, actor: str, body: str) -> str | None:
        for state in LIST_STATES:
            name = world.list(state).name
            if (name in body) != (state in shown_states(actor)):
                return f"{state} list {'missing from' if state in shown_states(actor) else 'leaks into'} the index"
        return None

    return check


def runs_index(world: World, actor: str, body: str) -> str | None:
    for state in RUN_STATES:
        shown = world.run(state).public_id in body
        if shown != (actor == "owner"):
            return f"run {state} {'missing from' if actor == 'owner' else 'leaks into'} {actor}'s index"
    return None


def matrices_index(world: World, actor: str, body: str) -> str | None:
    """/matrices/mine/: the owner's matrices for the owner, never anyone else's."""
    for state in MATRIX_STATES:
        shown = world.matrix(state).public_id in body
        if shown != (actor == "owner"):
            return f"matrix {state} {'missing from' if actor == 'owner' else 'leaks into'} {actor}'s index"
    return None


# --- the matrix ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    method: str
    path: str  # "{slug}" (a list), "{run}" (a run), "{matrix}" (a matchup matrix), "{event}" (a tournament event;
    # "{submission}": its entrant's submission) or none (no object)
    path: str  # "{slug}" (a list), "{run}" (a run), "{matrix}" (a matchup matrix), "{event}" (a tournament event:
    # "{submission}" / "{entrant}" the entrant's, "{hidden}" / "{player}" the other player's) or none (no object)
    expect: Callable[[str, str], Expect]
    api: bool = False
    data: Callable[[World, Any], dict[str, Any]] | None = None  # query (GET) or body; gets the object (or actor)
    fresh: bool = False  # a new object for each cell where the call succeeds (it changes the object)
    on: str | None = None  # "list", "run", "event"... when the object travels in the query or body, not the path
    actors: tuple[str, ...] = ACTORS
    check: Callable[[World, str, str], str | None] | None = None  # extra check on the body (indexes)
    setup: Callable[[World], Any] | None = None  # objects that must exist before the first request

    @property
    def kind(self) -> str:
        if self.on:
            return self.on
        return ("list" if "{slug}" in self.path else "run" if "{run}" in self.path
                else "field" if "{field}" in self.path else "matrix" if "{matrix}" in self.path
                else "event" if "{event}" in self.path else "none")

    @property
    def states(self) -> tuple[str, ...]:
        return {"list": LIST_STATES, "run": RUN_STATES, "field": FIELD_STATES, "matrix": MATRIX_STATES,
                "event": EVENT_STATES, "none": ("-",)}[self.kind]


A = dict(api=True)
E = dict(actors=EVENT_ACTORS)  # an event's rows: its organiser (the owner), its player, another user, staff, anonymous
AEV = dict(api=True, **E)  # the API on a tournament event
SIGNED = ("anon", "owner", "other")  # endpoints without an object: staff is just another user there
EV = dict(actors=EVENT_ACTORS)  # an event's rows: the organiser (owner), an entrant, another user, anonymous, staff
# an event's own pages (its page, form, delete, join, leave, submit): what they show is the event, not a list
EVENT_OWN_PAGES = ("/events/{event}/", "/edit/", "/delete/", "/join/", "/withdraw/", "/submit/")
EDITING = ("anon", "owner", "editor", "staff")  # the card editor: anonymous, a user, a data editor, staff

MATRIX: dict[str, list[Call]] = {
    # --- API: schema, docs, catalog (read-only, public) ---
    "api-schema": [Call("GET", "/api/schema/", everyone(200), actors=("anon",), **A)],
    "api-docs": [Call("GET", "/api/docs/", everyone(200), actors=("anon",), **A)],
    "api-ping": [Call("GET", "/api/ping/", everyone(200), actors=SIGNED, **A)],
    "api-systems": [Call("GET", "/api/systems/", everyone(200), actors=SIGNED, **A),
                    Call("POST", "/api/systems/", everyone(405), actors=SIGNED, **A)],
    "api-system": [Call("GET", "/api/systems/hagmi/", everyone(200), actors=SIGNED, **A),
                   Call("DELETE", "/api/systems/hagmi/", everyone(405), actors=SIGNED, **A)],
    "api-system-formats": [Call("GET", "/api/systems/hagmi/formats/", everyone(200), actors=SIGNED, **A)],
    "api-system-opponents": [Call("GET", "/api/systems/hagmi/opponents/", everyone(200), actors=SIGNED, **A)],
    "api-packages": [Call("GET", "/api/packages/", everyone(200), actors=SIGNED, **A),
                     Call("POST", "/api/packages/", everyone(405), actors=SIGNED, **A)],
    "api-package-versions": [Call("GET", "/api/packages/hagmi/builder-test/versions/", everyone(200), actors=SIGNED, **A),
                             Call("POST", "/api/packages/hagmi/builder-test/versions/", everyone(405), actors=SIGNED, **A)],
    "api-package-version": [Call("GET", "/api/packages/hagmi/builder-test/versions/1/", everyone(200), actors=SIGNED, **A),
                            Call("DELETE", "/api/packages/hagmi/builder-test/versions/1/", everyone(405), actors=SIGNED, **A)],
    "api-package-diff": [Call("GET", "/api/packages/hagmi/builder-test/diff/?from=1&to=1", everyone(200), actors=SIGNED, **A)],
    "api-cards": [Call("GET", "/api/cards/", everyone(200), actors=SIGNED, **A),
                  Call("POST", "/api/cards/", everyone(405), actors=SIGNED, **A)],
    "api-card": [Call("GET", "/api/cards/hagmi/HT-001/", everyone(200), actors=SIGNED, **A),
                 Call("PUT", "/api/cards/hagmi/HT-001/", everyone(405), actors=SIGNED, **A)],
    # --- API: account-free tools, accounts, health ---
    "api-validate": [Call("POST", "/api/validate/", everyone(200), data=lambda w, a: hagmi_doc(), actors=SIGNED, **A),
                     Call("GET", "/api/validate/", everyone(405), actors=SIGNED, **A)],
    "api-odds": [Call("POST", "/api/odds/", everyone(200), actors=SIGNED, **A,
                      data=lambda w, a: {"document": hagmi_doc(), "deck": "weapons",
                                         "groups": [{"cards": ["HT-001"], "at_least": 1}]}),
                 Call("POST", "/api/odds/", read_quiet, on="list", **A,
                      data=lambda w, gl: {"list": gl.slug, "deck": "weapons",
                                          "groups": [{"cards": ["HT-001"], "at_least": 1}]})],
    "api-positions": [Call("POST", "/api/positions/", everyone(400), actors=SIGNED, **A,
                           data=lambda w, a: {"position": {"format": "hangar.position/1", "system": "chess"}}),
                      Call("GET", "/api/positions/", everyone(405), actors=SIGNED, **A)],
    "api-signup": [Call("POST", "/api/auth/signup/", everyone(201), data=new_account, actors=SIGNED, **A)],
    "api-token": [Call("POST", "/api/auth/token/", everyone(200), data=credentials, actors=SIGNED, **A)],
    "api-login": [Call("POST", "/api/auth/login/", everyone(200), data=credentials, actors=SIGNED, **A)],
    "api-logout": [Call("POST", "/api/auth/logout/", everyone(204), actors=SIGNED, **A)],
    "api-me": [Call("GET", "/api/auth/me/", signed_in_api(200), actors=SIGNED, **A)],
    "api-health": [Call("GET", "/api/health/", everyone((200, 503)), actors=("anon",), **A)],
    # --- API: lists ---
    "lists-list": [
        Call("GET", "/api/lists/", signed_in_api(200), actors=ACTORS, **A,
             setup=World.all_lists, check=lists_index(lambda actor: LIST_STATES[:3] if actor == "owner" else ())),
        Call("GET", "/api/lists/?scope=public", everyone(200), actors=ACTORS, **A,
             setup=World.all_lists, check=lists_index(lambda actor: ("public",))),
        Call("GET", "/api/lists/?deleted=1", signed_in_api(200), actors=ACTORS, **A,
             setup=World.all_lists, check=lists_index(lambda actor: ("deleted",) if actor == "owner" else ())),
        Call("POST", "/api/lists/", signed_in_api(201), actors=SIGNED, **A,
             data=lambda w, a: {"document": hagmi_doc(), "visibility": "private"}),
    ],
    "lists-import-list": [Call("POST", "/api/lists/import/", signed_in_api(201), actors=SIGNED, **A,
                               data=lambda w, a: {"json": hagmi_doc()})],
    "lists-detail": [
        Call("GET", "/api/lists/{slug}/", read, **A),
        Call("PUT", "/api/lists/{slug}/", api_owner_write(200, 400), data=put_body, fresh=True, **A),
        Call("PATCH", "/api/lists/{slug}/", api_owner_write(200, 400), data=patch_body, fresh=True, **A),
        Call("DELETE", "/api/lists/{slug}/", api_owner_write(204, 204), fresh=True, **A),
        Call("OPTIONS", "/api/lists/{slug}/", options_metadata, **A),
    ],
    "lists-validation": [Call("GET", "/api/lists/{slug}/validation/", read_quiet, **A)],
    "lists-export": [Call("GET", "/api/lists/{slug}/export/?as=json", read, **A),
                     Call("GET", "/api/lists/{slug}/export/?as=text", read, **A)],
    "lists-revisions": [Call("GET", "/api/lists/{slug}/revisions/", read, **A)],
    "lists-revision": [Call("GET", "/api/lists/{slug}/revisions/1/", read, **A)],
    "lists-diff": [Call("GET", "/api/lists/{slug}/diff/?from=1&to=1", read_quiet, **A)],
    "lists-fork": [Call("POST", "/api/lists/{slug}/fork/", api_fork, **A)],
    "lists-restore": [Call("POST", "/api/lists/{slug}/restore/", api_restore, fresh=True, **A)],
    # --- API: simulations (owner-only) ---
    "simulations-list": [
        Call("GET", "/api/simulations/", signed_in_api(200), setup=World.all_runs, check=runs_index, **A),
        Call("POST", "/api/simulations/", signed_in_api(202), actors=SIGNED, **A,
             data=lambda w, a: {"document": hagmi_doc(), "opponent": "goldfish", "games": 2, "seed": 9}),
        Call("POST", "/api/simulations/", api_simulate_list, data=simulate_api, on="list", **A),
    ],
    "simulations-detail": [Call("GET", "/api/simulations/{run}/", api_run_read, **A)],
    "simulations-cancel": [Call("POST", "/api/simulations/{run}/cancel/", api_run_cancel, fresh=True, **A)],
    "simulations-apply": [Call("POST", "/api/simulations/{run}/apply/", api_run_apply, **A,
                               data=lambda w, run: {"change": "baseline"})],
    # --- API: gauntlets and the list doctor (runs watched at /api/simulations/{id}/) ---
    "api-gauntlets": [
        Call("POST", "/api/gauntlets/", signed_in_api(202), actors=SIGNED, data=gauntlet_api, **A),
        Call("POST", "/api/gauntlets/", api_simulate_list, data=gauntlet_of_list, on="list", **A),
        Call("POST", "/api/gauntlets/", api_opponent_list, data=gauntlet_against_list, on="list", **A),
        Call("POST", "/api/gauntlets/", api_opponent_field, data=gauntlet_against_field, on="field", **A),
    ],
    "fields-list": [
        Call("GET", "/api/fields/", signed_in_api(200), actors=ACTORS, **A, setup=World.all_fields,
             check=fields_index(lambda actor: FIELD_STATES if actor == "owner" else ())),
        Call("GET", "/api/fields/?scope=public", everyone(200), actors=ACTORS, **A, setup=World.all_fields,
             check=fields_index(lambda actor: ("public",))),
        Call("POST", "/api/fields/", signed_in_api(201), actors=SIGNED, **A,
             data=lambda w, a: {"system": "hagmi", "name": "Meta", "entries": [{"opponent": "goldfish"}]}),
    ],
    "fields-detail": [
        Call("GET", "/api/fields/{field}/", read, check=hides_secrets, **A),
        Call("PATCH", "/api/fields/{field}/", api_owner_write(200, 200), data=lambda w, f: {"description": "x"},
             fresh=True, **A),
        Call("DELETE", "/api/fields/{field}/", api_owner_write(204, 204), fresh=True, **A),
        Call("OPTIONS", "/api/fields/{field}/", options_metadata, **A),
    ],
    "api-doctor": [
        Call("POST", "/api/doctor/", signed_in_api(202), actors=SIGNED, data=doctor_api, **A),
        Call("POST", "/api/doctor/", api_simulate_list, data=doctor_of_list, on="list", **A),
    ],
    "api-impact": [
        Call("POST", "/api/impact/", signed_in_api(202), actors=SIGNED, data=impact_api, **A),
        Call("POST", "/api/impact/", api_simulate_list, data=impact_of_list, on="list", **A),
    ],
    # --- API: matchup matrices and what beats my list (owner-only; cells watched at /api/simulations/{id}/) ---
    "matrices-list": [
        Call("GET", "/api/matrices/", signed_in_api(200), actors=SIGNED, **A),
        Call("POST", "/api/matrices/", signed_in_api(202), actors=SIGNED, data=matrix_api, **A),
    ],
    "matrices-detail": [Call("GET", "/api/matrices/{matrix}/", api_matrix_read, **A)],
    "matrices-cancel": [Call("POST", "/api/matrices/{matrix}/cancel/", api_matrix_read, fresh=True, **A)],
    "api-beats": [Call("POST", "/api/beats/", api_beats, on="list", **A,
                       data=lambda w, gl: {"list": gl.slug, "games": 2, "seed": 5})],
    # --- API: tournament events (builder/api/events.py; EVENT_ACTORS, the owner organises; EVENT_STATES) ---
    "events-list": [
        Call("GET", "/api/events/", everyone(200), actors=EVENT_ACTORS, setup=World.all_events,
             check=events_index(lambda actor: ("open", "locked", "published")), **A),
        Call("GET", "/api/events/?mine=1", signed_in_api(200), actors=EVENT_ACTORS, setup=World.all_events,
             check=events_index(lambda actor: EVENT_STATES if actor in ("owner", "entrant") else ()), **A),
        Call("POST", "/api/events/", signed_in_api(201), actors=SIGNED, data=new_event_body, **A),
    ],
    "events-detail": [
        Call("GET", "/api/events/{event}/", api_event_read, check=hides_event_lists, **AEV),
        Call("GET", "/api/events/{event}/", everyone(200), data=lambda w, ev: {"code": ev.join_code.lower()},
             check=hides_event_lists, **AEV),
        Call("PATCH", "/api/events/{event}/", api_event_organiser(lambda state: 200), fresh=True,
             data=lambda w, ev: {"place": "Nakano"}, check=hides_event_lists, **AEV),
        Call("DELETE", "/api/events/{event}/", api_event_organiser(lambda state: 204), fresh=True,
             check=hides_event_lists, **AEV),
    ],
    "events-join": [
        Call("POST", "/api/events/{event}/join/", api_event_join(False), data=lambda w, ev: {}, fresh=True,
             check=hides_event_lists, **AEV),
        Call("POST", "/api/events/{event}/join/", api_event_join(True), data=lambda w, ev: {"code": ev.join_code},
             fresh=True, check=hides_event_lists, **AEV),
    ],
    "events-withdraw": [Call("POST", "/api/events/{event}/withdraw/", api_event_withdraw, fresh=True,
                             check=hides_event_lists, **AEV)],
    "events-submissions": [
        Call("GET", "/api/events/{event}/submissions/", api_event_submissions, check=hides_event_lists, **AEV),
        Call("GET", "/api/events/{event}/submissions/?history=1", api_event_history, check=hides_event_lists, **AEV),
        Call("POST", "/api/events/{event}/submissions/", api_event_submit, data=lambda w, ev: {"text": EVENT_TEXT},
             fresh=True, check=hides_event_lists, **AEV),
    ],
    "events-submission": [Call("GET", "/api/events/{event}/submissions/{hidden}/", api_event_lists,
                               check=hides_event_lists, **AEV)],
    "events-field": [Call("GET", "/api/events/{event}/field/", api_event_lists, check=hides_event_lists, **AEV)],
    "events-players": [Call("GET", "/api/events/{event}/players/", api_event_organiser(lambda state: 200),
                            check=hides_event_lists, **AEV)],
    "events-player": [Call("DELETE", "/api/events/{event}/players/{player}/",
                           api_event_organiser(lambda state: 204 if event_taking_lists(state) else 409), fresh=True,
                           check=hides_event_lists, **AEV)],
    "events-lock": [Call("POST", "/api/events/{event}/lock/", api_event_organiser(lambda state: 200), fresh=True,
                         check=hides_event_lists, **AEV)],
    "events-publish": [Call("POST", "/api/events/{event}/publish/",
                            api_event_organiser(lambda state: 409 if event_taking_lists(state) else 200), fresh=True,
                            check=hides_event_lists, **AEV)],
    "events-repin": [Call("POST", "/api/events/{event}/repin/",
                          api_event_organiser(lambda state: 200 if event_taking_lists(state) else 409), fresh=True,
                          check=hides_event_lists, **AEV)],
    # --- pages without an object ---
    "home": [Call("GET", "/", everyone(200), actors=SIGNED)],
    "favicon": [Call("GET", "/favicon.ico", everyone(200), actors=SIGNED),
                Call("POST", "/favicon.ico", everyone(405), actors=SIGNED)],
    "set_language": [Call("POST", "/i18n/setlang/", everyone(302), actors=SIGNED,
                          data=lambda w, a: {"language": "ja", "next": "/"})],
    "signup": [Call("GET", "/accounts/signup/", everyone(200), actors=SIGNED),
               Call("POST", "/accounts/signup/", everyone(302), data=new_account, actors=SIGNED)],
    "login": [Call("GET", "/accounts/login/", everyone(200), actors=SIGNED),
              Call("POST", "/accounts/login/", everyone(302), data=credentials, actors=SIGNED)],
    "logout": [Call("POST", "/accounts/logout/", everyone(302), actors=SIGNED),
               Call("GET", "/accounts/logout/", everyone(405), actors=SIGNED)],
    "catalog": [Call("GET", "/catalog/hagmi/", everyone(200), actors=SIGNED)],
    "card_detail": [Call("GET", "/catalog/hagmi/HT-001/", everyone(200), actors=SIGNED)],
    # the odds of a card's weapons (W11): public like the card page; a HAGMI card has no weapon odds (404)
    "card_odds": [Call("GET", "/catalog/hagmi/HT-001/odds/", everyone(404), actors=SIGNED),
                  Call("POST", "/catalog/hagmi/HT-001/odds/", everyone(405), actors=SIGNED)],
    "package_detail": [Call("GET", "/catalog/hagmi/packages/builder-test/", everyone(200), actors=SIGNED),
                       Call("POST", "/catalog/hagmi/packages/builder-test/", everyone(405), actors=SIGNED)],
    "package_battlescribe": [Call("GET", "/catalog/hagmi/packages/builder-test/battlescribe.zip", everyone(200),
                                  actors=SIGNED),
                             Call("POST", "/catalog/hagmi/packages/builder-test/battlescribe.zip", everyone(405),
                                  actors=SIGNED)],
    "rules": [Call("GET", "/rules/hagmi/", everyone(200), actors=SIGNED)],
    "verify": [Call("GET", "/verify/", everyone(200), actors=SIGNED),
               Call("GET", "/verify/", verify_page, data=verify_query, on="list"),
               Call("GET", "/verify/", event_verify, data=event_verify_query, on="event", **E)],
    "analysis": [Call("GET", "/analysis/", everyone(200), actors=SIGNED),
                 Call("POST", "/analysis/", everyone(400), actors=SIGNED, data=lambda w, a: {"position": "{"}),
                 Call("GET", "/analysis/", run_shared_quiet, on="run",
                      data=lambda w, run: {"run": run.public_id, "game": 0, "step": 0})],
    "my_lists": [
        Call("GET", "/lists/", signed_in_page(200), actors=ACTORS,
             setup=World.all_lists, check=lists_index(lambda actor: LIST_STATES[:3] if actor == "owner" else ())),
        Call("GET", "/lists/?deleted=1", signed_in_page(200), actors=ACTORS,
             setup=World.all_lists, check=lists_index(lambda actor: ("deleted",) if actor == "owner" else ())),
    ],
    "gallery": [Call("GET", "/lists/gallery/", everyone(200), actors=ACTORS,
                     setup=World.all_lists, check=lists_index(lambda actor: ("public",)))],
    "list_new": [Call("GET", "/lists/new/?system=hagmi", signed_in_page(200), actors=SIGNED),
                 Call("POST", "/lists/new/", signed_in_page(302), actors=SIGNED,
                      data=lambda w, a: {"system": "hagmi", "name": "New", "format": "tactics-v4",
                                         "visibility": "private"})],
    "sample_fork": [Call("POST", "/lists/samples/hagmi/sample-vanguard/copy/", signed_in_page(302), actors=SIGNED),
                    Call("POST", "/lists/samples/hagmi/no-such-sample/copy/", signed_in_page(404), actors=SIGNED),
                    Call("GET", "/lists/samples/hagmi/sample-vanguard/copy/", post_only_page, actors=SIGNED)],
    "list_import": [Call("GET", "/lists/import/", signed_in_page(200), actors=SIGNED),
                    Call("POST", "/lists/import/", signed_in_page(302), actors=SIGNED,
                         data=lambda w, a: {"text": "System: hagmi\n[兵器]\n2 HT-001\n", "visibility": "private"})],
    # --- staff pages: the data import (a bad form is a 400; a confirm of no pending preview is a 409) ---
    "data_import": [Call("GET", "/data/import/", staff_page(200)),
                    Call("POST", "/data/import/", staff_page(400), data=lambda w, a: {"kind": "sheet"}),
                    Call("POST", "/data/import/", staff_page(400), data=lambda w, a: {"kind": "battlescribe"})],
    "data_import_confirm": [Call("POST", "/data/import/confirm/", staff_page(409),
                                 data=lambda w, a: {"token": "not-pending", "sha256": "0" * 64}),
                            Call("GET", "/data/import/confirm/", staff_page(405))],
    # data sources (a bad form is a 400; no source 999999: a 404, so no check is ever queued from here)
    "data_source_register": [Call("POST", "/data/sources/", staff_page(400), data=lambda w, a: {"source-name": ""}),
                             Call("GET", "/data/sources/", staff_page(405))],
    "data_source": [Call("GET", "/data/sources/999999/", staff_page(404))],
    "data_source_check": [Call("POST", "/data/sources/999999/check/", staff_page(404)),
                          Call("GET", "/data/sources/999999/check/", staff_page(405))],
    "data_source_import": [Call("POST", "/data/sources/999999/import/", staff_page(404),
                                data=lambda w, a: {"sha256": "0" * 64}),
                           Call("GET", "/data/sources/999999/import/", staff_page(405))],
    # --- the card editor: draft edit, publish, propose, accept; a bad or unchanged card is a 422 ---
    "data_home": [Call("GET", "/data/", editor_page(200), actors=EDITING)],
    "draft_detail": [Call("GET", "/data/hagmi/builder-test/", editor_page(200), actors=EDITING)],
    "draft_card_new": [Call("GET", "/data/hagmi/builder-test/cards/new/?category=unit", editor_page(200),
                            actors=EDITING),
                       Call("POST", "/data/hagmi/builder-test/cards/new/", editor_page(422), actors=EDITING,
                            data=lambda w, a: {"category": "unit", "code": "HT-900", "action": "save"})],
    "draft_card": [Call("GET", "/data/hagmi/builder-test/cards/HT-001/", editor_page(200), actors=EDITING),
                   Call("POST", "/data/hagmi/builder-test/cards/HT-001/", editor_page(200), actors=EDITING,
                        data=lambda w, a: {"category": "unit", "action": "check"})],
    "draft_card_remove": [Call("POST", "/data/hagmi/builder-test/cards/HT-001/remove/", editor_page(302),
                               actors=EDITING),
                          Call("GET", "/data/hagmi/builder-test/cards/HT-001/remove/", editor_page(405),
                               actors=EDITING)],
    "draft_publish": [Call("POST", "/data/hagmi/builder-test/publish/", editor_page(302), actors=EDITING,
                           data=lambda w, a: {"version": "next"}),
                      Call("GET", "/data/hagmi/builder-test/publish/", editor_page(405), actors=EDITING)],
    "draft_discard": [Call("POST", "/data/hagmi/builder-test/discard/", editor_page(302), actors=EDITING),
                      Call("GET", "/data/hagmi/builder-test/discard/", editor_page(405), actors=EDITING)],
    "card_propose": [Call("GET", "/catalog/hagmi/HT-001/propose/", signed_in_any(200), actors=EDITING),
                     Call("POST", "/catalog/hagmi/HT-001/propose/", signed_in_any(422), actors=EDITING,
                          data=lambda w, a: {"category": "unit", "code": "HT-001", "action": "save"})],
    "proposal_list": [Call("GET", "/data/proposals/", editor_page(200), actors=EDITING)],
    "proposal_detail": [Call("GET", "/data/proposals/999999/", editor_page(404), actors=EDITING),
                        Call("POST", "/data/proposals/999999/", editor_page(404), actors=EDITING,
                             data=lambda w, a: {"decision": "accept"})],
    "matrix_new": [Call("GET", "/matrices/", signed_in_page(200), actors=SIGNED, setup=World.all_lists),
                   Call("POST", "/matrices/", signed_in_page(302), actors=SIGNED, data=matrix_form)],
    "matrix_mine": [Call("GET", "/matrices/mine/", signed_in_page(200), actors=ACTORS, setup=World.all_matrices,
                         check=matrices_index)],
    "simulation_list": [Call("GET", "/simulations/", signed_in_page(200), actors=ACTORS, setup=World.all_runs, check=runs_index)],
    # --- pages of a list ---
    "list_detail": [Call("GET", "/lists/{slug}/", read)],
    "list_edit": [Call("GET", "/lists/{slug}/edit/", page_owner(200, 400)),
                  Call("POST", "/lists/{slug}/edit/", page_owner(302, 400), data=editor_save, fresh=True)],
    "list_picker": [Call("GET", "/lists/{slug}/edit/cards/?q=HT", page_owner(200, 400))],
    "list_fork": [Call("POST", "/lists/{slug}/fork/", page_fork),
                  Call("GET", "/lists/{slug}/fork/", post_only_page)],
    "list_delete": [Call("POST", "/lists/{slug}/delete/", page_owner(302, 302), fresh=True),
                    Call("GET", "/lists/{slug}/delete/", post_only_page)],
    "list_restore": [Call("POST", "/lists/{slug}/restore/", page_restore, fresh=True),
                     Call("GET", "/lists/{slug}/restore/", post_only_page)],
    "list_unlist": [Call("POST", "/lists/{slug}/unlist/", page_owner(302, 400), fresh=True),
                    Call("GET", "/lists/{slug}/unlist/", post_only_page)],
    "list_history": [Call("GET", "/lists/{slug}/history/", read)],
    "list_sheet": [Call("GET", "/lists/{slug}/sheet/", read),
                   Call("GET", "/lists/{slug}/sheet/?player=P&event=E", read),
                   Call("POST", "/lists/{slug}/sheet/", sheet_remember,
                        data=lambda w, gl: {"player": "P", "event": "E", "remember": "1"})],
    "simulation_new": [Call("GET", "/lists/{slug}/simulate/", page_signed_in_read(200)),
                       Call("POST", "/lists/{slug}/simulate/", page_signed_in_read(302), data=simulate_form)],
    "gauntlet_new": [Call("GET", "/lists/{slug}/gauntlet/", page_signed_in_read(200)),
                     Call("POST", "/lists/{slug}/gauntlet/", page_signed_in_read(302), data=gauntlet_form)],
    "doctor_new": [Call("GET", "/lists/{slug}/doctor/", page_signed_in_read(200)),
                   Call("POST", "/lists/{slug}/doctor/", page_signed_in_read(302), data=doctor_form)],
    # --- fields ---
    "field_list": [Call("GET", "/fields/", everyone(200), actors=ACTORS, setup=World.all_fields,
                        check=fields_index(lambda actor: FIELD_STATES if actor == "owner" else ("public",)))],
    "field_new": [Call("GET", "/fields/new/", signed_in_page(200), actors=SIGNED),
                  Call("GET", "/fields/new/?system=hagmi", signed_in_page(200), actors=SIGNED),
                  Call("POST", "/fields/new/", signed_in_page(302), actors=SIGNED,
                       data=lambda w, a: {"system": "hagmi", "name": "Meta", "visibility": "private",
                                          "opponent-goldfish": 1})],
    "field_detail": [Call("GET", "/fields/{field}/", read, check=hides_secrets)],
    "field_edit": [Call("GET", "/fields/{field}/edit/", page_owner(200, 200)),
                   Call("POST", "/fields/{field}/edit/", page_owner(302, 302), data=field_body, fresh=True)],
    "field_delete": [Call("POST", "/fields/{field}/delete/", page_owner(302, 302), fresh=True),
                     Call("GET", "/fields/{field}/delete/", post_only_page)],
    "impact_new": [Call("GET", "/lists/{slug}/impact/", page_signed_in_read(200)),
                   Call("POST", "/lists/{slug}/impact/", page_signed_in_read(302), data=impact_form)],
    "beats_new": [Call("GET", "/lists/{slug}/beats/", beats_page(200)),
                  Call("POST", "/lists/{slug}/beats/", beats_page(302),
                       data=lambda w, gl: {"policy": "greedy", "games": 2, "seed": 3})],
    # --- tournament events, the organiser's side (builder/web/eventadmin.py) ---
    "event_manage": [Call("GET", "/events/{event}/manage/", event_organiser(200, True), **E)],
    "event_lock": [Call("POST", "/events/{event}/lock/", event_organiser(302), fresh=True, **E),
                   Call("GET", "/events/{event}/lock/", post_only_page, **E)],
    "event_publish": [Call("POST", "/events/{event}/publish/", event_organiser(302), fresh=True, **E),
                      Call("GET", "/events/{event}/publish/", post_only_page, **E)],
    "event_repin": [Call("POST", "/events/{event}/repin/", event_organiser(302), fresh=True, **E)],
    "event_remove_player": [Call("POST", "/events/{event}/players/{entrant}/remove/", event_organiser(302),
                                 fresh=True, **E)],
    "event_sheet": [Call("GET", "/events/{event}/submissions/{submission}/sheet/", event_sheet, **E)],
    "event_pack": [Call("GET", "/events/{event}/pack/", event_organiser(200, True), **E)],
    "event_export": [Call("GET", "/events/{event}/export/csv/", event_organiser(200, True), **E),
                     Call("GET", "/events/{event}/export/json/", event_organiser(200, True), **E),
                     Call("GET", "/events/{event}/export/pdf-pack/", event_organiser(200), **E),
                     Call("GET", "/events/{event}/export/xlsx/", event_organiser(404), **E)],
    # --- pages of a matchup matrix ---
    "matrix_detail": [Call("GET", "/matrices/{matrix}/", matrix_page)],
    "matrix_progress": [Call("GET", "/matrices/{matrix}/progress/", matrix_page)],
    "matrix_cancel": [Call("POST", "/matrices/{matrix}/cancel/", matrix_cancel_page, fresh=True),
                      Call("GET", "/matrices/{matrix}/cancel/", post_only_page)],
    # --- pages of a run ---
    "doctor_apply": [Call("POST", "/simulations/{run}/apply/", run_owner_apply, data=lambda w, run: {"change": "x"}),
                     Call("GET", "/simulations/{run}/apply/", post_only_page)],
    "simulation_detail": [Call("GET", "/simulations/{run}/", run_shared_page)],
    "simulation_progress": [Call("GET", "/simulations/{run}/progress/", run_owner_page)],
    "replay": [Call("GET", "/simulations/{run}/games/0/", run_shared_page)],
    "replay_position": [Call("GET", "/simulations/{run}/games/0/position/?step=0", run_shared_quiet),
                        Call("POST", "/simulations/{run}/games/0/position/", everyone(405))],
    "replay_from_here": [Call("POST", "/simulations/{run}/games/0/from-here/", run_shared_quiet,
                              data=lambda w, run: {"step": 0, "games": 2}),
                         Call("GET", "/simulations/{run}/games/0/from-here/", everyone(405))],
    "simulation_compare": [Call("GET", "/simulations/compare/?{run}", run_shared_page)],  # ?a=<run>&b=<run>
    # --- tournament events, the players' side (builder/web/events.py) ---
    "event_list": [Call("GET", "/events/", everyone(200), actors=EVENT_ACTORS, setup=World.all_events,
                        check=events_index(lambda actor: ("open", "locked", "published")))],
    "event_mine": [Call("GET", "/events/mine/", signed_in_page(200), actors=EVENT_ACTORS, setup=World.all_events,
                        check=events_index(lambda actor: EVENT_STATES if actor in ("owner", "entrant") else ()))],
    "event_new": [Call("GET", "/events/new/", signed_in_page(200), actors=SIGNED),
                  Call("POST", "/events/new/", signed_in_page(302), actors=SIGNED, data=new_event_form)],
    "event_detail": [Call("GET", "/events/{event}/", event_page, check=hides_entries, **EV)],
    "event_edit": [Call("GET", "/events/{event}/edit/", event_organiser_page(200), **EV),
                   Call("POST", "/events/{event}/edit/", event_organiser_page(302), data=event_form, fresh=True,
                        **EV)],
    "event_delete": [Call("GET", "/events/{event}/delete/", event_organiser_page(200), **EV),
                     Call("POST", "/events/{event}/delete/", event_organiser_page(302), fresh=True, **EV)],
    "event_join": [Call("POST", "/events/{event}/join/", event_join, fresh=True, **EV,
                        data=lambda w, event: {"display_name": ""}),
                   Call("GET", "/events/{event}/join/", post_only_page, **EV)],
    "event_withdraw": [Call("POST", "/events/{event}/withdraw/", event_withdraw, fresh=True, **EV),
                       Call("GET", "/events/{event}/withdraw/", post_only_page, **EV)],
    "event_submit": [Call("POST", "/events/{event}/submit/", event_submit, fresh=True, **EV,
                          data=lambda w, event: {"way": "text", "text": "System: hagmi\n[兵器]\n2 HT-001\n"}),
                     Call("GET", "/events/{event}/submit/", post_only_page, **EV)],
    "event_lists": [Call("GET", "/events/{event}/lists/", event_lists_page, **EV)],
    "event_submission": [Call("GET", "/events/{event}/submissions/{submission}/", event_submission_page, **EV)],
}


# --- walking the URL resolver -----------------------------------------------------------------------------


def url_patterns(resolver: URLResolver | None = None, prefix: str = ""):
    """(route, pattern) for every URL pattern, the admin aside (Django's own, staff-only site)."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            yield from url_patterns(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern


def api_methods(pattern: URLPattern) -> set[str] | None:
    """The HTTP methods a DRF endpoint answers (not OPTIONS/HEAD), or None for a Django page."""
    callback = pattern.callback
    actions = getattr(callback, "actions", None)
    if actions:  # DRF adds "head" to it at the first GET
        return {method.upper() for method in actions if method not in ("options", "head")}
    view_class = getattr(callback, "cls", None)
    if view_class is None:
        return None
    return {method.upper() for method in view_class.http_method_names
            if method not in ("options", "head", "trace") and hasattr(view_class, method)}


def test_every_url_pattern_has_a_matrix_entry():
    """A new endpoint cannot be added without a decision here (docs/security.md, "Adding an endpoint")."""
    found: dict[str, URLPattern] = {}
    for route, pattern in url_patterns():
        assert pattern.name, f"URL pattern {route!r} has no name: name it and add it to MATRIX"
        found[pattern.name] = pattern
    assert set(found) - set(MATRIX) == set(), "URL patterns with no entry in the permission matrix"
    assert set(MATRIX) - set(found) == set(), "matrix entries for URL patterns that no longer exist"
    for name, pattern in found.items():
        methods = api_methods(pattern)
        if methods is not None:
            covered = {call.method for call in MATRIX[name]}
            assert methods <= covered, f"{name}: methods {sorted(methods - covered)} are not in the matrix"


def test_the_matrix_covers_every_actor_and_state_of_the_objects():
    for name, calls in MATRIX.items():
        for call in calls:
            if call.kind != "none":
                actors = EVENT_ACTORS if call.kind == "event" else ACTORS
                assert call.actors == actors, f"{name} {call.method}: objects are checked for every actor"


def matrix_size() -> int:
    return sum(len(call.actors) * len(call.states) for calls in MATRIX.values() for call in calls)


# --- running the cells --------------------------------------------------------------------------------------


def _succeeds(expected: Expect) -> bool:
    statuses = expected.status if isinstance(expected.status, tuple) else (expected.status,)
    return any(isinstance(status, int) and status < 400 for status in statuses)


def _object(world: World, call: Call, state: str, expected: Expect):
    """The list or run of the cell: a new one where a write will change it, else the test's shared one (a
    refused write changes nothing; if it wrongly succeeded, that cell fails anyway)."""
    fresh = call.fresh and _succeeds(expected)
    if call.kind == "list":
        return world.new_list(state) if fresh else world.list(state)
    if call.kind == "run":
        return world.new_run(state) if fresh else world.run(state)
    if call.kind == "field":
        return world.new_field(state) if fresh else world.field(state)
    if call.kind == "matrix":
        return world.new_matrix(state) if fresh else world.matrix(state)
    if call.kind == "event":
        return world.new_event(state) if fresh else world.event(state)
    return None


def _request(world: World, call: Call, actor: str, obj):
    if call.kind == "list":
        path, name = call.path.format(slug=obj.slug), obj.name
    elif call.kind == "run":
        path = call.path.replace("?{run}", f"?a={obj.public_id}&b={obj.public_id}").format(run=obj.public_id)
        name = obj.game_list.name
    elif call.kind == "field":
        path, name = call.path.format(field=obj.slug), obj.name
    elif call.kind == "matrix":
        path, name = call.path.format(matrix=obj.public_id), obj.rows[0]["name"]
    elif call.kind == "event":  # an event's own pages name the event; the rest (and the API) the entrant's list
        hidden = world.event_hidden(obj) if "{hidden}" in call.path or "{player}" in call.path else None
        path = call.path.format(event=obj.slug, submission=obj.submission.public_id, entrant=obj.entrant_row.pk,
                                **({"hidden": hidden[1].public_id, "player": hidden[0].pk} if hidden else {}))
        name = obj.name if not call.api and call.path.endswith(EVENT_OWN_PAGES) else obj.entry_name
    else:
        path, name = call.path, None
    data = call.data(world, obj if call.kind != "none" else actor) if call.data else None
    method = call.method.lower()
    if call.api:
        client = world.api_client(actor)
        if method == "get":
            return client.get(path, data), name
        return getattr(client, method)(path, data, format="json"), name
    client = world.page_client(actor)
    return getattr(client, method)(path, data) if data is not None else getattr(client, method)(path), name


def _mismatch(call: Call, expected: Expect, response, name: str | None) -> str | None:
    status = response.status_code
    if expected.status == LOGIN:
        location = response.get("Location", "")
        if status != 302 or not location.startswith("/accounts/login/"):
            return f"expected a redirect to sign in, got {status} {location}"
    else:
        allowed = expected.status if isinstance(expected.status, tuple) else (expected.status,)
        if status not in allowed:
            return f"expected {expected.status}, got {status}: {response.content[:200]!r}"
    if name is not None and expected.shows is not None:
        body = response.content.decode("utf-8", "replace")
        if expected.shows and name not in body:
            return f"the answer does not show the list {name!r}"
        if not expected.shows and name in body:
            return f"the answer leaks the list name {name!r}"
    return None


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_permission_matrix(crawl, name):
    """Every cell of one endpoint: actor x state x method -> the expected status (and no leaked name). The cells
    are requested by the one crawl of the matrix (tests/security/crawl.py), the endpoint's in a fresh World of
    their own, exactly as `_object`, `_request`, `_mismatch` and the call's check below say; this reads its
    findings."""
    cells = crawl.of(name)
    assert len(cells) == sum(len(call.actors) * len(call.states) for call in MATRIX[name]), name
    failures = [f"{cell.call.method} {cell.call.path} as {cell.actor}, {cell.state}: {cell.problem}"
                for cell in cells if cell.problem]
    assert not failures, "\n".join(failures)


def test_the_matrix_is_big_enough_to_mean_something():
    """Guards against a refactoring that silently drops most cells (the report quotes this number)."""
    assert matrix_size() >= 600, matrix_size()


def test_a_fork_does_not_name_an_origin_its_reader_cannot_see(world):
    """The share page's "forked from" link and the API's `forked_from` follow the origin's visibility: once its
    owner makes it private (or trashes it), only they still see where the fork came from."""
    owner, other = world.users["owner"], world.users["other"]
    origin = world.new_list("public")
    fork = services.list_fork(game_list=origin, user=other)
    fork = services.list_update(game_list=fork, user=other, visibility="public", expected_version=fork.version)

    def shown(actor: str) -> tuple[bool, str | None]:
        page = world.page_client(actor).get(f"/lists/{fork.slug}/").content.decode()
        return f'href="/lists/{origin.slug}/"' in page, world.api_client(actor).get(f"/api/lists/{fork.slug}/").json()["forked_from"]

    assert shown("anon") == (True, origin.slug)
    services.list_update(game_list=origin, user=owner, visibility="private", expected_version=origin.version)
    for actor in ("anon", "other", "staff"):
        assert shown(actor) == (False, None), actor
    assert shown("owner") == (True, origin.slug)
