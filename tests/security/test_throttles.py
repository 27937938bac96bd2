"""Throttles (docs/security.md, builder/throttles.py): sign-up, failed sign-in, validate and simulation starts
answer 429 with Retry-After and a message naming the limit once the rate is spent. Rates come from
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (HANGAR_THROTTLE_*), read at request time, so the tests set small ones."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.builder.conftest import hagmi_doc
from tests.security.conftest import PASSWORD, World

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def set_rates(settings, **rates: str) -> None:
    framework = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {**framework, "DEFAULT_THROTTLE_RATES": {**framework["DEFAULT_THROTTLE_RATES"], **rates}}


def assert_throttled_api(response, *words: str) -> None:
    assert response.status_code == 429, response.content
    error = response.json()["error"]
    assert error["code"] == "throttled"
    for word in words:
        assert word in error["message"], error["message"]
    wait = int(response["Retry-After"])
    assert 1 <= wait and f"try again in {wait} seconds" in error["message"]


def assert_throttled_page(response, *words: str) -> None:
    assert response.status_code == 429
    page = response.content.decode()
    assert int(response["Retry-After"]) >= 1 and "Too many requests" in page
    for word in words:
        assert word in page


def signup(client, name: str):
    return client.post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json")


def test_signup_is_throttled_per_address_api_and_page_together(world: World, settings):
    set_rates(settings, signup="2/hour")
    api = world.api_client("anon")
    assert signup(api, "pilot-one").status_code == 201
    page = world.page_client("anon")
    form = {"username": "pilot-two", "password": PASSWORD, "password_again": PASSWORD, "email": ""}
    assert page.post("/accounts/signup/", form).status_code == 302
    assert_throttled_api(signup(api, "pilot-three"), "Too many sign-ups", "2/hour")
    assert_throttled_page(world.page_client("anon").post("/accounts/signup/", {**form, "username": "pilot-four"}),
                          "Too many sign-ups")
    assert not get_user_model().objects.filter(username__in=["pilot-three", "pilot-four"]).exists()


def test_failed_sign_ins_are_throttled_then_even_the_right_password_waits(world: World, settings):
    set_rates(settings, login="3/hour")
    api = world.api_client("anon")
    wrong = {"username": "owner", "password": "not-it"}
    assert api.post("/api/auth/login/", wrong, format="json").status_code == 400
    assert api.post("/api/auth/token/", wrong, format="json").status_code == 400
    assert world.page_client("anon").post("/accounts/login/", wrong).status_code == 200  # the form says why
    right = {"username": "owner", "password": PASSWORD}
    assert_throttled_api(api.post("/api/auth/login/", right, format="json"), "Too many failed sign-ins", "3/hour")
    assert_throttled_api(api.post("/api/auth/token/", right, format="json"), "Too many failed sign-ins")
    page = world.page_client("anon")
    assert_throttled_page(page.post("/accounts/login/", right), "Too many failed sign-ins")
    assert "_auth_user_id" not in page.session


def test_successful_sign_ins_cost_nothing(world: World, settings):
    set_rates(settings, login="2/hour")
    right = {"username": "owner", "password": PASSWORD}
    for _ in range(4):
        assert world.api_client("anon").post("/api/auth/login/", right, format="json").status_code == 200
        assert world.page_client("anon").post("/accounts/login/", right).status_code == 302


def test_validate_is_throttled_per_address_and_per_user(world: World, settings):
    set_rates(settings, anon="2/minute", user="3/minute")
    anonymous, owner = world.api_client("anon"), world.api_client("owner")
    for _ in range(2):
        assert anonymous.post("/api/validate/", hagmi_doc(), format="json").status_code == 200
    assert_throttled_api(anonymous.post("/api/validate/", hagmi_doc(), format="json"),
                         "Too many requests from your address", "2/minute")
    for _ in range(3):
        assert owner.post("/api/validate/", hagmi_doc(), format="json").status_code == 200
    assert_throttled_api(owner.post("/api/validate/", hagmi_doc(), format="json"),
                         "Too many requests from your account", "3/minute")


def test_simulation_starts_are_throttled_per_user_api_and_page_together(world: World, settings):
    set_rates(settings, simulations="2/minute")
    game_list = world.list("public")
    body = {"list": game_list.slug, "opponent": "goldfish", "games": 2, "seed": 1}
    owner = world.api_client("owner")
    assert owner.post("/api/simulations/", body, format="json").status_code == 202
    form = {"opponent": "goldfish", "policy": "greedy", "games": 2, "seed": 2}
    assert world.page_client("owner").post(f"/lists/{game_list.slug}/simulate/", form).status_code == 302
    assert_throttled_api(owner.post("/api/simulations/", {**body, "seed": 3}, format="json"),
                         "Too many simulations started", "2/minute")
    assert_throttled_page(world.page_client("owner").post(f"/lists/{game_list.slug}/simulate/", form),
                          "Too many simulations started")
    other = world.api_client("other")  # per user: someone else still may
    assert other.post("/api/simulations/", {**body, "seed": 4}, format="json").status_code == 202


def test_a_forged_forwarded_for_header_does_not_dodge_the_throttle(world: World, settings):
    """Behind nginx (HANGAR_NUM_PROXIES=1) the address nginx appended counts, not what the client wrote."""
    set_rates(settings, anon="2/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = world.api_client("anon")

    def ping(forged: str, real: str = "203.0.113.7"):
        return client.post("/api/validate/", hagmi_doc(), format="json", HTTP_X_FORWARDED_FOR=f"{forged}, {real}")

    assert ping("1.1.1.1").status_code == 200 and ping("2.2.2.2").status_code == 200
    assert ping("3.3.3.3").status_code == 429
    assert ping("3.3.3.3", real="203.0.113.8").status_code == 200  # another real client has its own budget


def test_the_rates_come_from_the_environment():
    env = {key: value for key, value in os.environ.items() if not key.startswith("HANGAR_THROTTLE_")}
    env.update(HANGAR_THROTTLE_LOGIN="5/minute", HANGAR_THROTTLE_SIGNUP="off", HANGAR_NUM_PROXIES="2")
    code = ("import django, json; django.setup(); from django.conf import settings; "
            "print(json.dumps([settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], settings.REST_FRAMEWORK['NUM_PROXIES']]))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "hangar.settings"},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    rates, proxies = json.loads(result.stdout.strip().splitlines()[-1])
    assert rates["login"] == "5/minute" and rates["signup"] is None and proxies == 2
    assert rates["anon"] == "600/minute" and rates["simulations"] == "30/minute"  # the documented defaults
