"""Fixtures for the API fuzz run: the OpenAPI schema loaded from the running app, a small world of
users, lists, revisions and simulation runs for the generated requests to hit, and the request tally."""
from __future__ import annotations

import os
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

from builder import services
from builder.api import health
from builder.services import events as event_services
from cards.services import package_import
from tests.builder.conftest import hagmi_doc, hagmi_package, mwda_doc, mwda_package
from tests.support.simulations import GOLDFISH
from tests.support.sizes import sized

# Random requests per operation and per mode (anonymous / signed in) in schemathesis's fuzzing phase: 4 on each
# push, 16 under `dev.py test --full` (HANGAR_TEST_FULL=1). The schema's examples and the coverage phase (every
# boundary value the schema defines: wrong types, huge numbers, NUL, missing fields, other methods) are not sized
# by it and always run whole: about 10 000 requests to the 68 operations on each push, 11 500 in full
# (docs/testing.md, "Sizes"). HANGAR_FUZZ_EXAMPLES=300 (or more) for a longer local session.
EXAMPLES = int(os.environ.get("HANGAR_FUZZ_EXAMPLES") or sized(4, 16))
SEED = int(os.environ.get("HANGAR_FUZZ_SEED", "8"))  # another seed, other requests (a longer local session)
MIN_REQUESTS = 1000  # the CI target of the fuzz run; test_api_fuzz.py fails if fewer requests were sent


@dataclass
class Tally:
    """Requests actually sent: per (mode, operation "METHOD /path") and per status code; `probes` counts the
    coverage phase's requests with a method the operation does not have (they must get a 405, not a 500)."""

    requests: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    probes: int = 0

    def add(self, mode: str, case, status: int) -> None:
        if case.method.upper() == case.operation.method.upper():
            self.requests[(mode, case.operation.label)] += 1
        else:
            self.probes += 1
        self.statuses[status] += 1

    @property
    def total(self) -> int:
        return sum(self.requests.values())


@pytest.fixture(scope="session")
def fuzz_tally() -> Tally:
    return Tally()


@contextmanager
def connections_kept():
    """Like Django's test client: requests to the WSGI app do not close the database connection at their start and
    end while this is on, since that connection holds the test's transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(scope="session")
def wsgi_app():
    """The real WSGI application, called in-process (no server)."""
    return get_wsgi_application()


@pytest.fixture(scope="session")
def api_schema(wsgi_app):
    """/api/schema/ as the app serves it (the fuzz tests call the same app, on the test database)."""
    with connections_kept():
        schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", wsgi_app)
    # A fixed seed: without one schemathesis draws a new seed per run, and its @seed outranks Hypothesis's
    # derandomize, so every CI run would send different requests.
    schema.config.seed = SEED
    schema.config.generation.update(
        modes=list(schemathesis.GenerationMode),  # valid requests AND requests that break the schema
        max_examples=EXAMPLES,
        deterministic=True,
        database="none",
    )
    return schema


@dataclass
class World:
    """What the generated requests can aim at besides random ids: real slugs, revision numbers, run ids."""

    token: str
    path_values: dict[str, list]
    versions: dict[str, int]


@pytest.fixture
def fuzz_world(db, settings, monkeypatch) -> World:
    settings.SECURE_SSL_REDIRECT = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Throttles are raised for this run only. One mode sends ~2 000 requests within a minute: the anon/user rates
    # (600 and 1 200 a minute) would answer most of them 429, and the sign-up, failed sign-in and simulation-start
    # budgets (30 each) would stop those endpoints' bodies from being fuzzed after the 30th request. 429 is still
    # answered (and checked against the schema) by the per-user limit of runs at once (HANGAR_MAX_CONCURRENT_RUNS);
    # the throttles' own 429s are covered by tests/security/test_throttles.py and documented by builder.api.schema.
    rates = {scope: "1000000/minute" for scope in SimpleRateThrottle.THROTTLE_RATES}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    # GET /api/health/ waits 1 s for worker replies to its ping; no worker runs here.
    monkeypatch.setattr(health, "PING_TIMEOUT", 0.05)
    cache.clear()

    package_import({**hagmi_package(), "opponents": [GOLDFISH]}, source="tests/fuzz")
    package_import(mwda_package(), source="tests/fuzz")
    users = get_user_model().objects
    pilot = users.create_user(username="pilot", password="fuzz-Pilot-pw-42")
    rival = users.create_user(username="rival", password="fuzz-Rival-pw-42")
    token = Token.objects.create(user=pilot).key

    mine = services.list_create(owner=pilot, document=hagmi_doc(), visibility="private", notes="first")
    mine = services.list_update(game_list=mine, user=pilot, notes="second", expected_version=1)
    mine = services.list_update(game_list=mine, user=pilot, document=hagmi_doc(weapons=18), expected_version=2)
    shown = services.list_create(owner=pilot, document=mwda_doc(("MT-001", 1)), visibility="public")
    binned = services.list_create(owner=pilot, document=mwda_doc(("MT-002", 1)), visibility="unlisted")
    services.list_delete(game_list=binned, user=pilot)
    theirs = [services.list_create(owner=rival, document=hagmi_doc(name=f"Rival {v}"), visibility=v)
              for v in ("public", "unlisted", "private")]
    run = services.simulation_start(user=pilot, game_list=mine, opponent_slug="goldfish", games=10, seed=1)
    lists = [mine, shown, binned, *theirs]
    # tournament events: the pilot's open one (the pilot and the rival submitted), the rival's join-code one
    deadline = (timezone.now() + timedelta(days=3)).isoformat()
    cup = event_services.event_create(organiser=pilot, data={"system": "hagmi", "name": "Fuzz Cup",
                                                              "date": "2026-12-20", "deadline": deadline})
    club = event_services.event_create(organiser=rival, data={"system": "hagmi", "name": "Fuzz Club",
                                                               "date": "2026-12-21", "deadline": deadline,
                                                               "registration": "code"})
    submissions = []
    for user, game_list in ((pilot, mine), (rival, theirs[0])):
        event_services.event_join(event=cup, user=user)
        submissions.append(event_services.event_submit(event=cup, user=user, game_list=game_list))
    entrants = list(cup.entrants.values_list("pk", flat=True))
    cache.clear()
    with connections_kept():
        yield World(
            token=token,
            path_values={
                "slug": [game_list.slug for game_list in lists] + ["hagmi", "mwda", "warcaster", cup.slug,
                                                                   club.slug],
                "number": [1, 2, 3],
                "public_id": [run.public_id] + [submission.public_id for submission in submissions],
                "entrant": entrants,
                "system": ["hagmi", "mwda", "warcaster"],
                "code": ["HT-001", "HT-021", "MT-001"],
            },
            versions={game_list.slug: game_list.version for game_list in lists},
        )
    cache.clear()


_TALLY: list[Tally] = []


@pytest.fixture(scope="session", autouse=True)
def _remember_tally(fuzz_tally):
    _TALLY.append(fuzz_tally)


def pytest_terminal_summary(terminalreporter):
    """One line after the run: how many requests the fuzzer sent, by mode and by status code."""
    if not _TALLY or not _TALLY[0].total:
        return
    tally = _TALLY[0]
    modes = Counter()
    for (mode, _label), count in tally.requests.items():
        modes[mode] += count
    statuses = ", ".join(f"{code}: {count}" for code, count in sorted(tally.statuses.items()))
    if os.environ.get("HANGAR_FUZZ_REPORT"):
        for (mode, label), count in sorted(tally.requests.items()):
            terminalreporter.write_line(f"  {mode:9} {label:45} {count}")
    terminalreporter.write_line(
        f"API fuzz: {tally.total} requests to the {len({label for _, label in tally.requests})} operations "
        f"({', '.join(f'{m} {c}' for m, c in sorted(modes.items()))}) and {tally.probes} with other methods; "
        f"status codes {statuses}"
    )
