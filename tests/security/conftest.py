"""Fixtures for the security tests (docs/security.md): a small catalog with an opponent, the actors (anonymous,
owner, another user, staff) and their clients, lists in every visibility state and simulation runs of them."""
from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from builder import services
from builder.models import GameList, OpponentField, SimulationRun
from builder.throttles import throttle_cache
from tests.builder.conftest import hagmi_doc
from tests.conftest import PASSWORD
from tests.support.simulations import hagmi_catalog, play_all, published  # noqa: F401  (fixtures)

ACTORS = ("anon", "owner", "other", "staff")
USERS = ("owner", "other", "staff")
# A list's states: its visibility, or a public list in its owner's trash (soft-deleted).
LIST_STATES = ("private", "unlisted", "public", "deleted")
# A run's states: finished (of a private or of a public list) or still queued.
RUN_STATES = ("done-private", "done-public", "queued")
# A field's states: its visibility. Each holds a sample opponent and a private list of its owner, whose name must
# never reach anyone else.
FIELD_STATES = ("private", "unlisted", "public")
MATRIX_STATES = ("done", "queued")  # a matchup matrix of the owner: every cell played, or none yet
# A tournament event of the owner (its organiser) with one player, "entrant", who submitted a list (its name must not
# reach anyone the event does not show its lists to): open registration and open for lists, a join-code event (only
# its organiser, staff and players see it), its lists locked (not shown yet), its lists published.
EVENT_STATES = ("open", "code", "locked", "published")
EVENT_ACTORS = ("anon", "owner", "entrant", "other", "staff")


# The tests that read the one crawl of the matrix (tests/security/crawl.py), one endpoint each.
CRAWL_TESTS = ("test_permission_matrix", "test_every_page_sends_the_content_security_policy",
               "test_no_page_has_an_inline_style_or_script",
               "test_every_post_form_on_every_page_carries_the_token_and_is_refused_without_it")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items) -> None:
    """An endpoint's crawl tests side by side (in the places the suite's order gave them all): pytest-xdist hands
    each process a run of neighbouring tests, so an endpoint is crawled by one process, not by each."""
    places = [index for index, item in enumerate(items) if getattr(item, "originalname", None) in CRAWL_TESTS
              and hasattr(item, "callspec") and "name" in item.callspec.params]
    ordered = sorted((items[index] for index in places),
                     key=lambda item: (item.callspec.params["name"], CRAWL_TESTS.index(item.originalname)))
    for index, item in zip(places, ordered):
        items[index] = item


@pytest.fixture(autouse=True)
def _security_settings(settings):
    settings.SECURE_SSL_REDIRECT = False  # the test client speaks plain http
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.HANGAR_MAX_CONCURRENT_RUNS = 1000  # the matrix starts many runs; the limit has its own tests
    cache.clear()  # the throttles count in the cache (and in this process's memory while it is down)
    throttle_cache.clear()
    yield
    cache.clear()
    throttle_cache.clear()


_HANDLERS: dict[tuple[type, bool], Any] = {}


def shared_handler(client):
    """Give `client` the handler of an earlier client of its kind: a new handler loads the middleware again, and
    WhiteNoise's middleware then walks every static file (~0.15 s per client). The tests never force_authenticate
    (which stores the user on the handler), so sharing it is safe."""
    key = (type(client.handler), bool(client.handler.enforce_csrf_checks))
    client.handler = _HANDLERS.setdefault(key, client.handler)
    return client


class World:
    """The actors and objects of one test. Lists and runs belong to `owner`; names carry a unique marker so a
    response can be searched for them (a refused request must never show the name of what it refused)."""

    def __init__(self, users: dict[str, Any]) -> None:
        self.users = users
        self._counter = itertools.count(1)
        self._lists: dict[str, GameList] = {}
        self._runs: dict[str, SimulationRun] = {}
        self._fields: dict[str, OpponentField] = {}
        self.secrets: list[str] = []  # the names of the private lists inside the owner's fields
        self._matrices: dict[str, Any] = {}
        self._events: dict[str, Any] = {}
        # the names of the lists submitted to the events: name -> (the event's state, the actor who submitted it,
        # or None for the player who is no actor: their list's name is for the organiser and staff until published)
        self.event_lists: dict[str, tuple[str, str | None]] = {}
        self.event_player: Any = None

    # --- clients ------------------------------------------------------------------------------------------

    def page_client(self, actor: str, **options: Any) -> Client:
        """A browser: the session cookie of `actor` (none when anonymous)."""
        client = shared_handler(Client(**options))
        if actor != "anon":
            client.force_login(self.users[actor])
        return client

    def api_client(self, actor: str) -> APIClient:
        """A script: `Authorization: Token <key>` of `actor` (none when anonymous)."""
        client = shared_handler(APIClient())
        if actor != "anon":
            token, _ = Token.objects.get_or_create(user=self.users[actor])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    # --- objects ------------------------------------------------------------------------------------------

    def unique(self, prefix: str) -> str:
        return f"{prefix}-mk{next(self._counter)}q"

    def new_list(self, state: str, *, owner: str = "owner") -> GameList:
        """A fresh list of `owner` in `state` (for writes, which change it)."""
        visibility = "public" if state == "deleted" else state
        game_list = services.list_create(owner=self.users[owner], document=hagmi_doc(name=self.unique(f"Plan-{state}")),
                                         visibility=visibility)
        if state == "deleted":
            game_list = services.list_delete(game_list=game_list, user=self.users[owner])
        return game_list

    def list(self, state: str) -> GameList:
        """The owner's list in `state`, shared by the reads of one test."""
        if state not in self._lists:
            self._lists[state] = self.new_list(state)
        return self._lists[state]

    def all_lists(self) -> list[GameList]:
        return [self.list(state) for state in LIST_STATES]

    def new_run(self, state: str) -> SimulationRun:
        """A fresh run of the owner: `done-private`/`done-public` (played to the end) or `queued` (of a private list)."""
        visibility = "public" if state == "done-public" else "private"
        game_list = self.new_list(visibility)
        run = services.simulation_start(user=self.users["owner"], game_list=game_list, opponent_slug="goldfish",
                                        policy="greedy", games=2, seed=next(self._counter))
        if state.startswith("done"):
            play_all(run)
        return SimulationRun.objects.select_related("game_list").get(pk=run.pk)

    def run(self, state: str) -> SimulationRun:
        if state not in self._runs:
            self._runs[state] = self.new_run(state)
        return self._runs[state]

    def all_runs(self) -> list[SimulationRun]:
        return [self.run(state) for state in RUN_STATES]

    def new_field(self, state: str) -> OpponentField:
        """A fresh field of the owner in `state`: the goldfish and a private list of the owner (its name in
        `secrets`: only the owner may ever read it)."""
        secret = services.list_create(owner=self.users["owner"], document=hagmi_doc(name=self.unique("Secret")),
                                      visibility="private")
        self.secrets.append(secret.name)
        return services.field_create(owner=self.users["owner"], system="hagmi", name=self.unique(f"Meta-{state}"),
                                     visibility=state, entries=[{"opponent": "goldfish", "weight": 2},
                                                                {"list": secret.slug}])

    def field(self, state: str) -> OpponentField:
        if state not in self._fields:
            self._fields[state] = self.new_field(state)
        return self._fields[state]

    def all_fields(self) -> list[OpponentField]:
        return [self.field(state) for state in FIELD_STATES]

    def new_matrix(self, state: str):
        """A fresh matchup matrix of the owner (one private list against the goldfish): `done` or `queued`."""
        from builder.services.matrices import matrix_start

        game_list = self.new_list("private")
        matrix = matrix_start(user=self.users["owner"], lists=[game_list.slug], opponents=[{"opponent": "goldfish"}],
                              games=2, seed=next(self._counter))
        if state == "done":
            for cell in matrix.cells.select_related("run"):
                play_all(cell.run)
        return matrix

    def matrix(self, state: str):
        if state not in self._matrices:
            self._matrices[state] = self.new_matrix(state)
        return self._matrices[state]

    def all_matrices(self) -> list:
        return [self.matrix(state) for state in MATRIX_STATES]

    def new_event(self, state: str):
        """A fresh event of the owner in `state` (EVENT_STATES), "entrant" in it with a submitted list (the event's
        `.submission`, its row `.entrant_row`), and a player who is no actor with a list of theirs (`event_hidden`;
        both names in `event_lists`)."""
        from datetime import timedelta

        from django.contrib.auth import get_user_model
        from django.utils import timezone

        from builder.services import events as event_services

        event = event_services.event_create(organiser=self.users["owner"], data={
            "system": "hagmi", "name": self.unique(f"Cup-{state}"), "date": "2026-12-20", "place": "Hall",
            "deadline": (timezone.now() + timedelta(days=3)).isoformat(timespec="minutes"),
            "registration": "code" if state == "code" else "open", "lists_shown": "publish"})
        entrant = self.users["entrant"]
        event_services.event_join(event=event, user=entrant, code=event.join_code, display_name="Entrant")
        game_list = services.list_create(owner=entrant, document=hagmi_doc(name=self.unique(f"Entry-{state}")),
                                         visibility="private")
        submission = event_services.event_submit(event=event, user=entrant, game_list=game_list)
        self.event_lists[game_list.name] = (state, "entrant")
        if self.event_player is None:
            self.event_player = get_user_model().objects.create_user(self.unique("player"), password=PASSWORD)
        hidden = services.list_create(owner=self.event_player, document=hagmi_doc(name=self.unique("Hidden")),
                                      visibility="private")
        self.event_lists[hidden.name] = (state, None)
        event_services.event_join(event=event, user=self.event_player, code=event.join_code)
        event_services.event_submit(event=event, user=self.event_player, game_list=hidden)
        if state in ("locked", "published"):
            event_services.event_lock(event=event, user=self.users["owner"])
        if state == "published":
            event_services.event_publish(event=event, user=self.users["owner"])
        event.refresh_from_db()
        event.submission = submission
        event.entrant_row = submission.entrant
        event.entry, event.entry_name = submission, game_list.name  # the name must not reach who may not see it
        return event

    def event(self, state: str):
        if state not in self._events:
            self._events[state] = self.new_event(state)
        return self._events[state]

    def all_events(self) -> list:
        return [self.event(state) for state in EVENT_STATES]

    def entry_names(self) -> list[str]:
        return [event.entry_name for event in self._events.values()]
    def event_hidden(self, event):
        """The player who is no actor in `event`, and their (only) submission: the list others must not see."""
        entrant = event.entrants.exclude(player=self.users["entrant"]).get()
        return entrant, entrant.submissions.get()


@pytest.fixture
def editor(make_user):
    """A data editor: the "Data editors" group, not staff. The card editor's rows of the matrix."""
    from cards.drafts import editor_group

    user = make_user("editor")
    user.groups.add(editor_group())  # the migration's group; made again after a transactional test emptied the db
    return user


@pytest.fixture
def entrant(make_user):
    """A player of the owner's events (the permission matrix's event rows)."""
    return make_user("entrant")


@pytest.fixture
def world(hagmi_catalog, published, owner, other, staff, editor, entrant) -> World:  # noqa: F811
    return World({"owner": owner, "other": other, "staff": staff, "editor": editor, "entrant": entrant})


@pytest.fixture
def crawl(world):
    """The one crawl of the permission matrix (tests/security/crawl.py): made by the first test of this process
    that asks for it, with that test's users, then kept for the session."""
    from tests.security.crawl import matrix_crawl

    return matrix_crawl(world.users)


__all__ = ["ACTORS", "EVENT_ACTORS", "EVENT_STATES", "FIELD_STATES", "LIST_STATES", "MATRIX_STATES", "PASSWORD",
           "RUN_STATES", "USERS", "World"]
