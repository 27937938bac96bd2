"""API fuzzing: schemathesis generates requests for every operation of /api/schema/, anonymous and
signed in, and checks each answer: never a 5xx, and always a documented status code, content type and body.
docs/api.md ("Fuzzing") says how to run a longer session."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core import NotSet
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from .conftest import EXAMPLES, MIN_REQUESTS

ROOT = Path(__file__).resolve().parents[2]

schema = schemathesis.pytest.from_fixture("api_schema")
# The mark (not only the db fixture behind fuzz_world) tells pytest-django to create the test database: schemathesis
# requests fixtures from inside the test, after pytest-django has decided which databases to set up. Not `services`:
# CI's second pass runs test_api_regressions.py (NUL, integers past PostgreSQL's columns) instead of the whole fuzz,
# which would double that pass (docs/testing.md).
pytestmark = pytest.mark.django_db

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,  # the same requests on every run: CI is reproducible
    database=None,  # no example database under .hypothesis/ shaping the next run
    deadline=None,  # requests hit a real database; timing is not what is tested here
    # Each example is a full HTTP request through Django and the database (several ms), so generation is slow by
    # Hypothesis's standards; too_slow/filter_too_much would only flag that, not a bug.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def _example(system: str) -> dict:
    return json.loads((ROOT / "docs" / "positions" / f"{system}.position.json").read_text(encoding="utf-8"))


def hostile_positions() -> list[dict]:
    """Bodies of POST /api/positions/ that asked the engine for unbounded work (docs/positions.md "Bounds",
    docs/api.md "Engine work budgets"): each must be a quick 4xx, never a 5xx or a pinned worker."""
    hagmi, warcaster = _example("hagmi"), _example("warcaster")
    big_hand = copy.deepcopy(hagmi)
    big_hand["sides"][0]["hand"] = ["HS-013"] * 1_600
    crowd = copy.deepcopy(warcaster)
    crowd["sides"][1]["units"] += [{"uid": 8 + i, "code": "WC-017"} for i in range(10_000)]
    return [
        {"position": {**hagmi, "options": {"max_turns": 90_000}}, "games": 3},
        {"position": big_hand},
        {"position": warcaster, "games": 20, "policy": "search"},
        {"position": crowd},
        {"position": {**hagmi, "note": "\ud800"}},
    ]


def aim(case, world) -> None:
    """About half of the time, point a path parameter (list slug, revision number, run id, card code) or a body's
    `list` / `opponent` at something that exists, so the fuzzer gets past the 404 and into the code behind it;
    and send the current version with half of the updates so they get past the 409. The choice is seeded by the
    generated case itself, so a run is as deterministic as the generation (`@schema.given`, which would let
    Hypothesis draw it, cannot be combined with the schema's examples)."""
    body = None if isinstance(case.body, NotSet) else case.body  # NotSet's repr holds its memory address
    choice = random.Random(f"{case.method} {case.path} {sorted(case.path_parameters.items())!r} {body!r}")
    for name in list(case.path_parameters):
        known = world.path_values.get(name)
        if known and choice.random() < 0.5:
            case.path_parameters[name] = choice.choice(known)
    slug = case.path_parameters.get("slug")
    if case.method in ("PUT", "PATCH") and slug in world.versions and choice.random() < 0.5:
        case.headers = {**(case.headers or {}), "If-Match": f'"{world.versions[slug]}"'}
    if case.path == "/api/positions/" and case.method == "POST" and choice.random() < 0.3:
        case.body = choice.choice(hostile_positions())  # unbounded work and unstorable text: a quick 4xx
        return
    if isinstance(case.body, dict):  # simulations and odds: a real list, a real opponent
        for name, known in (("list", list(world.versions)), ("opponent", ["goldfish"])):
            if name in case.body and choice.random() < 0.5:
                case.body[name] = choice.choice(known)


def send(case, world, tally, mode: str, headers: dict[str, str] | None = None) -> None:
    response = case.call(headers=headers)
    tally.add(mode, case, response.status_code)
    if response.status_code == 200 and case.method in ("PUT", "PATCH"):
        body = response.json()
        if "version" in body:  # a list's (an event has none)
            world.versions[body["slug"]] = body["version"]
    case.validate_response(response, checks=CHECKS, headers=headers)




# Each mode is cut in two tests, the lists' operations and the others, so that none runs for minutes alone on a
# busy machine (the same requests as one test per mode).
LISTS = r"^/api/lists/"


def anonymous(case, world, tally) -> None:
    aim(case, world)
    send(case, world, tally, "anonymous")


def signed_in(case, world, tally) -> None:
    aim(case, world)
    send(case, world, tally, "token", headers={"Authorization": f"Token {world.token}"})


@schema.include(path_regex=LISTS).parametrize()
@FUZZ_SETTINGS
def test_fuzz_anonymous_lists(case, fuzz_world, fuzz_tally):
    anonymous(case, fuzz_world, fuzz_tally)


@schema.exclude(path_regex=LISTS).parametrize()
@FUZZ_SETTINGS
def test_fuzz_anonymous_others(case, fuzz_world, fuzz_tally):
    anonymous(case, fuzz_world, fuzz_tally)


@schema.include(path_regex=LISTS).parametrize()
@FUZZ_SETTINGS
def test_fuzz_signed_in_lists(case, fuzz_world, fuzz_tally):
    signed_in(case, fuzz_world, fuzz_tally)


@schema.exclude(path_regex=LISTS).parametrize()
@FUZZ_SETTINGS
def test_fuzz_signed_in_others(case, fuzz_world, fuzz_tally):
    signed_in(case, fuzz_world, fuzz_tally)


def test_fuzz_sent_enough_requests(request, fuzz_tally, api_schema):
    """Runs after the four fuzz tests (file order): the fuzz's request target (MIN_REQUESTS) cannot silently shrink."""
    selected = {getattr(item, "originalname", item.name) for item in request.session.items}
    fuzz = {f"test_fuzz_{mode}_{part}" for mode in ("anonymous", "signed_in") for part in ("lists", "others")}
    if not fuzz <= selected:
        pytest.skip("the four fuzz tests were not all selected in this run")
    operations = {operation.label for operation in (result.ok() for result in api_schema.get_all_operations())}
    for mode in ("anonymous", "token"):
        hit = {label for (sent_mode, label) in fuzz_tally.requests if sent_mode == mode}
        assert operations <= hit, f"{mode}: operations never called: {sorted(operations - hit)}"
    # Only requests to documented operations count (not the coverage phase's probes with other HTTP methods).
    assert fuzz_tally.total >= MIN_REQUESTS, (fuzz_tally.total, dict(fuzz_tally.statuses))
